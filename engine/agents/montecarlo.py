"""The ``montecarlo`` agent: pure Monte Carlo search (seeds 000 and 001).

For every legal column, play it and finish the game with playouts; the
column with the best mean result is the move. ``playouts=`` is the budget of
the whole move, shared evenly by the legal columns (rounded up to a whole
number per column), so ``montecarlo:playouts=7000`` on an empty 7x6 board
plays 1000 games after each of the 7 columns. ``seconds=`` is the alternative
budget; with both, whichever runs out first ends the search.

A column that wins at once is played without any playout (and the result is
marked exact): no playout could change its score of 1.

The playouts are ``smart`` by default (win if you can, else block). With
``rollout=random``, the seeds' version, the search is fooled by a random
opponent: in seed 004's third game state it prefers making three in a column
to blocking the opponent's win, because a random opponent rarely takes that
win; a smart one always does.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import param, register
from engine.board import Board
from engine.geometry import Geometry
from engine.kernels.montecarlo import ROLLOUTS, pure_monte_carlo, winning_column
from engine.kernels.rng import make_rng
from engine.progress import Progress
from engine.score import Score
from engine.stop import StopFlag

#: Seconds per move when an agent is given neither a time nor a count.
DEFAULT_SECONDS = 1.0

_READY: set[bool] = set()  # the bitboard widths whose kernel this process has loaded

ROLLOUT_HELP = "playout policy: random moves, or smart (win if you can, else block a win, else random)"


def new_rng(seed: int | None) -> np.ndarray:
    """A kernel generator from ``seed``, or from fresh entropy when it is None."""
    return make_rng(secrets.randbits(63) if seed is None else seed)


def time_budget(seconds: float | None, count: int | None) -> float | None:
    """The time limit to use: ``seconds``, or the default when no count is given either."""
    if seconds is None and count is None:
        return DEFAULT_SECONDS
    return seconds


def central_order(columns: list[int], cols: int) -> list[int]:
    """``columns`` sorted from the centre outwards, the tie-break of every choice."""
    return sorted(columns, key=lambda col: (abs(2 * col - (cols - 1)), col))


def per_column_text(values: Sequence[object | None]) -> str:
    """``12,340,x`` for a ``key=value`` statistic: one entry per column, x where there is none."""
    return ",".join("x" if value is None else str(value) for value in values)


@register("montecarlo", "pure Monte Carlo search: playouts after each column, the best mean result wins")
@dataclass
class MonteCarloAgent(Agent):
    node_key: ClassVar[str | None] = "playouts"  # (what Limits.nodes caps)
    playouts: int | None = param(
        None, "playouts per move in total, shared evenly by the legal columns", kind=int, low=1, high=10**10
    )
    seconds: float | None = param(
        None,
        "seconds per move (default 1 when playouts is not given)",
        kind=float,
        low=0.001,
        high=86400,
        aliases=("time",),
    )
    rollout: str = param("smart", ROLLOUT_HELP, choices=tuple(ROLLOUTS))
    seed: int | None = param(None, "random seed (none: a fresh one)", kind=int, low=0)
    _rng: np.ndarray = field(init=False, repr=False, compare=False)
    # The kernel's running totals per column, published for other threads (see engine.progress).
    _counts: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    _points: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = new_rng(self.seed)

    def new_game(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = new_rng(seed)

    def prepare(self, geometry: Geometry) -> None:
        if geometry.wide not in _READY:  # compile or load the kernel: no playout, no random draw
            points, counts = np.zeros(geometry.cols), np.zeros(geometry.cols, dtype=np.int64)
            empty = geometry.to_kernel(0)
            pure_monte_carlo(empty, empty, geometry.kernel, self._rng, 0, 0, np.ones(1, np.uint8), points, counts)
            winning_column(empty, empty, geometry.kernel)
            _READY.add(geometry.wide)

    def _progress(self, seconds: float) -> Progress | None:
        counts, points = self._counts, self._points
        if counts is None or points is None:
            return None
        counts, points = counts.copy(), points.copy()  # one look, then consistent arithmetic
        total = int(counts.sum())
        tried = [col for col in range(len(counts)) if counts[col]]
        best = max(tried, key=lambda col: points[col] / counts[col]) if tried else None
        return Progress(
            seconds,
            total,
            unit="playouts",
            best_column=best,
            pv=() if best is None else (best,),
            visit_shares=tuple(float(c) / total if c else None for c in counts) if total else None,
        )

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        geometry = board.geometry
        g = geometry.kernel
        current, mask = board.kernel_state()
        win = winning_column(current, mask, g)
        if win >= 0:
            scores: list[Score | None] = [None] * geometry.cols
            scores[win] = Score.win_rate(1.0, exact=True)
            return SearchResult(column=win, score=scores[win], pv=(win,), column_scores=tuple(scores))

        legal = board.legal_columns()
        per_column = -1 if self.playouts is None else math.ceil(self.playouts / len(legal))
        points = self._points = np.zeros(geometry.cols, dtype=np.float64)
        counts = self._counts = np.zeros(geometry.cols, dtype=np.int64)
        policy = ROLLOUTS[self.rollout]
        with self.time_limit(stop, time_budget(self.seconds, self.playouts)) as flag:
            playouts = pure_monte_carlo(current, mask, g, self._rng, policy, per_column, flag.array, points, counts)

        rates: list[Score | None] = [
            Score.win_rate(float(points[col] / counts[col])) if counts[col] else None for col in range(geometry.cols)
        ]
        column = max(central_order(legal, geometry.cols), key=lambda col: _rate(rates[col]))
        return SearchResult(
            column=column,
            nodes=playouts,
            score=rates[column] or Score.win_rate(0.0),
            pv=(column,),
            column_scores=tuple(rates),
            completed=not stop.is_set(),
            info={"visits": per_column_text([int(counts[c]) if c in legal else None for c in range(geometry.cols)])},
        )


def _rate(score: Score | None) -> float:
    """A column's win rate for choosing the best; an unplayed column (stopped at once) comes last."""
    return -1.0 if score is None else score.value
