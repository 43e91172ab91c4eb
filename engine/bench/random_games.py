"""``bench random_games``: how often the first player wins when both play at random.

Seeds 000 and 001 report about 56% on 7x6. The games are real ``random``
agents playing through :func:`engine.match.play_match`, the code path of every
other match.
"""

from __future__ import annotations

import time

from engine.agents.registry import create_agent
from engine.board import Board
from engine.console import emit
from engine.geometry import Geometry
from engine.match import play_match
from engine.validate import MAX_GAMES, int_arg, whole_number

DEFAULT_SIZES = ("7x6", "4x4", "5x4", "8x8")


def _geometry(text: str) -> Geometry:
    cols, _, rows = text.partition("x")
    return Geometry(whole_number(cols, "columns"), whole_number(rows, "rows"), 4)


def add_parser(benches) -> None:
    parser = benches.add_parser("random_games", help="first-player win rate of random against random")
    parser.add_argument("--games", type=int_arg(1, MAX_GAMES), default=10_000, help="games per board (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("sizes", nargs="*", default=list(DEFAULT_SIZES), metavar="COLSxROWS", help="boards, connect 4")
    parser.set_defaults(run=run)


def run(args) -> int:
    emit(f"{'board':<6} {'games':>6} {'first':>7} {'second':>7} {'draws':>6} {'seconds':>8}")
    for size in args.sizes:
        geometry = _geometry(size)
        start = time.perf_counter()
        totals = play_match(
            create_agent("random"), create_agent("random"), args.games, seed=args.seed, start=Board(geometry)
        )
        elapsed = time.perf_counter() - start
        n = args.games
        emit(
            f"{size:<6} {n:>6} {totals.first_wins / n:>7.1%} {totals.second_wins / n:>7.1%} "
            f"{totals.draws / n:>6.1%} {elapsed:>8.1f}"
        )
    return 0
