"""``count``: distinct positions after each number of moves."""

from __future__ import annotations

from engine.cli.common import add_command
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.count import count_positions
from engine.validate import MAX_NODES, int_arg


def add_parser(subparsers) -> None:
    parser = add_command(subparsers, "count", "print PLY COUNT: distinct legal positions after 0..P moves")
    add_geometry_arguments(parser)
    parser.add_argument(
        "--plies",
        type=int_arg(0, MAX_NODES),
        required=True,
        metavar="P",
        help="the last ply to count (the count stops at a full board: no position has more stones)",
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    for ply, count in count_positions(geometry_from(args), args.plies):
        emit(f"{ply} {count}")
    return 0
