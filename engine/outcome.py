"""Exact scores in words a player reads at a glance: "Win in 7", "Draw", "Loss in 12".

A score in Pons's convention says *which stone of the game* ends it: a win
whose last stone is the p-th stone of the game scores ``(cells + 2 - p) // 2``
for the side that places it, a forced loss is the negative of the opponent's
score, and a draw is 0. People count differently: in their own moves from
now. This module is the one place that converts; the game's panels, the
review and the command line all call :func:`outcome`, which builds on
:meth:`Score.plies_to_end <engine.score.Score.plies_to_end>`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.geometry import Geometry
from engine.score import Score


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


def outcome(score: Score | int, ply: int, geometry: Geometry) -> Outcome:
    """The :class:`Outcome` of an exact ``score`` (a Pons ``int`` or an exact Pons :class:`Score`)
    for the side to move in a position with ``ply`` stones.

    The side to move places the stones numbered ply + 1, ply + 3, ... and the
    opponent the others; :meth:`Score.plies_to_end` finds the winning stone.
    """
    if isinstance(score, int):
        score = Score.pons(score)
    if score.unit != "pons" or not score.is_exact:
        raise ValueError(f"only an exact Pons score has an outcome, not {score!r}")
    plies = score.plies_to_end(ply, geometry.cells)
    if plies is None:
        return Outcome("draw")
    if score.value > 0:
        return Outcome("win", (plies + 1) // 2)  # the mover's stones ply+1, ply+3, ..., the winning one
    return Outcome("loss", plies // 2)  # the mover's stones before the opponent's winning one


def score_words(score: Score | int, ply: int, geometry: Geometry) -> str:
    """What a value says to a player: "Win in 7", "Draw", "Loss in 12" when exact, "≈ +0.4" for an estimate."""
    if isinstance(score, Score) and not score.is_exact:
        return f"≈ {score.value:+.1f}"
    return outcome(score, ply, geometry).words
