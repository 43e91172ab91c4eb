"""``puzzles``: build the puzzle set (or check it with ``--verify``), and print it (``export``).

``puzzles build`` plays seeded games of good play on each board and keeps the
positions the solver proves to have one answer (:mod:`engine.puzzles.build`);
the same seed, games and bands make the same file. ``puzzles export`` prints
one puzzle a line: ``ID BOARD POSITION KIND SOLUTION BAND MOTIFS``, or with
``--json`` one JSON object a line (``id cols rows connect position kind
solution band motifs line``, columns 1-based).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.cli.common import add_command
from engine.cli.runner_options import add_executor_arguments
from engine.console import emit
from engine.errors import EngineError
from engine.geometry import Geometry
from engine.validate import MAX_SEED, int_arg

LISTED = 20


def board_name(text: str) -> Geometry:
    """``7x6`` or ``7x6x4`` (connect 4 when left out)."""
    parts = text.lower().split("x")
    if len(parts) not in (2, 3) or not all(part.isascii() and part.isdigit() and len(part) <= 2 for part in parts):
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a board such as 7x6 or 7x6x4")
    try:
        return Geometry(*(int(part) for part in parts))
    except EngineError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(subparsers) -> None:
    from engine.puzzles.settings import BOARDS, DEFAULT_GAMES, DEFAULT_PER_BAND, DEFAULT_SEED
    from engine.puzzles.store import DEFAULT_PATH

    parser = add_command(subparsers, "puzzles", "build, check and print the puzzle set (positions with one answer)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    shipped = ", ".join(f"{g.cols}x{g.rows}" for g in BOARDS)
    build = actions.add_parser(
        "build",
        help="make the puzzle set from seeded games of good play (or --verify it)",
        description="make the puzzle set: seeded games of two alpha-beta players on each board, every position "
        "from a third of the board filled on that the solver proves to have one winning or one saving column; "
        "the same seed, games and bands give the same file",
    )
    build.add_argument("--output", type=Path, default=DEFAULT_PATH, help="the puzzle file (default: the shipped one)")
    build.add_argument(
        "--verify",
        action="store_true",
        help="check the file instead of building it: every puzzle solved again (exit status 1 if one is wrong)",
    )
    build.add_argument("--seed", type=int_arg(0, MAX_SEED), default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    build.add_argument(
        "--games", type=int_arg(1, 100_000), default=DEFAULT_GAMES, help=f"games per board (default {DEFAULT_GAMES})"
    )
    build.add_argument(
        "--per-band",
        type=int_arg(1, 100_000),
        default=DEFAULT_PER_BAND,
        help=f"puzzles kept per board and band at most (default {DEFAULT_PER_BAND})",
    )
    build.add_argument(
        "--boards", type=board_name, nargs="+", default=list(BOARDS), metavar="CxR", help=f"default {shipped}"
    )
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    add_executor_arguments(
        build.add_argument_group("running"), "local worker processes (default: every core; 1 runs here)"
    )
    build.set_defaults(run=run_build)
    export = actions.add_parser(
        "export",
        help="print the puzzles, one a line (--json: one JSON object a line)",
        description="print the puzzles: ID BOARD POSITION KIND SOLUTION BAND MOTIFS a line, or one JSON object a "
        "line with --json (id, cols, rows, connect, position, kind, solution, band, motifs, line; columns 1-based)",
    )
    export.add_argument("--json", action="store_true", help="one JSON object a line")
    export.add_argument("--file", type=Path, default=DEFAULT_PATH, help="the puzzle file (default: the shipped one)")
    export.add_argument("--board", type=board_name, default=None, metavar="CxR", help="only this board's")
    export.add_argument("--band", type=int_arg(1, 5), default=None, help="only this band's (1 easiest to 5)")
    export.add_argument("--kind", choices=("win", "save"), default=None, help="only this kind")
    export.set_defaults(run=run_export)


def run_build(args) -> int:
    from engine.experiments.executors import open_executor
    from engine.puzzles import store
    from engine.puzzles.build import build, counts
    from engine.puzzles.puzzle import board_id

    if args.verify:
        return _verify(args)
    boards = list(dict.fromkeys(args.boards))
    resume = args.output.with_name(args.output.name + ".resume")
    with open_executor(args.jobs, args.cluster) as executor:
        puzzles, found = build(
            boards, args.seed, args.games, args.per_band, executor, progress=not args.quiet, checkpoint=resume
        )
    if not puzzles:
        raise EngineError("no puzzle was found: play more games (--games)")
    result = store.PuzzleSet(tuple(puzzles), args.seed, args.games, args.per_band, tuple(board_id(g) for g in boards))
    store.save(result, args.output)
    resume.unlink(missing_ok=True)
    for name, row in counts(puzzles).items():
        emit(f"{name}: " + ", ".join(f"band {band} {count}" for band, count in enumerate(row, start=1)))
    size = args.output.stat().st_size
    emit(f"{len(puzzles)} puzzles ({found} found in {args.games} games a board) in {args.output} ({size:,} bytes)")
    return 0


def _verify(args) -> int:
    from tqdm import tqdm

    from engine.puzzles import store
    from engine.puzzles.verify import check_all

    puzzles = store.load(args.output).puzzles
    with tqdm(total=len(puzzles), desc="check", file=sys.stderr, disable=args.quiet, unit="puzzle") as bar:
        problems = check_all(puzzles, progress=lambda done: bar.update(done - bar.n))
    for problem in problems[:LISTED]:
        emit(f"wrong: {problem}")
    if len(problems) > LISTED:
        emit(f"... and {len(problems) - LISTED} more")
    emit(f"{len(puzzles) - len(problems)} of {len(puzzles)} puzzles are right")
    return 1 if problems else 0


def run_export(args) -> int:
    from engine.puzzles import store

    for puzzle in store.load(args.file).puzzles:
        if args.board is not None and puzzle.geometry != args.board:
            continue
        if (args.band is not None and puzzle.band != args.band) or (args.kind and puzzle.kind != args.kind):
            continue
        emit(json.dumps(puzzle.to_json()) if args.json else export_line(puzzle))
    return 0


def export_line(puzzle) -> str:
    g = puzzle.geometry
    solution = ",".join(str(col + 1) for col in puzzle.solution)
    motifs = ",".join(puzzle.motifs) or "-"
    board = f"{g.cols}x{g.rows}" + ("" if g.connect == 4 else f"x{g.connect}")
    return f"{puzzle.id} {board} {puzzle.position or '-'} {puzzle.kind} {solution} {puzzle.band} {motifs}"
