"""What ``solve`` and ``analyze`` share: their options, and the solver they use.

That solver is the engine's one way in, :class:`~engine.solver.auto.AutoSolver`:
the plain-Python solver first (an end game is answered well under 0.3 s after the
process starts), then the search built ahead of time (the game's first start or
``python -m engine.warmup --ahead-of-time`` builds it), then numba's compiled
solver, which answers every position after the first one the others cannot. With ``--nodes`` or ``--seconds`` the
compiled solver answers from the start.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from engine.cli.common import add_grid_argument
from engine.geometry import Geometry
from engine.limits import Limits
from engine.resources import available_cores
from engine.solver.settings import DEFAULT_TABLE_MB, MAX_TABLE_MB, MAX_THREADS, MIN_TABLE_MB
from engine.validate import MAX_NODES, MAX_SECONDS, float_arg, int_arg

if TYPE_CHECKING:
    from engine.solver.auto import AutoSolver


def start_up() -> str:
    """What a fresh process takes to its first answer (measured on the Pons sets: docs/solver.md,
    "Start-up"), and whether this version's search built ahead of time is here (a stat and a small note)."""
    from engine.solver import aot

    if aot.built(Geometry()):
        here = "here it is built"
    elif aot.note_path().is_file():
        with aot.note_path().open(encoding="utf-8", errors="replace") as note:
            here = f"here it could not be built: {note.readline(200).strip()}"
    else:
        here = "here it is not built yet"
    return (
        "start-up: a fresh process answers an end game about 0.06 s after it starts (plain Python), and a\n"
        "position that needs a real search about 0.2 s after once the search is built ahead of time, else\n"
        "about 0.45 s after (numba loads first); later lines do not pay it again. The game's first start or\n"
        f"`python -m engine.warmup --ahead-of-time` builds that search; {here}."
    )


def add_threads_argument(group) -> None:
    """``--threads N``: how many cores a long solve shares its work between (default: every core)."""
    cores = available_cores()
    group.add_argument(
        "--threads",
        type=int_arg(1, MAX_THREADS),
        default=cores,
        help=f"threads a long solve shares its work between (default: every core this process may use, "
        f"here {cores}; 1 to {MAX_THREADS}; a solve limited by --nodes runs on one)",
    )


def add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = start_up()
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
    add_threads_argument(group)
    add_grid_argument(parser)
    parser.add_argument("positions", nargs="*", metavar="POSITION", help="move strings such as 4453")


def auto_solver(args: argparse.Namespace, geometry: Geometry) -> AutoSolver:
    """The solver of ``solve`` and ``analyze``: the quickest that can answer (see the module)."""
    from engine.solver.auto import AutoSolver

    return AutoSolver(geometry, table_mb=args.table_mb, book=not args.no_book, threads=args.threads)


def limits_of(args: argparse.Namespace) -> Limits:
    """``--nodes`` and ``--seconds`` as the solver's limits (0 nodes, no seconds or ``inf``: no limit)."""
    return Limits(nodes=args.nodes, seconds=args.seconds)


UNFINISHED = "not solved within the limit (raise --seconds or --nodes)"
