"""``book``: build or extend an opening book with the solver (resumable)."""

from __future__ import annotations

import signal
from pathlib import Path

from engine.cli.common import add_command, add_geometry_arguments, emit, geometry_from
from engine.geometry import MAX_COLS, MAX_ROWS
from engine.solver.book import book_path, check_writable
from engine.solver.book_builder import BookBuilder
from engine.solver.settings import MAX_TABLE_MB, MIN_TABLE_MB
from engine.solver.solver import Solver
from engine.validate import MAX_NODES, MAX_SECONDS, float_arg, int_arg

#: The most stones any board holds.
MAX_PLIES = MAX_COLS * MAX_ROWS
#: Depth and leaf size of the shipped 7x6 book (see docs/solver.md).
DEFAULT_PLIES = 14
DEFAULT_LEAF_NODES = 500_000


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "book",
        "build an opening book for the perfect agent; run it again to resume or deepen",
    )
    add_geometry_arguments(parser)
    parser.add_argument("--output", type=Path, default=None, help="book file (default: the one the game loads)")
    parser.add_argument(
        "--plies", type=int_arg(0, MAX_PLIES), default=DEFAULT_PLIES, help=f"deepest ply (default {DEFAULT_PLIES})"
    )
    parser.add_argument(
        "--leaf-nodes",
        type=int_arg(0, MAX_NODES),
        default=DEFAULT_LEAF_NODES,
        help="a position that a cold solve (fresh table, as the agent meets it) answers in fewer nodes, "
        f"as it does every position two plies on, is not followed (default {DEFAULT_LEAF_NODES:,})",
    )
    parser.add_argument(
        "--table-mb",
        type=float_arg(MIN_TABLE_MB, MAX_TABLE_MB),
        default=256,
        help="transposition table size in MB (default 256)",
    )
    parser.add_argument(
        "--checkpoint", type=float_arg(1, MAX_SECONDS), default=60, help="seconds between saves (default 60)"
    )
    parser.add_argument(
        "--rejudge",
        action="store_true",
        help="judge the positions already in the book again (after a change of --leaf-nodes); "
        "by default a resumed build takes them as they are",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="first check that every stored column is a best move, and solve again the positions where it is not",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def run(args) -> int:
    geometry = geometry_from(args)
    output = args.output or book_path(geometry)
    check_writable(output)  # one line now, not a traceback after hours of solving
    builder = BookBuilder(
        Solver(geometry, args.table_mb), output, args.plies, args.leaf_nodes, args.checkpoint, rejudge=args.rejudge
    )
    if args.verify:
        emit(f"{builder.drop_wrong_columns()} stored columns were not best moves: solving those positions again")
    # A plain `kill` (SIGTERM) ends the build as Ctrl-C does: saving first.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        book = builder.run(progress=not args.quiet)
    except KeyboardInterrupt:
        builder.save()
        emit(f"interrupted: {len(builder.entries)} positions saved to {output}; run again to continue")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    emit(f"{len(book)} positions in {output} ({output.stat().st_size:,} bytes), {builder.solved} solved in this run")
    if builder.open_edges:
        emit(f"{builder.open_edges} positions at ply {args.plies} need more than {args.leaf_nodes:,} nodes: deepen")
    elif all(entry.leaf for _, entry in book.positions()):
        emit("every position is a leaf: the solver answers this board within the budget without a book")
    return 0
