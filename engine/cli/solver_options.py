"""What ``solve`` and ``analyze`` share: their options and the solver they build."""

from __future__ import annotations

import argparse
import math

from engine.cli.common import add_grid_argument
from engine.geometry import Geometry
from engine.solver.book import load_default
from engine.solver.solver import DEFAULT_TABLE_MB, Solver
from engine.solver.table import MAX_TABLE_MB, MIN_TABLE_MB
from engine.validate import MAX_NODES, MAX_SECONDS, float_arg, int_arg


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


def make_solver(args: argparse.Namespace, geometry: Geometry) -> Solver:
    book = None if args.no_book else load_default(geometry)
    return Solver(geometry, args.table_mb, book=book, threads=args.threads)


def limits(args: argparse.Namespace) -> tuple[int, float | None]:
    """``(nodes, seconds)`` per position; 0 nodes and None seconds mean no limit (as does ``--seconds inf``)."""
    seconds = None if args.seconds is None or math.isinf(args.seconds) else args.seconds
    return args.nodes, seconds


UNFINISHED = "not solved within the limit (raise --seconds or --nodes)"
