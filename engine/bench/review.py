"""``bench review``: how long a whole 7x6 game's review takes, and how many moves stay unknown.

It plays ``--games`` games between pairs of agents from weak to strong
(random play included, each game seeded), then reviews each one the way the
game does after it ends: a fresh solver of the analysis panel's table size
with the opening book, the positions from the last to the first. Per game it
prints the moves, the seconds and the moves labelled ``unknown``; then the
totals. The bar is a review within 10 s with every move labelled.
"""

from __future__ import annotations

import statistics
import time

from engine.agents.registry import create_agent
from engine.analysis import TABLE_MB
from engine.board import Board
from engine.console import emit
from engine.formats import format_moves
from engine.geometry import Geometry
from engine.match import play_game
from engine.review import review
from engine.solver.auto import AutoSolver
from engine.solver.book import load_default
from engine.solver.solver import Solver
from engine.validate import MAX_GAMES, int_arg

#: (first player, second player): weak and random play first, then stronger and mixed pairs.
PAIRS = (
    ("random", "random"),
    ("novice", "random"),
    ("easy", "novice"),
    ("random", "easy"),
    ("medium", "easy"),
    ("easy", "medium"),
    ("medium", "medium"),
    ("alphabeta:depth=8,eval=threats", "medium"),
    ("random", "perfect"),
    ("perfect", "easy"),
)


def add_parser(benches) -> None:
    parser = benches.add_parser("review", help="time to review whole 7x6 games, and the moves left unknown")
    parser.add_argument("--games", type=int_arg(1, MAX_GAMES), default=len(PAIRS), help="games (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-book", action="store_true", help="review without the opening book")
    parser.set_defaults(run=run)


def play(pair: tuple[str, str], seed: int) -> Board:
    """One seeded game between ``pair``, as a board holding its moves."""
    first, second = (create_agent(spec, seed=seed + side) for side, spec in enumerate(pair))
    try:
        record = play_game(first, second, Board(Geometry()))
    finally:
        first.close()
        second.close()
    return Board.from_moves(record.moves, Geometry())


def run(args) -> int:
    geometry = Geometry()
    book = None if args.no_book else load_default(geometry)
    Solver(geometry, 1, book=book).warm_up()  # compile (or load) the kernels outside the clock
    emit("figures from a shared machine: wall-clock seconds per game review")
    times, unknowns, moves = [], 0, 0
    for game in range(args.games):
        pair = PAIRS[game % len(PAIRS)]
        board = play(pair, args.seed + 100 * game)
        solver = AutoSolver(geometry, table_mb=TABLE_MB, book=book or False)  # the analysis panel's, fresh
        solver.compiled.reset()  # (its table made, and empty, outside the clock)
        start = time.perf_counter()
        reviews = review(board, solver)
        seconds = time.perf_counter() - start
        unknown = sum(item.label == "unknown" for item in reviews)
        times.append(seconds)
        unknowns += unknown
        moves += len(reviews)
        emit(
            f"game {game + 1:2d} {pair[0]} vs {pair[1]}: {len(reviews)} moves in {seconds:.2f} s, "
            f"unknown {unknown}: {format_moves(board.history)}"
        )
    emit(
        f"{args.games} games, {moves} moves: review time max {max(times):.2f} s, median "
        f"{statistics.median(times):.2f} s, over 10 s: {sum(t > 10 for t in times)}; unknown moves {unknowns}"
    )
    return 0
