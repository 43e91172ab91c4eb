"""Playing games between agents: one game, or a match of many.

An agent that raises, or answers with a column it may not play, forfeits the
game: the record says who and why, and the match goes on with the next game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.agents.base import Agent, SearchResult
from engine.agents.human import QuitGame
from engine.board import Board, Side
from engine.limits import Limits
from engine.stop import StopFlag


@dataclass
class GameRecord:
    """How one game went."""

    start: Board
    moves: list[int] = field(default_factory=list)
    results: list[SearchResult] = field(default_factory=list)
    winner: Side | None = None
    forfeit: Side | None = None
    reason: str = ""

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def describe(self) -> str:
        if self.forfeit is not None:
            return f"{self.winner.symbol} wins: {self.forfeit.symbol} forfeits ({self.reason})"  # type: ignore[union-attr]
        if self.winner is None:
            return "draw"
        return f"{self.winner.symbol} wins in {len(self.moves)} moves"


def play_game(
    first: Agent,
    second: Agent,
    start: Board | None = None,
    *,
    on_move: Callable[[Board, SearchResult], None] | None = None,
    stop: StopFlag | None = None,
) -> GameRecord:
    """Play from ``start`` (default: the empty board) until the game ends.

    ``first`` plays :attr:`Side.FIRST` (X) and ``second`` plays O, whoever is
    to move at ``start``. ``on_move`` sees the board after every move.
    """
    board = start.copy() if start is not None else Board()
    record = GameRecord(start=board.copy())
    players = {Side.FIRST: first, Side.SECOND: second}
    while not board.is_over:
        side = board.turn
        agent = players[side]
        try:
            result = agent.choose(board, Limits(stop=stop))
        except QuitGame:
            raise
        except Exception as exc:  # any failure of an agent forfeits its game, nothing more
            return _forfeit(record, side, _failure(agent, exc))
        reason = board.legality(result.column)
        if reason is not None:
            return _forfeit(record, side, f"{agent} chose {one_based(result.column)}: {reason}")
        board.play(result.column)
        record.moves.append(result.column)
        record.results.append(result)
        if on_move is not None:
            on_move(board, result)
    record.winner = board.winner
    return record


#: The longest forfeit reason kept: an agent's message may carry a huge value.
MAX_REASON = 500


def _failure(agent: Agent, exc: Exception) -> str:
    """Why ``agent`` failed, in one line of at most :data:`MAX_REASON` characters, naming it once."""
    message = " ".join((str(exc) or type(exc).__name__).split())
    if not message.startswith(str(agent)):
        message = f"{agent} failed: {message}"
    return message if len(message) <= MAX_REASON else message[: MAX_REASON - 3] + "..."


def one_based(column: object) -> str:
    """A column an agent answered, as a person counts it and as the agent said it: ``column 10 (it answered
    9, counted from 0)``, since a student's function answers 0-based columns (what it was, if not a whole number)."""
    if isinstance(column, int) and not isinstance(column, bool):
        return f"column {column + 1} (it answered {column}, counted from 0)"
    return f"column {column!r}"


def _forfeit(record: GameRecord, side: Side, reason: str) -> GameRecord:
    record.forfeit = side
    record.winner = side.other
    record.reason = reason
    return record


@dataclass
class MatchResult:
    """Totals of a match between a "red" and a "yellow" agent."""

    red_wins: int = 0
    yellow_wins: int = 0
    draws: int = 0
    first_wins: int = 0
    second_wins: int = 0
    games: list[GameRecord] = field(default_factory=list)

    def summary_lines(self) -> list[str]:
        return [
            f"red {self.red_wins}, yellow {self.yellow_wins}, draws {self.draws}",
            f"first {self.first_wins}, second {self.second_wins}",
        ]


def play_match(
    red: Agent,
    yellow: Agent,
    games: int,
    *,
    seed: int | None = None,
    start: Board | None = None,
    on_game: Callable[[int, GameRecord, bool], None] | None = None,
) -> MatchResult:
    """Play ``games`` games; red moves first in even-numbered games (0, 2, ...).

    With a ``seed`` every agent is reseeded before every game from it, so the
    whole match replays exactly. ``on_game(index, record, red_first)`` is
    called after each game.
    """
    totals = MatchResult()
    for index in range(games):
        red_first = index % 2 == 0
        if seed is not None:
            red.new_game(seed * 7919 + 2 * index)
            yellow.new_game(seed * 7919 + 2 * index + 1)
        else:
            red.new_game()
            yellow.new_game()
        first, second = (red, yellow) if red_first else (yellow, red)
        record = play_game(first, second, start)
        totals.games.append(record)
        if record.winner is None:
            totals.draws += 1
        else:
            first_won = record.winner is Side.FIRST
            totals.first_wins += first_won
            totals.second_wins += not first_won
            if first_won == red_first:
                totals.red_wins += 1
            else:
                totals.yellow_wins += 1
        if on_game is not None:
            on_game(index, record, red_first)
    return totals
