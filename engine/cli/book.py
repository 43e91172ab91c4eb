"""``book``: build, extend or check an opening book with the solver, on local processes or a Dask cluster.

The positions of each ply are tasks of the studies' runner (``--jobs``,
``--cluster``, a resume file beside the book: see
:mod:`engine.solver.book_builder`); a stopped build, however it stopped,
goes on where it was when run again.
"""

from __future__ import annotations

import os
import signal
from concurrent.futures import Executor
from pathlib import Path

from engine.cli.common import add_command
from engine.cli.runner_options import add_executor_arguments
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.errors import EngineError
from engine.experiments.executors import open_executor
from engine.geometry import MAX_COLS, MAX_ROWS
from engine.solver.book import Book, board_of_key, book_path, check_writable
from engine.solver.book_builder import BookBuilder, check_book, resume_path, verify_path
from engine.solver.settings import MAX_TABLE_MB, MAX_THREADS, MIN_TABLE_MB
from engine.tasks import Row
from engine.validate import MAX_NODES, float_arg, int_arg

#: The most stones any board holds.
MAX_PLIES = MAX_COLS * MAX_ROWS
#: Depth and leaf size of the shipped 7x6 book (see docs/solver.md).
DEFAULT_PLIES = 14
DEFAULT_LEAF_NODES = 500_000
#: Wrong positions that ``--verify`` lists one by one.
LISTED = 20


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "book",
        "build an opening book for the perfect agent (on many cores or machines); run it again to resume or deepen",
    )
    add_geometry_arguments(parser)
    parser.add_argument("--output", type=Path, default=None, help="book file (default: the one the game loads)")
    parser.add_argument(
        "--plies", type=int_arg(0, MAX_PLIES), default=DEFAULT_PLIES, help=f"deepest ply (default {DEFAULT_PLIES})"
    )
    parser.add_argument(
        "--every-ply",
        type=int_arg(2, MAX_PLIES),
        default=None,
        metavar="P",
        help="also store every position of P stones, off the agent's tree too (the positions people reach); "
        "with one move of look-ahead the solver then answers every position of P-1 and P stones at once "
        "(the shipped 7x6 book: 7). A ply the book already holds whole is kept",
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
        help="transposition table size in MB, per worker process (default 256)",
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
        help="check the book instead of building it: every stored score must be its position's exact score "
        "and every stored column must keep it (fresh solves, as dear as a build); exit status 1 if not. "
        "Stopped, it goes on where it was when run again (a .verify file beside the book)",
    )
    parser.add_argument(
        "--from-ply",
        type=int_arg(0, MAX_PLIES),
        default=0,
        metavar="P",
        help="--verify, --repair: check only the positions of at least P stones (e.g. those a deepening added)",
    )
    parser.add_argument(
        "--to-ply",
        type=int_arg(0, MAX_PLIES),
        default=MAX_PLIES,
        metavar="P",
        help="--verify, --repair: check only the positions of at most P stones",
    )
    parser.add_argument(
        "--repair",
        action="store_true",
        help="check the book as --verify does, then build, solving again the positions found wrong",
    )
    running = parser.add_argument_group("running")
    add_executor_arguments(
        running, "local worker processes, each with its own table (default: every core; 1 runs here)"
    )
    running.add_argument(
        "--threads",
        type=int_arg(1, MAX_THREADS),
        default=1,
        metavar="N",
        help="threads each position's solve shares its work between (default 1: --jobs already uses every "
        "core; the same book for every N)",
    )
    running.add_argument(
        "--restart",
        action="store_true",
        help="build from the empty board: forget the positions of the book file and the resume file "
        "of a stopped build (default: resume from both); with --verify: check every position again, "
        "forgetting what a stopped check found",
    )
    running.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def run(args) -> int:
    geometry = geometry_from(args)
    if args.from_ply > args.to_ply:
        raise EngineError(f"--from-ply {args.from_ply} is above --to-ply {args.to_ply}: no position would be checked")
    if (args.from_ply, args.to_ply) != (0, MAX_PLIES) and not (args.verify or args.repair):
        raise EngineError("--from-ply and --to-ply choose what --verify or --repair checks: give one of them")
    output = args.output or book_path(geometry)
    if args.verify:
        return _verify(args, output)
    check_writable(output)  # one line now, not a traceback after hours of solving
    builder = BookBuilder(
        geometry,
        output,
        args.plies,
        args.leaf_nodes,
        table_mb=args.table_mb,
        threads=args.threads,
        every_ply=args.every_ply,
        rejudge=args.rejudge,
        log=emit,
    )
    if args.restart:
        builder.drop(list(builder.entries))
        _remove(resume_path(output))
    # A plain `kill` (SIGTERM) ends the build as Ctrl-C does: saving first.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        with open_executor(args.jobs, args.cluster) as executor:
            if args.repair:
                wrong = _wrong(args, builder.save(), executor, _checkpoint(output))
                builder.drop([row["position"] for row in wrong])
                emit(f"{len(wrong)} stored positions were wrong: solving them again")
            book = builder.run(executor, progress=not args.quiet)
    except KeyboardInterrupt:
        builder.save()
        emit(
            f"interrupted: {len(builder.entries)} positions saved to {output}, the positions of the ply under way "
            f"in {resume_path(output)}; run again to continue"
        )
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    emit(f"{len(book)} positions in {output} ({output.stat().st_size:,} bytes), {builder.solved} solved in this run")
    if builder.open_edges:
        emit(f"{builder.open_edges} positions at ply {args.plies} need more than {args.leaf_nodes:,} nodes: deepen")
    elif all(entry.leaf for _, entry in book.positions()):
        emit("every position is a leaf: the solver answers this board within the budget without a book")
    return 0


