"""``bench search``: alpha-beta speed, seed 000's timing table, and the evaluation-function matches.

Three parts, each can be run alone (``python -m engine bench search seed000``):

- ``speed``: nodes per second of alpha-beta on 7x6, numba kernel and pure
  Python, and the time ``alphabeta:depth=8`` takes per move.
- ``seed000``: seed 000's move-ordering experiment on its own boards (4 rows,
  4 to 7 columns, the depth limits it used), next to the figures it published.
- ``evals``: every evaluation function at depth 6 against seed 002's EvalF4 at
  depth 6, 20 games each on 7x6, from the empty board (the seed's setting: both
  agents are deterministic, so there are two distinct games) and from 10
  two-move openings with colours swapped.

Speeds are nodes per second of CPU time, so that other programs running on the
machine do not count against the search; wall-clock figures are given too.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable

import numpy as np

from engine.agents.registry import create_agent
from engine.agents.search import AlphaBetaSearch, plain_alphabeta
from engine.board import Board, Side
from engine.console import emit
from engine.errors import EngineError
from engine.experiments.ordering import SEED_000_BOARDS, seed_board
from engine.geometry import DEFAULT, Geometry
from engine.kernels.evaluation import NAMES
from engine.match import play_game, play_match
from engine.reference_search import ReferenceSearch
from engine.validate import MAX_GAMES, int_arg

PARTS = ("speed", "seed000", "evals")


def add_parser(benches) -> None:
    parser = benches.add_parser(
        "search", help="alpha-beta nodes per second, seed 000's timing table, evaluation matches"
    )
    parser.add_argument("parts", nargs="*", metavar="PART", help=f"parts to run: {', '.join(PARTS)} (default: all)")
    parser.add_argument(
        "--positions", type=int_arg(1, 10**6), default=60, help="7x6 positions for the speed part (default 60)"
    )
    parser.add_argument(
        "--depth", type=int_arg(1, 81), default=12, help="alpha-beta depth for nodes per second (default 12)"
    )
    parser.add_argument(
        "--games", type=int_arg(1, MAX_GAMES), default=20, help="games per evaluation match (default 20)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for the positions and openings (default 1)")
    parser.set_defaults(run=run)


def run(args) -> int:
    unknown = [part for part in args.parts if part not in PARTS]
    if unknown:
        raise EngineError(f"unknown part {unknown[0]!r} of bench search (parts: {', '.join(PARTS)})")
    for part in args.parts or PARTS:
        {"speed": _speed, "seed000": _seed000, "evals": _evals}[part](args)
        emit("")
    emit("(figures from this machine; CPU seconds exclude time the search waited for a shared processor)")
    return 0


# -- speed ----------------------------------------------------------------------------------------
def random_positions(
    count: int,
    seed: int,
    geometry: Geometry = DEFAULT,
    stones: int | tuple[int, int] = (4, 20),
    distinct: bool = False,
) -> list[Board]:
    """Positions from seeded random games, where nobody can win at once: ``stones`` stones each
    (a pair: from ... to, at random), no two the same if ``distinct``. Fewer than ``count`` if a
    hundred tries each give no such position."""
    rng, boards, seen = random.Random(seed), list[Board](), set[str]()
    for _ in range(100 * count):
        if len(boards) == count:
            break
        board = Board(geometry)
        for _ in range(rng.randint(*stones) if isinstance(stones, tuple) else stones):
            board.play(rng.choice(board.legal_columns()))
            if board.is_over:
                break
        safe = not board.is_over and not any(board.is_winning_move(c) for c in board.legal_columns())
        if safe and not (distinct and board.move_string in seen):
            seen.add(board.move_string or "")
            boards.append(board)
    return boards


def _timed(work: Callable[[], int]) -> tuple[int, float, float]:
    """``(nodes, cpu seconds, wall seconds)`` of ``work``, which returns its node count."""
    cpu, wall = time.process_time(), time.perf_counter()
    nodes = work()
    return nodes, time.process_time() - cpu, time.perf_counter() - wall


def _rate(label: str, nodes: int, cpu: float, wall: float) -> None:
    emit(f"  {label:<56} {nodes:>11,} nodes  {nodes / cpu / 1e6:6.2f} M/s cpu  {nodes / wall / 1e6:6.2f} M/s wall")


def _speed(args) -> None:
    boards = random_positions(args.positions, args.seed)
    emit(f"alpha-beta speed on 7x6: {len(boards)} positions from seeded random games (4-20 stones)")
    configs = [
        ("threats, heuristic order, 16 MB table", "threats", "heuristic", 1 << 20),
        ("f4, centre-first order, 16 MB table", "f4", "center", 1 << 20),
        ("f4, centre-first order, no table", "f4", "center", 0),
    ]
    for label, eval_name, order, entries in configs:
        searcher = AlphaBetaSearch(DEFAULT, eval_name, order, entries)
        searcher.search(boards[0].current, boards[0].mask, 4)  # compile outside the clock

        def work(searcher: AlphaBetaSearch = searcher) -> int:
            total = 0
            for board in boards:
                searcher.clear()
                total += searcher.search(board.current, board.mask, args.depth).nodes
            return total

        _rate(f"numba, depth {args.depth}, {label}", *_timed(work))

    few, depth = boards[:10], 6
    reference = ReferenceSearch("f4", "center")

    def python_work() -> int:
        for board in few:
            reference.best_move(board.copy(), depth)
        return reference.nodes

    def kernel_work() -> int:
        return sum(plain_alphabeta(b.current, b.mask, DEFAULT, depth, "f4").nodes for b in few)

    def kernel_repeated() -> int:
        total, start = 0, time.process_time()
        while time.process_time() - start < 0.5:  # the same searches, enough times to time them
            total += kernel_work()
        return total

    ReferenceSearch("f4", "center").best_move(few[0].copy(), 1)  # load the evaluation kernel outside the clock
    python = _timed(python_work)
    kernel_work()
    kernel = _timed(kernel_repeated)
    _rate(f"pure Python reference, depth {depth}, f4, centre-first, no table", *python)
    _rate("numba, the same searches (repeated)", *kernel)
    emit(f"  numba / Python: {kernel[0] / kernel[1] / (python[0] / python[1]):,.0f} times the nodes per second")

    agent = create_agent("alphabeta:depth=8")
    agent.choose(boards[0])
    times = []
    for board in [Board(), *boards]:
        agent.new_game()
        times.append(agent.choose(board).seconds * 1000)
    emit(
        f"  alphabeta:depth=8 (defaults) per move over {len(times)} positions: "
        f"mean {np.mean(times):.1f} ms, max {max(times):.1f} ms (wall clock)"
    )


# -- seed 000's timing table ------------------------------------------------------------------------------
def _kernel_move(geometry: Geometry, current: int, mask: int, depth: int, order: str) -> tuple[int, int, float]:
    """``(column, nodes, seconds per move)`` of plain alpha-beta (no table, no deepening)."""
    plain_alphabeta(current, mask, geometry, depth, "zero", order)  # compile outside the clock
    repeats, start = 0, time.process_time()
    while True:
        result = plain_alphabeta(current, mask, geometry, depth, "zero", order)
        repeats += 1
        elapsed = time.process_time() - start
        if elapsed > 0.2:
            return result.column, result.nodes, elapsed / repeats


def _python_move(geometry: Geometry, current: int, mask: int, depth: int, order: str) -> str:
    """Seconds per move of the pure-Python reference, or why it cannot search the board."""
    other = mask ^ current
    if current.bit_count() not in (other.bit_count(), other.bit_count() - 1):
        return "unreachable"  # X to move with a stone more than O: no Board holds this position
    first, second = (current, other) if current.bit_count() == other.bit_count() else (other, current)
    board = Board.from_stones(first, second, geometry)
    start = time.process_time()
    col, _ = ReferenceSearch("zero", order).best_move(board, min(depth, geometry.cells - mask.bit_count()))
    return f"{time.process_time() - start:.4f} (col {col})"


def _seed000(args) -> None:
    emit("seed 000's move-ordering table: alpha-beta, time per move (seconds; nodes; column chosen, 0-based)")
    emit("  its boards have 4 rows; X (player 1) to move; no table, no deepening, as in the seed")
    header = (
        f"  {'board':<5} {'depth':>5}  {'seed: natural':>13} {'seed: centre':>12}  "
        f"{'numba: natural':>28}  {'numba: centre':>28}  {'Python: natural':>17} {'Python: centre':>17}"
    )
    emit(header)
    for name, grid, depth, seed_plain, seed_ordered in SEED_000_BOARDS:
        geometry, current, mask = seed_board(grid)
        cells = []
        for order in ("natural", "center"):
            col, nodes, seconds = _kernel_move(geometry, current, mask, depth, order)
            cells.append(f"{seconds:.6f} ({nodes:>6,}; col {col})")
        python = [_python_move(geometry, current, mask, depth, order) for order in ("natural", "center")]
        emit(
            f"  {name:<5} {depth:>5}  {seed_plain:>13} {seed_ordered:>12}  {cells[0]:>28}  {cells[1]:>28}  "
            f"{python[0]:>17} {python[1]:>17}"
        )
    emit("  seed columns: the seed's published figures (its Python, its machine); 'unreachable' boards have")
    emit("  X to move with one stone more than O, which the Board API refuses (the kernels search them anyway)")


# -- evaluation matches -------------------------------------------------------------------------------
def _openings(count: int, seed: int) -> list[Board]:
    pairs = list(itertools.product(range(7), repeat=2))
    return [Board.from_moves(list(pair)) for pair in random.Random(seed).sample(pairs, count)]


def _evals(args) -> None:
    depth, games = 6, args.games
    emit(f"every evaluation at depth {depth} against f4 (seed 002's EvalF4) at depth {depth}, 7x6, {games} games")
    emit("  as `python -m engine match --red alphabeta:depth=6,eval=NAME --yellow alphabeta:depth=6,eval=f4`")
    openings = _openings(games // 2, args.seed)
    opening_games = f"{len(openings)} openings x 2: W-D-L"
    emit(f"  {'eval':<8} {'empty board: W-D-L':>19} {'score':>6}   {opening_games:>24} {'score':>6}")
    for name in NAMES:
        red = create_agent(f"alphabeta:depth={depth},eval={name}")
        yellow = create_agent(f"alphabeta:depth={depth},eval=f4")
        result = play_match(red, yellow, games)
        plain = (result.red_wins, result.draws, result.yellow_wins)
        wins = draws = losses = 0
        for start, red_first in itertools.product(openings, (True, False)):
            red.new_game()
            yellow.new_game()
            record = play_game(red, yellow, start) if red_first else play_game(yellow, red, start)
            if record.winner is None:
                draws += 1
            elif (record.winner is Side.FIRST) == red_first:
                wins += 1
            else:
                losses += 1
        emit(
            f"  {name:<8} {'-'.join(map(str, plain)):>19} {_score(*plain):>6.2f}   "
            f"{f'{wins}-{draws}-{losses}':>24} {_score(wins, draws, losses):>6.2f}"
        )
    emit("  score: (wins + draws / 2) / games, for the evaluation named on the left")


def _score(wins: int, draws: int, losses: int) -> float:
    return (wins + draws / 2) / max(1, wins + draws + losses)
