"""A spectator's say over a match of two computers: a pause, one move at a time, the pace, a series, the
players.

The :class:`Spectator` holds that state; the turn controller asks it whether
the computer may move. What its actions need of the match is the narrow
:class:`Match` (whether the game is over, a new game, new players from this
position on, a line to show) and the computer's side
(:class:`~game.match.computer.ComputerTurn`), never the controller's state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from game.model import Colour, Mode
from game.settings import remember
from game.spectator import SPEEDS, Series, Speed

if TYPE_CHECKING:
    from game.match.computer import ComputerTurn
    from game.match.services import Services
    from game.players import MatchConfig

SERIES_GAMES = 10  # the length of a spectator's series


class Match(Protocol):
    """What a spectator's actions need of the match they act on."""

    @property
    def config(self) -> MatchConfig: ...

    @property
    def over(self) -> bool: ...

    def restart(self, config: MatchConfig | None = None) -> None: ...

    def rematch(self) -> None: ...

    def change_players(self, config: MatchConfig) -> None:
        """New players (or sides) from this position on."""

    def tell(self, text: str | None = None) -> None:
        """A redraw of what depends on the match's state, with a line about it (None: the line stays)."""

    def say(self, text: str) -> None:
        """A short message in the headline."""


class Spectator:
    """Paused or not, the moves still to play while paused, the series under way, the pace, the players."""

    def __init__(self, services: Services, match: Match, computer: ComputerTurn) -> None:
        self.services, self.match, self.computer = services, match, computer
        self.paused = False
        self.steps = 0  # moves still to play while paused (a step)
        self.series: Series | None = None  # a run of games between the two computers

    @property
    def watching(self) -> bool:
        return self.match.config.mode is Mode.SPECTATOR

    @property
    def speed(self) -> Speed:
        """The pace (slow, normal, fast, instant), a remembered setting."""
        return SPEEDS.get(self.services.settings.spectator_speed, SPEEDS["normal"])

    @property
    def lets_move(self) -> bool:
        """The computer to move may move: not paused, or a step was asked for."""
        return not self.paused or self.steps > 0

    @property
    def in_series(self) -> bool:
        return self.series is not None and not self.series.finished

    def moved(self) -> None:
        """A move was played: a step is used up."""
        self.steps = max(0, self.steps - 1)

    def resume(self) -> None:
        """A new game: nothing paused."""
        self.paused, self.steps = False, 0

    # -- the spectator's actions ---------------------------------------------------------------------
    def toggle_pause(self) -> None:
        """Pause or resume two computers; a pause stops the search under way (it starts again on resume).
        Once the game is over there is nothing to pause: the next game starts (a rematch)."""
        if not self.watching:
            return
        if self.match.over:
            self.match.rematch()
            return
        self.paused, self.steps = not self.paused, 0
        if self.paused and self.computer.moving:
            self.computer.lane.cancel()
        self.match.tell()

    def step(self) -> None:
        """While paused: let the computer to move play one move."""
        if self.paused and not self.match.over:
            self.steps = 1
            self.match.tell()

    def next_speed(self) -> None:
        """The next pace, remembered at once (also in a match started from the command line)."""
        names, settings = list(SPEEDS), self.services.settings
        current = names.index(settings.spectator_speed) if settings.spectator_speed in SPEEDS else 1
        settings.spectator_speed = names[(current + 1) % len(names)]
        problem = remember(self.services.settings_path, spectator_speed=settings.spectator_speed)
        if problem:
            self.services.notify(problem, error=True)
        self.match.tell()

    def start_series(self, games: int = SERIES_GAMES) -> None:
        """Play ``games`` games in a row, alternating who starts, with a fresh tally; again: stop the series.

        The game on the board is the first one, unless it is over (then a rematch is).
        """
        if not self.watching:
            return
        if self.in_series:
            self.series = None
            self.match.tell("Series stopped")
            return
        if self.match.over:
            self.match.rematch()
        self.services.tally.clear()
        self.series = Series(games)
        self.paused = False
        self.match.tell()

    def swap_players(self) -> None:
        """The two computers change sides from this position on; after a game, for a new game.

        A finished game keeps its players: swapping them under it would make its result, its score
        and its panels contradict each other.
        """
        if not self.watching:
            return
        if self.match.over:
            self.match.restart(self.match.config.swapped())
        else:
            self.computer.forget()
            self.computer.swap()
            self.match.change_players(self.match.config.swapped())
        self.match.tell("The computers have swapped sides")

    def replace_player(self, colour: Colour, spec: str) -> None:
        """A computer player gives way to ``spec`` from this position on (after a game: in a new game)."""
        player = self.match.config.player(colour)
        if player.is_human or spec == player.spec:
            return
        problem = self.computer.replace(colour, spec)
        if problem is not None:
            self.match.say(problem)
            return
        updated = replace(player, spec=spec)
        config = replace(self.match.config, **{colour.value: updated})  # type: ignore[arg-type]
        if self.match.over:  # a finished game keeps its players: the new one plays the next game
            self.match.restart(config)
        else:
            self.match.change_players(config)
        self.match.tell(f"{colour.label} is now played by {updated.agent_label}")
