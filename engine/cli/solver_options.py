"""What ``solve`` and ``analyze`` share: their options and the solvers they use.

The first positions of a process are tried with the plain-Python
:class:`~engine.solver.quick.QuickSolver` (no numba to load: an end-game
position is answered in well under 0.3 s of the process's start). The first
one it cannot finish within its budget goes to the search built ahead of time
(:mod:`engine.solver.aot`, if ``python -m engine.warmup --ahead-of-time`` has
built it for this version), which then answers the positions after it too,
within its own budget; the first position neither can answer loads numba's
compiled solver, which answers that position and every one after it.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar

from engine.board import Board
from engine.cli.common import add_grid_argument
from engine.errors import EngineError
from engine.geometry import Geometry
from engine.solver.quick import QuickSolver
from engine.solver.settings import DEFAULT_TABLE_MB, MAX_TABLE_MB, MIN_TABLE_MB, checked_table_bits
from engine.validate import MAX_NODES, MAX_SECONDS, float_arg, int_arg

if TYPE_CHECKING:
    from engine.solver.aot import AheadOfTimeSolver
    from engine.solver.book import Book
    from engine.solver.solver import Solver

T = TypeVar("T")


#: What a fresh process takes to its first answer (measured on the Pons sets: docs/solver.md, "Start-up").
START_UP = (
    "start-up: a fresh process answers an end game about 0.06 s after it starts (plain Python), a position\n"
    "that needs a real search about 0.2 s after, once `python -m engine.warmup --ahead-of-time` has built\n"
    "the search ahead of time (else about 0.45 s: numba loads first); later lines do not pay it again"
)


def add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = START_UP
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
    """The quick solvers while they keep up, then the compiled one (see the module)."""

    def __init__(self, args: argparse.Namespace, geometry: Geometry) -> None:
        self.args, self.geometry = args, geometry
        checked_table_bits(args.table_mb, geometry.wide)  # (a size this machine cannot hold fails now, not later)
        # Limits are the compiled solver's (its nodes, its clock): with them, it answers everything.
        limited = args.nodes or limits(args)[1] is not None
        # Asked first: the plain-Python solver, then the one built ahead of time; None once numba's answers.
        self._quick: QuickSolver | None = None if limited else QuickSolver(geometry)
        self._ahead: AheadOfTimeSolver | None = None
        self._compiled: Solver | None = None

    def quick_score(self, moves: str, weak: bool) -> int | None:
        """The quick solvers' score of a move string, or None when the compiled solver must answer
        (or explain what is wrong with the string)."""
        if self._quick is None:
            return None
        try:
            board = Board.from_moves(moves, self.geometry)
        except EngineError:
            return None
        return None if board.is_over else self._quick_answer(board, lambda quick: quick.solve(board, weak=weak))

    def quick_scores(self, board: Board) -> list[int | None] | None:
        """The quick solvers' score of each column, or None when the compiled solver must answer."""
        if self._quick is None or board.is_over:
            return None
        return self._quick_answer(board, lambda quick: quick.analyze(board))

    def _quick_answer(self, board: Board, ask: Callable[[QuickSolver], T | None]) -> T | None:
        """What ``ask`` gets from the plain-Python solver, else from the search built ahead of time
        (which then answers the positions after it), else None."""
        while self._quick is not None:
            if self._quick is self._ahead and self._in_book(board):
                return None  # (numba's solver has the book)
            answer = ask(self._quick)
            if answer is not None:
                return answer
            self._quick = None if self._quick is self._ahead else self._load_ahead_of_time()
        return None

    def _load_ahead_of_time(self) -> AheadOfTimeSolver | None:
        """The solver built ahead of time (engine.solver.aot), if this version has one for this board."""
        if self.geometry.wide:
            return None
        from engine.solver import aot  # (numpy: loaded only when a position needs more than plain Python)

        module = aot.load()
        if module is not None:
            self._ahead = aot.AheadOfTimeSolver(self.geometry, module, self.args.table_mb)
        return self._ahead

    def _in_book(self, board: Board) -> bool:
        """Does the opening book (if one is used) hold ``board`` or a position one move on?"""
        if self.book is None or board.ply > self.book.deepest_ply:
            return False
        if self.book.entry(board) is not None:
            return True
        for col in board.legal_columns():
            board.play(col)
            try:
                if self.book.entry(board) is not None:
                    return True
            finally:
                board.undo()
        return False

    @cached_property
    def book(self) -> Book | None:
        """The opening book of the board (None with --no-book or none shipped), loaded on first use."""
        from engine.solver.book import load_default

        return None if self.args.no_book else load_default(self.geometry)

    @property
    def compiled(self) -> Solver:
        """The compiled solver, loaded on first use; from then on the quick ones are not asked."""
        if self._compiled is None:
            from engine.solver.solver import Solver  # (numba: loaded only when a position needs it)

            # It goes on from what the search built ahead of time proved, if that one was asked.
            table = None if self._ahead is None else self._ahead.table
            self._compiled = Solver(
                self.geometry, self.args.table_mb, book=self.book, threads=self.args.threads, table=table
            )
            self._quick = None
        return self._compiled


def limits(args: argparse.Namespace) -> tuple[int, float | None]:
    """``(nodes, seconds)`` per position; 0 nodes and None seconds mean no limit (as does ``--seconds inf``)."""
    seconds = None if args.seconds is None or math.isinf(args.seconds) else args.seconds
    return args.nodes, seconds


UNFINISHED = "not solved within the limit (raise --seconds or --nodes)"
