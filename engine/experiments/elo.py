"""Elo ratings with confidence intervals from game results.

Method: the Bradley-Terry model, P(i beats j) = g_i / (g_i + g_j), fitted by
maximum likelihood with Hunter's minorisation-maximisation iteration (2004),
a draw counting as half a win for each side. The strength g_i becomes an Elo
rating 400 * log10(g_i), shifted so that the mean rating is 0; a difference
of 400 Elo means 10:1 odds. To keep an agent that won (or lost) every game
finite, every pair of agents that met gets one virtual drawn game (a weak
prior, as in BayesElo). The 95 % interval is the 2.5 and 97.5 percentiles of
the ratings refitted on bootstrap resamples of the games (seeded).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Virtual drawn games added between every pair that met (see the module docstring).
PRIOR_DRAWS = 1.0


@dataclass(frozen=True)
class Rating:
    """One agent's Elo and its 95 % confidence interval."""

    elo: float
    low: float
    high: float


def fit(scores: np.ndarray, games: np.ndarray, iterations: int = 500) -> np.ndarray:
    """Elo ratings (mean 0) from ``scores[i, j]`` (points of i against j) and ``games[i, j]``.

    Both matrices are square; draws count half a point to each side.
    """
    n = len(scores)
    met = games > 0
    scores = scores + PRIOR_DRAWS / 2 * met
    games = games + PRIOR_DRAWS * met
    wins = scores.sum(axis=1)
    strength = np.ones(n)
    for _ in range(iterations):
        pair = games / (strength[:, None] + strength[None, :])
        denominator = pair.sum(axis=1)
        updated = np.where(denominator > 0, wins / np.where(denominator > 0, denominator, 1), strength)
        updated /= np.exp(np.mean(np.log(updated)))  # fix the scale: geometric mean 1
        if np.allclose(updated, strength, rtol=1e-10, atol=0):
            strength = updated
            break
        strength = updated
    elo = 400 * np.log10(strength)
    return elo - elo.mean()


def rate(results: Sequence[tuple[int, int, float]], players: int, *, samples: int = 200, seed: int = 0) -> list[Rating]:
    """Ratings from ``(i, j, score of i)`` game results (1 win, 0.5 draw, 0 loss)."""
    games = np.asarray(results, dtype=float).reshape(-1, 3)
    best = fit(*_matrices(games, players))
    rng = np.random.default_rng(seed)
    resampled = np.array(
        [fit(*_matrices(games[rng.integers(0, len(games), len(games))], players)) for _ in range(samples)]
    )
    low, high = np.percentile(resampled, [2.5, 97.5], axis=0) if samples else (best, best)
    return [Rating(float(e), float(lo), float(hi)) for e, lo, hi in zip(best, low, high, strict=True)]


def _matrices(games: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    scores = np.zeros((players, players))
    counts = np.zeros((players, players))
    i, j, score = games[:, 0].astype(int), games[:, 1].astype(int), games[:, 2]
    np.add.at(scores, (i, j), score)
    np.add.at(scores, (j, i), 1 - score)
    np.add.at(counts, (i, j), 1)
    np.add.at(counts, (j, i), 1)
    return scores, counts
