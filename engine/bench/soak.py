"""``bench soak``: AI-against-AI games on random boards, every game re-checked by plain rules.

For ``--minutes`` it plays games between agents drawn from a list of cheap
specs, on boards drawn from every supported size and connect-N, each game from
the empty board. Every finished game is replayed by :func:`referee`, a
deliberately naive version of the rules (a list-of-lists grid, every line
scanned cell by cell) that shares no code with the bitboards, and its result
is compared with the engine's. It prints the totals: games, boards, errors
(an agent raised), illegal moves, wrong results. These are figures, not a
pass/fail test; anything but zeros in the last three is a bug to chase.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from engine.agents.registry import create_computer_agent
from engine.board import Board, Side
from engine.console import emit
from engine.errors import EngineError
from engine.geometry import MAX_COLS, MAX_CONNECT, MAX_ROWS, MIN_COLS, MIN_CONNECT, MIN_ROWS, Geometry
from engine.match import GameRecord, play_game
from engine.validate import float_arg

#: Agents that move in well under a second on any board (time limits keep the slow ones short).
DEFAULT_AGENTS = (
    "random",
    "greedy",
    "minimax:depth=2",
    "alphabeta:depth=4",
    "alphabeta:seconds=0.05",
    "montecarlo:playouts=300",
    "mcts:iterations=300",
    "perfect:seconds=0.1",
)


def referee(geometry: Geometry, moves: list[int]) -> tuple[str, int | None]:
    """Replay ``moves`` with the plainest rules: ``("ok", winner)`` or ``("illegal", move index)``.

    ``winner`` is 0 (first player), 1 (second) or None (a draw, or a game
    that stopped early: the engine's record then says why).
    """
    grid: list[list[int | None]] = [[] for _ in range(geometry.cols)]  # each column bottom-up
    for index, col in enumerate(moves):
        if not 0 <= col < geometry.cols or len(grid[col]) >= geometry.rows:
            return "illegal", index
        player = index % 2
        grid[col].append(player)
        if _line_through(grid, geometry, col, len(grid[col]) - 1, player):
            if index != len(moves) - 1:
                return "illegal", index + 1  # a move after the game was won
            return "ok", player
    return "ok", None


def _line_through(grid: list[list[int | None]], geometry: Geometry, col: int, row: int, player: int) -> bool:
    def owner(c: int, r: int) -> int | None:
        return grid[c][r] if 0 <= c < geometry.cols and 0 <= r < len(grid[c]) else None

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            step = 1
            while owner(col + sign * step * dc, row + sign * step * dr) == player:
                run += 1
                step += 1
        if run >= geometry.connect:
            return True
    return False


@dataclass
class Totals:
    games: int = 0
    errors: int = 0
    illegal: int = 0
    wrong: int = 0
    boards: set[Geometry] = field(default_factory=set)
    examples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.examples) < 10:
            self.examples.append(text)


def random_geometry(rng: random.Random) -> Geometry:
    cols, rows = rng.randint(MIN_COLS, MAX_COLS), rng.randint(MIN_ROWS, MAX_ROWS)
    return Geometry(cols, rows, rng.randint(MIN_CONNECT, min(MAX_CONNECT, max(cols, rows))))


def check(record: GameRecord, geometry: Geometry, totals: Totals, label: str) -> None:
    """Count what is wrong with one finished game."""
    totals.games += 1
    totals.boards.add(geometry)
    if record.forfeit is not None:
        illegal = "chose column" in record.reason
        totals.illegal += illegal
        totals.errors += not illegal
        totals.note(f"{label}: {record.reason}")
        return
    verdict, value = referee(geometry, record.moves)
    winner = None if record.winner is None else int(record.winner is Side.SECOND)
    full = len(record.moves) == geometry.cells
    if verdict == "illegal":
        totals.illegal += 1
        totals.note(f"{label}: move {value} is illegal by the plain rules")
    elif value != winner or (winner is None and not full):
        totals.wrong += 1
        totals.note(f"{label}: the engine says {record.describe()}, the plain rules {value}")


def add_parser(benches) -> None:
    parser = benches.add_parser("soak", help="AI-vs-AI games on random boards, each re-checked by plain rules")
    parser.add_argument("--minutes", type=float_arg(0.01, 10**5), default=1.0, help="how long to play (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the boards, pairings and agents (default 1)")
    parser.add_argument(
        "--agents", default=";".join(DEFAULT_AGENTS), help="semicolon-separated specs (default: a cheap mix)"
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    specs = [spec.strip() for spec in args.agents.split(";") if spec.strip()]
    if not specs:
        raise EngineError("--agents names no agent: give specs separated by ';'")
    agents = {spec: create_computer_agent(spec, seed=args.seed) for spec in specs}
    rng = random.Random(args.seed)
    totals = Totals()
    start = time.monotonic()
    try:
        while time.monotonic() - start < args.minutes * 60:
            geometry = random_geometry(rng)
            red, yellow = rng.choice(specs), rng.choice(specs)
            for spec in {red, yellow}:
                agents[spec].new_game(rng.randrange(2**32))
            record = play_game(agents[red], agents[yellow], Board(geometry))
            check(record, geometry, totals, f"{red} v {yellow} on {geometry}")
    finally:
        for agent in agents.values():
            agent.close()
    seconds = time.monotonic() - start
    emit(
        f"games {totals.games}, boards {len(totals.boards)}, errors {totals.errors}, "
        f"illegal moves {totals.illegal}, wrong results {totals.wrong}, {seconds:.0f} s"
    )
    for example in totals.examples:
        emit(f"  {example}")
    return 0
