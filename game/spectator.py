"""What a spectator controls besides pausing: the pace of the game and a series of games.

The pace only changes how long a computer's move stays on screen before the
next one and whether discs fall or appear at once; the computers think as long
as their own limits say.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Speed:
    label: str
    move_time: float  # shortest time a move takes on screen (seconds)
    pause_factor: float  # the pause between the games of a series, as a share of the usual result delay
    instant: bool = False  # discs appear without falling


SPEEDS = {
    "slow": Speed("Slow", 2.0, 1.5),
    "normal": Speed("Normal", 0.7, 1.0),
    "fast": Speed("Fast", 0.2, 0.6),
    "instant": Speed("Instant", 0.0, 0.3, instant=True),
}


@dataclass
class Series:
    """A run of games between the same two computers; the tally keeps the score."""

    total: int
    game: int = 1  # the number of the game on the board

    @property
    def finished(self) -> bool:
        """The game on the board is the last one of the series."""
        return self.game >= self.total

    def describe(self) -> str:
        return f"Game {self.game} of {self.total}"
