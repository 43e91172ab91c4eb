"""The score between the current two players, across games, rematches and a series.

The app keeps one :class:`Tally`. When a match starts it is pointed at that
match's players with :meth:`Tally.follow`: the same two players keep their
score (also when they have changed colours), anyone else starts from zero.
A finished game counts once; taking its last move back uncounts it, so
undoing a loss and winning the game afterwards leaves one win, not two.

The score survives a restart: the app keeps :meth:`Tally.to_json` in the
settings file (``tally``) and calls back :attr:`Tally.listener` after every
change. :meth:`Tally.from_json` checks what it reads and gives None for
anything damaged, so a bad entry means a fresh score, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.model import Colour
from game.players import MatchConfig, Player


def identity(player: Player) -> tuple[str, str]:
    """Who a player is for the score: a person by name, a computer by its agent."""
    return ("person", player.name) if player.spec is None else ("computer", player.spec)


@dataclass
class Tally:
    """Wins of the red and yellow players and draws, for the players in :attr:`players`."""

    players: tuple[tuple[str, str], tuple[str, str]] | None = None
    red: int = 0
    yellow: int = 0
    draws: int = 0
    #: Called after every change (the app saves the score there).
    listener: Callable[[Tally], None] | None = field(default=None, repr=False, compare=False)

    def follow(self, config: MatchConfig) -> None:
        """Point the tally at ``config``'s players: kept if they are the same two, else reset."""
        players = (identity(config.red), identity(config.yellow))
        if players == self.players:
            return
        if self.players is not None and players == self.players[::-1]:
            self.red, self.yellow = self.yellow, self.red  # the same players have changed colours
        else:
            self.red = self.yellow = self.draws = 0
        self.players = players
        self._changed()

    def clear(self) -> None:
        self.red = self.yellow = self.draws = 0
        self._changed()

    def record(self, winner: Colour | None, sign: int = 1) -> None:
        """Count a finished game (``winner`` None: a draw); ``sign=-1`` takes it back."""
        if winner is Colour.RED:
            self.red = max(0, self.red + sign)
        elif winner is Colour.YELLOW:
            self.yellow = max(0, self.yellow + sign)
        else:
            self.draws = max(0, self.draws + sign)
        self._changed()

    def _changed(self) -> None:
        if self.listener is not None:
            self.listener(self)

    def to_json(self) -> dict[str, Any]:
        """The score as the settings file keeps it (empty before any match)."""
        if self.players is None:
            return {}
        players = [list(player) for player in self.players]
        return {"players": players, "red": self.red, "yellow": self.yellow, "draws": self.draws}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally | None:
        """The score saved by :meth:`to_json`; None if it is damaged (an empty dict is a fresh tally)."""
        if not data:
            return cls()
        players, counts = data.get("players"), [data.get(key) for key in ("red", "yellow", "draws")]
        if not (isinstance(players, list) and len(players) == 2 and all(map(_is_identity, players))):
            return None
        if not all(type(count) is int and 0 <= count < 1_000_000 for count in counts):
            return None
        red, yellow = (tuple(player) for player in players)
        return cls((red, yellow), *counts)  # type: ignore[arg-type]  # checked just above

    def wins(self, colour: Colour) -> int:
        return self.red if colour is Colour.RED else self.yellow

    @property
    def games(self) -> int:
        return self.red + self.yellow + self.draws

    def describe(self, config: MatchConfig) -> str:
        """``Ann 2 – 1 Computer, 1 draw``, with the names the players' panels show."""
        draws = f", {self.draws} draw{'s' if self.draws != 1 else ''}" if self.draws else ""
        return f"{config.red.name} {self.red} – {self.yellow} {config.yellow.name}{draws}"


def _is_identity(value: object) -> bool:
    """Whether ``value`` is an :func:`identity` as JSON keeps it: ``["person", name]`` or ``["computer", spec]``."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and value[0] in ("person", "computer")
        and isinstance(value[1], str)
        and len(value[1]) < 1000
    )