def _wrong(args, book: Book, executor: Executor | None, checkpoint: Path | None) -> list[Row]:
    return check_book(
        book,
        executor,
        from_ply=args.from_ply,
        to_ply=args.to_ply,
        table_mb=args.table_mb,
        threads=args.threads,
        progress=not args.quiet,
        checkpoint=checkpoint,
    )


def _checkpoint(output: Path) -> Path | None:
    """Where a check of ``output`` keeps its rows: beside the book, if its folder may be written (an
    installed book's may not: its check then starts afresh each time)."""
    return verify_path(output) if os.access(output.parent, os.W_OK) else None


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise EngineError(f"cannot remove {path}: {exc.strerror or exc}") from None


def _verify(args, output: Path) -> int:
    """``--verify``: check every stored position (of ``--from-ply`` to ``--to-ply`` stones); 1 if one is wrong.

    Resumable as a build is: the rows go to a file beside the book (see
    :func:`~engine.solver.book_builder.verify_path`), removed once the check
    passes; ``--restart`` forgets them.
    """
    book = Book.load(output)
    checkpoint = _checkpoint(output)
    if args.restart and checkpoint is not None:
        _remove(checkpoint)
    previous = signal.signal(signal.SIGTERM, _interrupt)  # a plain `kill` keeps what was checked, as Ctrl-C does
    try:
        with open_executor(args.jobs, args.cluster) as executor:
            wrong = _wrong(args, book, executor, checkpoint)
    except KeyboardInterrupt:
        kept = f"the positions checked so far are in {checkpoint}; run again to continue" if checkpoint else ""
        emit(f"interrupted: {kept or 'nothing kept (the book folder is not writable)'}")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    checked = sum(1 for board, _ in book.positions() if args.from_ply <= board.ply <= args.to_ply)
    for row in wrong[:LISTED]:
        board = board_of_key(row["position"], book.geometry)
        entry = book.entry(board)
        assert entry is not None
        column = "none" if entry.column is None else entry.column + 1
        emit(
            f"wrong: position {row['position']} (ply {board.ply}): stored score "
            f"{entry.score}, column {column}; exact score {row['exact']}, after that column {row['after']}"
        )
    if len(wrong) > LISTED:
        emit(f"... and {len(wrong) - LISTED} more")
    if wrong:
        emit(f"{len(wrong)} of {checked} positions checked are wrong; `book --repair` solves them again")
        return 1
    if checkpoint is not None:
        _remove(checkpoint)  # passed: nothing left to resume
    emit(f"{checked} positions checked: every stored score is exact and every stored column a best move")
    return 0
