"""What ``solve`` and ``analyze`` share: their options and the solvers they use.

The first positions of a process are tried with the plain-Python
:class:`~engine.solver.quick.QuickSolver` (no numba to load: an end-game
position is answered in well under 0.3 s of the process's start); the first
one it cannot finish within its budget loads the compiled solver, which
answers that position and every one after it.
"""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

from engine.board import Board
from engine.cli.common import add_grid_argument
from engine.errors import EngineError
from engine.geometry import Geometry
from engine.solver.quick import QuickSolver
from engine.solver.settings import DEFAULT_TABLE_MB, MAX_TABLE_MB, MIN_TABLE_MB, checked_table_bits
from engine.validate import MAX_NODES, MAX_SECONDS, float_arg, int_arg

if TYPE_CHECKING:
    from engine.solver.solver import Solver


def add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("solver")
    group.add_argument(
        "--table-mb",
        type=float_arg(MIN_TABLE_MB, MAX_TABLE_MB),
        default=DEFAULT_TABLE_MB,
        help=f"transposition table size in MB (default {DEFAULT_TABLE_MB}; at most the machine's memory)",
    )
    group.add_argument("--no-book", action="store_true", help="do not use the opening book (7x6)")
    group.add_argument(
        "--seconds",
        type=float_arg(0.001, MAX_SECONDS, allow_inf=True),
        default=None,
        help="give up on a position after this long (default and inf: no limit)",
    )
    group.add_argument(
        "--nodes",
        type=int_arg(0, MAX_NODES),
        default=0,
        help="give up on a position after this many nodes (default and 0: no limit)",
    )
    group.add_argument(
        "--threads",
        type=int,
        choices=(1, 2),
        default=1,
        help="2: a long solve shares its work between two cores (boards up to 9x6 and 8x7; not with --nodes)",
    )
    add_grid_argument(parser)
    parser.add_argument("positions", nargs="*", metavar="POSITION", help="move strings such as 4453")


class Solvers:
    """The quick solver while it keeps up, then the compiled one (see the module)."""

    def __init__(self, args: argparse.Namespace, geometry: Geometry) -> None:
        self.args, self.geometry = args, geometry
        checked_table_bits(args.table_mb, geometry.wide)  # (a size this machine cannot hold fails now, not later)
        # Limits are the compiled solver's (its nodes, its clock): with them, it answers everything.
        limited = args.nodes or limits(args)[1] is not None
        self._quick: QuickSolver | None = None if limited else QuickSolver(geometry)
        self._compiled: Solver | None = None

    def quick_score(self, moves: str, weak: bool) -> int | None:
        """The quick solver's score of a move string, or None when the compiled solver must answer
        (or explain what is wrong with the string)."""
        if self._quick is None:
            return None
        try:
            board = Board.from_moves(moves, self.geometry)
        except EngineError:
            return None
        return None if board.is_over else self._quick.solve(board, weak=weak)

    def quick_scores(self, board: Board) -> list[int | None] | None:
        """The quick solver's score of each column, or None when the compiled solver must answer."""
        return None if self._quick is None or board.is_over else self._quick.analyze(board)

    @property
    def compiled(self) -> Solver:
        """The compiled solver, loaded on first use; from then on the quick one is not asked."""
        if self._compiled is None:
            from engine.solver.book import load_default  # (numba: loaded only when a position needs it)
            from engine.solver.solver import Solver

            book = None if self.args.no_book else load_default(self.geometry)
            self._compiled = Solver(self.geometry, self.args.table_mb, book=book, threads=self.args.threads)
            self._quick = None
        return self._compiled


def limits(args: argparse.Namespace) -> tuple[int, float | None]:
    """``(nodes, seconds)`` per position; 0 nodes and None seconds mean no limit (as does ``--seconds inf``)."""
    seconds = None if args.seconds is None or math.isinf(args.seconds) else args.seconds
    return args.nodes, seconds


UNFINISHED = "not solved within the limit (raise --seconds or --nodes)"
