"""Exact scores in words a player reads at a glance: "Win in 7", "Draw", "Loss in 12".

A score in Pons's convention says *which stone of the game* ends it: a win
whose last stone is the p-th stone of the game scores ``(cells + 2 - p) // 2``
for the side that places it, a forced loss is the negative of the opponent's
score, and a draw is 0. People count differently: in their own moves from
now. This module is the one place that converts; the game's panels, the
review and the command line all call :func:`outcome`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.geometry import Geometry


@dataclass(frozen=True)
class Outcome:
    """A proven result for the side to move: ``kind`` and how many of its own moves until the end.

    ``moves`` counts the side's own moves: "Win in 1" is a winning move now,
    "Loss in 1" means the opponent wins right after this side's next move.
    It is None for a draw (the board fills up, there is nothing to count).
    """

    kind: str  # "win", "draw" or "loss"
    moves: int | None = None

    @property
    def words(self) -> str:
        if self.kind == "draw":
            return "Draw"
        return f"{self.kind.capitalize()} in {self.moves}"

    @property
    def short(self) -> str:
        """``W7`` / ``D`` / ``L12``: for narrow places and ``key=value`` output."""
        return "D" if self.kind == "draw" else f"{self.kind[0].upper()}{self.moves}"

    @property
    def sign(self) -> int:
        """1 for a win, 0 for a draw, -1 for a loss: the game value without its distance."""
        return {"win": 1, "draw": 0, "loss": -1}[self.kind]


def outcome(score: int, ply: int, geometry: Geometry) -> Outcome:
    """The :class:`Outcome` of ``score`` for the side to move in a position with ``ply`` stones.

    The side to move places the stones numbered ply + 1, ply + 3, ...; the
    opponent those numbered ply + 2, ply + 4, ... Of the two stone numbers a
    score allows (the formula rounds down), only one has the right parity.
    """
    if score == 0:
        return Outcome("draw")
    cells = geometry.cells
    magnitude = abs(score)
    # (cells + 2 - p) // 2 == magnitude  <=>  p in {cells + 2 - 2m, cells + 1 - 2m}.
    candidates = (cells + 2 - 2 * magnitude, cells + 1 - 2 * magnitude)
    if score > 0:
        stone = next(p for p in candidates if p % 2 == (ply + 1) % 2)  # one of the mover's stones
        return Outcome("win", (stone - ply + 1) // 2)  # the mover's stones ply+1 .. stone
    stone = next(p for p in candidates if p % 2 == ply % 2)  # one of the opponent's stones
    return Outcome("loss", (stone - ply) // 2)  # the mover's stones ply+1 .. stone-1


def score_words(score: int, ply: int, geometry: Geometry) -> str:
    """``outcome(score, ply, geometry).words``: "Win in 7", "Draw", "Loss in 12"."""
    return outcome(score, ply, geometry).words
