"""``explore``: every column's exact value in a position and the best line from it (``--json``: one object)."""

from __future__ import annotations

import json

from engine.cli.common import PositionReporter, add_command, position_lines
from engine.cli.solver_options import add_threads_argument
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.solver.settings import DEFAULT_TABLE_MB, MAX_TABLE_MB, MIN_TABLE_MB
from engine.validate import MAX_NODES, MAX_SECONDS, float_arg, int_arg


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "explore",
        "the opening explorer: the exact value of every column of each POSITION (from the mover's side, in the "
        "convention of solve: win or loss in how many moves, or draw) and the best line from it",
    )
    add_geometry_arguments(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help='one JSON object a position: {"position", "cols", "rows", "connect", "columns": [{"column" (1-based), '
        '"score" (null: full or not solved), "full", "words", "best"}, ...], "best", "line"}',
    )
    group = parser.add_argument_group("solver")
    group.add_argument(
        "--seconds",
        type=float_arg(0.001, MAX_SECONDS, allow_inf=True),
        default=None,
        help="give up on a position after this long (default: no limit)",
    )
    group.add_argument(
        "--table-mb", type=float_arg(MIN_TABLE_MB, MAX_TABLE_MB), default=DEFAULT_TABLE_MB, help="table size"
    )
    group.add_argument("--no-book", action="store_true", help="do not use the opening book")
    group.add_argument(
        "--line-nodes",
        type=int_arg(0, MAX_NODES),
        default=0,
        help="follow the best line past the book and the end game with the solver, each move within this many "
        "nodes (default 0: the line stops where the book and the plain-Python solver stop answering at once)",
    )
    add_threads_argument(group)
    parser.add_argument("positions", nargs="*", metavar="POSITION", help="move strings such as 4453 (stdin if none)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from engine.explore import Explorer
    from engine.limits import Limits
    from engine.solver.auto import AutoSolver

    geometry = geometry_from(args)
    solver = AutoSolver(geometry, table_mb=args.table_mb, book=not args.no_book, threads=args.threads)
    explorer = Explorer(solver, line_nodes=args.line_nodes)
    reporter = PositionReporter()
    for number, line in enumerate(position_lines(args.positions)):
        board = reporter.board(line, geometry)
        if board is None:
            continue
        if board.is_over:
            reporter.fail(line, "the game is already over: there is no move to explore")
            continue
        found = explorer.explore(board, Limits(seconds=args.seconds))
        if not found.finished:
            reporter.fail(line, "not solved within the limit (raise --seconds)")
            continue
        if args.json:
            emit(json.dumps(found.to_json()))
            continue
        if number:
            emit("")
        emit(f"{line.text or '(empty board)'}: {board.turn.symbol} to move")
        for value in found.columns:
            mark = "  best" if value.column == found.best else ""
            score = "" if value.score is None else f"{value.score:+d}"
            emit(f"  column {value.column + 1}: {value.words(board):<12} {score:>4}{mark}")
        emit("  best line: " + " ".join(str(col + 1) for col in found.line))
    return reporter.status
