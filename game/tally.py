"""The score between the current two players, across games, rematches and a series.

The app keeps one :class:`Tally`. When a match starts it is pointed at that
match's players with :meth:`Tally.follow`: the same two players keep their
score (also when they have changed colours), anyone else starts from zero.
A finished game counts once; taking its last move back uncounts it, so
undoing a loss and winning the game afterwards leaves one win, not two.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.players import MatchConfig, Player
from game.settings import Colour


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

    def follow(self, config: MatchConfig) -> None:
        """Point the tally at ``config``'s players: kept if they are the same two, else reset."""
        players = (identity(config.red), identity(config.yellow))
        if players == self.players:
            return
        if self.players is not None and players == self.players[::-1]:
            self.red, self.yellow = self.yellow, self.red  # the same players have changed colours
        else:
            self.clear()
        self.players = players

    def clear(self) -> None:
        self.red = self.yellow = self.draws = 0

    def record(self, winner: Colour | None, sign: int = 1) -> None:
        """Count a finished game (``winner`` None: a draw); ``sign=-1`` takes it back."""
        if winner is Colour.RED:
            self.red = max(0, self.red + sign)
        elif winner is Colour.YELLOW:
            self.yellow = max(0, self.yellow + sign)
        else:
            self.draws = max(0, self.draws + sign)

    def wins(self, colour: Colour) -> int:
        return self.red if colour is Colour.RED else self.yellow

    @property
    def games(self) -> int:
        return self.red + self.yellow + self.draws

    def describe(self, config: MatchConfig) -> str:
        """``Ann 2 – 1 Computer, 1 draw``, with the names the players' panels show."""
        draws = f", {self.draws} draw{'s' if self.draws != 1 else ''}" if self.draws else ""
        return f"{config.red.name} {self.red} – {self.yellow} {config.yellow.name}{draws}"
