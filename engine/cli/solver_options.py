"""What ``solve`` and ``analyze`` share: their options and the solver they build."""

from __future__ import annotations

import argparse

from engine.errors import EngineError
from engine.geometry import Geometry
from engine.solver.book import load_default
from engine.solver.solver import DEFAULT_TABLE_MB, Solver


def add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("solver")
    group.add_argument(
        "--table-mb",
        type=float,
        default=DEFAULT_TABLE_MB,
        help=f"transposition table size (default {DEFAULT_TABLE_MB})",
    )
    group.add_argument("--no-book", action="store_true", help="do not use the opening book (7x6)")
    group.add_argument("--seconds", type=float, default=None, help="give up on a position after this long")
    group.add_argument("--nodes", type=int, default=0, help="give up on a position after this many nodes")
    parser.add_argument("positions", nargs="*", metavar="POSITION", help="move strings such as 4453")


def make_solver(args: argparse.Namespace, geometry: Geometry) -> Solver:
    if args.table_mb <= 0 or args.nodes < 0 or (args.seconds is not None and args.seconds <= 0):
        raise EngineError("--table-mb, --seconds and --nodes must be positive")
    return Solver(geometry, args.table_mb, book=None if args.no_book else load_default(geometry))


def limits(args: argparse.Namespace) -> dict[str, object]:
    return {"nodes": args.nodes, "seconds": args.seconds}


UNFINISHED = "not solved within the limit (raise --seconds or --nodes)"
