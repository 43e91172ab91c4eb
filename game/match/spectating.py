"""What a spectator of two computers can do: pause, play one move, change the pace, change or swap the
players, play a series.

A part of the :class:`~game.match.turns.TurnController` (whose state these
actions change); each tells the screen through ``on_change``, as the
controller's own actions do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from game.jobs import Kind
from game.model import Colour, Mode
from game.players import MatchConfig
from game.settings import remember
from game.spectator import SPEEDS, Series

if TYPE_CHECKING:
    from engine.agents.base import Agent
    from game.jobs import Lane
    from game.match.services import Services
    from game.match_model import MatchModel

SERIES_GAMES = 10  # the length of a spectator's series


class Spectating:
    """The spectator's actions of a turn controller."""

    # the controller's state these actions use
    services: Services
    on_change: Callable[[str], Any]
    config: MatchConfig
    mode: Mode
    model: MatchModel
    agents: dict[Colour, Agent]
    setup_error: str | None
    paused: bool
    steps: int
    series: Series | None
    computer: Lane[str]
    hint_text: str

    def _reset_turn_state(self) -> None: ...

    def say(self, text: str) -> None: ...

    def rematch(self) -> None: ...

    def restart(self, config: MatchConfig | None = None) -> None: ...

    def toggle_pause(self) -> None:
        """Pause or resume two computers; a pause stops the search under way (it starts again on resume).
        Once the game is over there is nothing to pause: the next game starts (a rematch)."""
        if self.mode is not Mode.SPECTATOR:
            return
        if self.model.board.is_over:
            self.rematch()
            return
        self.paused, self.steps = not self.paused, 0
        if self.paused and self.computer.kind == Kind.MOVE:
            self.computer.cancel()
        self.on_change("state")

    def step(self) -> None:
        """While paused: let the computer to move play one move."""
        if self.paused and not self.model.board.is_over:
            self.steps = 1
            self.on_change("state")

    def next_speed(self) -> None:
        """The next pace, remembered at once (also in a match started from the command line)."""
        names, settings = list(SPEEDS), self.services.settings
        current = names.index(settings.spectator_speed) if settings.spectator_speed in SPEEDS else 1
        settings.spectator_speed = names[(current + 1) % len(names)]
        problem = remember(self.services.settings_path, spectator_speed=settings.spectator_speed)
        if problem:
            self.services.notify(problem, error=True)
        self.on_change("state")

    def swap_players(self) -> None:
        """The two computers change sides from this position on; after a game, for a new game.

        A finished game keeps its players: swapping them under it would make its result, its score
        and its panels contradict each other.
        """
        if self.mode is not Mode.SPECTATOR:
            return
        if self.model.board.is_over:
            self.restart(self.config.swapped())
            self.hint_text = "The computers have swapped sides"
            self.on_change("state")
            return
        self.computer.cancel()
        self.config = self.model.config = self.config.swapped()
        self.agents = {colour.other: agent for colour, agent in self.agents.items()}
        for agent in self.agents.values():
            self.services.worker.run_later(agent.new_game)  # a kept search tree belongs to the other side
        self.services.tally.follow(self.config)
        self._reset_turn_state()
        self.hint_text = "The computers have swapped sides"
        self.on_change("state")

    def replace_player(self, colour: Colour, spec: str) -> None:
        """A computer player gives way to ``spec`` from this position on (after a game: in a new game)."""
        player = self.config.player(colour)
        if player.is_human or spec == player.spec:
            return
        try:
            agent = self.services.make_agent(spec)
        except Exception as exc:
            self.say(f"Cannot use {spec}: {exc}")
            return
        over = self.model.board.is_over  # a finished game keeps its players: the new one plays the next game
        self.computer.cancel()
        old = self.agents.pop(colour, None)
        if old is not None:
            self.services.worker.run_later(old.close)
        self.agents[colour] = agent
        updated = replace(player, spec=spec)
        config = replace(self.config, **{colour.value: updated})  # type: ignore[arg-type]
        self.setup_error = None
        if over:
            self.restart(config)
        else:
            self.config = self.model.config = config
            self.services.tally.follow(self.config)
            self._reset_turn_state()
        self.hint_text = f"{colour.title} is now played by {updated.agent_label}"
        self.on_change("state")

    def start_series(self, games: int = SERIES_GAMES) -> None:
        """Play ``games`` games in a row, alternating who starts, with a fresh tally; again: stop the series.

        The game on the board is the first one, unless it is over (then a rematch is).
        """
        if self.mode is not Mode.SPECTATOR:
            return
        if self.series is not None and not self.series.finished:
            self.series = None
            self.hint_text = "Series stopped"
            self.on_change("state")
            return
        if self.model.board.is_over:
            self.rematch()
        self.services.tally.clear()
        self.series = Series(games)
        self.paused = False
        self.on_change("state")
