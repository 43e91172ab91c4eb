"""Score: what a number about a position means, so nobody mistakes a guess for a proof.

Agents report values in three units, and only one of them is a game value:

- ``pons``: an exact score in Pons's convention, ``(cells + 2 - p) // 2`` when
  the side to move wins with the p-th stone of the game, its negative for a
  loss, 0 for a draw (the solver, the perfect agent, a proven alpha-beta);
- ``eval``: a heuristic estimate in an evaluation function's units (a search
  that stopped at its depth limit);
- ``win_rate``: the mean result of Monte Carlo playouts in ``[0, 1]`` (a draw
  counts half); proven by an MCTS-Solver it is exactly 0, 0.5 or 1;
- ``sign``: a weak solve's proven result, 1 (win), 0 (draw) or -1 (loss), with
  no distance.

Every score is from the view of the side to move at the position it is about
(for a column's score: the side that plays that column).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Unit = Literal["pons", "eval", "win_rate", "sign"]


@dataclass(frozen=True)
class Score:
    """A value, its unit, and whether it is proven (``is_exact``)."""

    value: float
    unit: Unit
    is_exact: bool

    @classmethod
    def pons(cls, value: int) -> Score:
        """An exact game value in Pons's convention."""
        return cls(value, "pons", True)

    @classmethod
    def estimate(cls, value: float) -> Score:
        """A heuristic evaluation: a guess, never exact."""
        return cls(value, "eval", False)

    @classmethod
    def win_rate(cls, value: float, *, exact: bool = False) -> Score:
        """A Monte Carlo win rate in ``[0, 1]``; ``exact`` when the tree proved it."""
        return cls(value, "win_rate", exact)

    @classmethod
    def sign(cls, value: int) -> Score:
        """A weakly solved result: 1 win, 0 draw, -1 loss, proven, without the distance."""
        return cls(value, "sign", True)

    @property
    def outcome(self) -> int | None:
        """+1 win, 0 draw, -1 loss for the side to move when proven, else None."""
        if not self.is_exact:
            return None
        centre = 0.5 if self.unit == "win_rate" else 0.0
        return (self.value > centre) - (self.value < centre)

    def plies_to_end(self, ply: int, cells: int) -> int | None:
        """Plies from a position with ``ply`` stones to the winning stone of an exact Pons win or loss.

        The score gives the winning stone ``p`` up to parity: ``(cells + 2 - p) // 2``
        has two solutions, and the winner's stones are the odd-numbered ones
        after ``ply`` for the side to move (a win) or the even-numbered ones (a loss).
        None for a draw or anything that is not an exact Pons score.
        """
        if self.unit != "pons" or not self.is_exact or self.value == 0:
            return None
        magnitude = int(abs(self.value))
        winner_parity = (ply + 1) % 2 if self.value > 0 else ply % 2
        stone = next(p for p in (cells + 2 - 2 * magnitude, cells + 1 - 2 * magnitude) if p % 2 == winner_parity)
        return stone - ply

    def __str__(self) -> str:
        """The value as ``key=value`` output prints it: whole numbers without a point, else 4 digits."""
        value = float(self.value)
        return str(int(value)) if value.is_integer() else str(round(value, 4))
