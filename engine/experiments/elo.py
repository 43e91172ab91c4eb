"""Elo ratings with confidence intervals from game results.

Method: the Bradley-Terry model, P(i beats j) = g_i / (g_i + g_j), fitted by
maximum likelihood with Hunter's minorisation-maximisation iteration (2004),
a draw counting as half a win for each side. The strength g_i becomes an Elo
rating 400 * log10(g_i), shifted so that the mean rating is 0; a difference
of 400 Elo means 10:1 odds. To keep an agent that won (or lost) every game
finite, every pair of agents that met gets one virtual drawn game (a weak
prior, as in BayesElo). The 95 % interval is the rating plus or minus 1.96
standard errors, from the curvature of the log-likelihood at the fit (its
Fisher information, virtual draws included; as BayesElo does). Percentiles of
ratings refitted on resampled games were used before; they gave an agent that
won every game an interval of one point (every resample was the same), the
very case where the estimate is least sure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Virtual drawn games added between every pair that met (see the module docstring).
PRIOR_DRAWS = 1.0
#: Elo points per unit of log strength (natural log): a rating is 400 * log10(g).
ELO_PER_NAT = 400 / np.log(10)
#: Standard errors on each side of a 95 % interval (the normal distribution's 97.5th percentile).
Z95 = 1.959964


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


def rate(results: Sequence[tuple[int, int, float]], players: int) -> list[Rating]:
    """Ratings from ``(i, j, score of i)`` game results (1 win, 0.5 draw, 0 loss)."""
    games = np.asarray(results, dtype=float).reshape(-1, 3)
    scores, counts = _matrices(games, players)
    best = fit(scores, counts)
    error = ELO_PER_NAT * np.sqrt(np.diag(_covariance(best / ELO_PER_NAT, counts + PRIOR_DRAWS * (counts > 0))))
    return [Rating(float(e), float(e - Z95 * s), float(e + Z95 * s)) for e, s in zip(best, error, strict=True)]


def _covariance(strength: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The covariance of the log strengths (mean 0) at the fit: the inverse of the Fisher information.

    Each game between i and j adds p (1 - p) to the information of the difference of their log
    strengths, p being P(i beats j); the information matrix is the Laplacian of those weights. It is
    singular (adding a constant to every strength changes nothing), and its pseudo-inverse is the
    covariance under the mean-0 convention the ratings use.
    """
    p = 1 / (1 + np.exp(strength[None, :] - strength[:, None]))
    weights = games * p * (1 - p)
    information = np.diag(weights.sum(axis=1)) - weights
    return np.linalg.pinv(information)


def _matrices(games: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    scores = np.zeros((players, players))
    counts = np.zeros((players, players))
    i, j, score = games[:, 0].astype(int), games[:, 1].astype(int), games[:, 2]
    np.add.at(scores, (i, j), score)
    np.add.at(scores, (j, i), 1 - score)
    np.add.at(counts, (i, j), 1)
    np.add.at(counts, (j, i), 1)
    return scores, counts
