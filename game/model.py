"""The game's core values: who plays (:class:`Mode`), the two colours (:class:`Colour`), and how it looks
(:class:`Look`) and moves (:class:`AnimationSpeed`).

Plain values every part of the game shares - the screens, the match, the saved
games, the settings file - so this module imports nothing of the game.
"""

from __future__ import annotations

from enum import Enum


class Mode(str, Enum):
    """Who plays: a person against the computer, two computers, or two people."""

    HUMAN_VS_AI = "human_vs_ai"
    SPECTATOR = "spectator"
    HOTSEAT = "hotseat"

    @property
    def label(self) -> str:
        return {"human_vs_ai": "You vs Computer", "spectator": "Computer vs Computer", "hotseat": "Two players"}[
            self.value
        ]


class Colour(str, Enum):
    """The two disc colours; which one moves first is a setting."""

    RED = "red"
    YELLOW = "yellow"

    @property
    def other(self) -> Colour:
        return Colour.YELLOW if self is Colour.RED else Colour.RED

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Look(str, Enum):
    """The colour scheme: the standard one; black, white and bright colours for low vision; a dark and a
    light one; and one whose discs every kind of colour blindness tells apart (see game.theme)."""

    STANDARD = "standard"
    HIGH_CONTRAST = "high_contrast"
    DARK = "dark"
    LIGHT = "light"
    COLOUR_BLIND = "colour_blind"

    @property
    def label(self) -> str:
        return {
            "standard": "Standard",
            "high_contrast": "High contrast",
            "dark": "Dark",
            "light": "Light",
            "colour_blind": "Colour-blind safe",
        }[self.value]


class AnimationSpeed(str, Enum):
    """How fast discs fall; ``INSTANT`` puts them in place at once."""

    SLOW = "slow"
    NORMAL = "normal"
    FAST = "fast"
    INSTANT = "instant"

    @property
    def factor(self) -> float:
        """Game seconds per real second of the drop animation (infinite: no animation)."""
        return {"slow": 0.5, "normal": 1.0, "fast": 2.0, "instant": float("inf")}[self.value]


def plural(count: int, noun: str) -> str:
    """``1 move``, ``2 moves``: a count as the game's words say it."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
