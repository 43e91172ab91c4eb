"""Playouts and pure Monte Carlo search.

A *playout* (or rollout) finishes a game with quick moves and reports who won.
Two policies:

- ``random``: uniformly random legal moves (:func:`engine.kernels.rules.random_playout`);
- ``smart``: take an immediate win if there is one, else block the opponent's
  immediate win, else play at random (:func:`smart_playout`). Each playout
  costs about three times as much, but says more about the position: random
  players keep missing wins in one and leaving them open, so random playouts
  barely tell a threat from a harmless move.

*Pure Monte Carlo search* (seeds 000 and 001) scores each legal column by the
mean result of playouts that start with that column, and plays the best one.
There is no tree: every playout starts at the root.

Results are seen from the side to move at the start of the playout:
``WIN`` (1), ``DRAW`` (0) or ``LOSS`` (-1). Agents report them as win rates
in ``[0, 1]`` with a draw counting half: ``(1 + result) / 2``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bitops import andnot, band, bxor, is_zero, lowest_index
from engine.kernels.rng import next_below
from engine.kernels.rules import (
    DRAW,
    WIN,
    can_play,
    is_winning_move,
    legal_columns,
    play,
    playable_cells,
    random_playout,
    stones,
    winning_cells,
)
from engine.kernels.stop import stop_requested

#: Rollout policies, as the kernels take them.
RANDOM, SMART = 0, 1
ROLLOUTS = {"random": RANDOM, "smart": SMART}


@njit(cache=True, nogil=True)
def column_of(cell, g):
    """The column of a one-bit bitboard (each column takes ``height`` bits)."""
    return lowest_index(cell) // g.height


@njit(cache=True, nogil=True)
def smart_playout(current, mask, g, rng):
    """Finish the game: win if you can, else block, else play at random.

    Returns ``WIN``, ``DRAW`` or ``LOSS`` for the side to move at the start,
    whose game must not be over yet. ``mine`` and ``theirs`` are the empty
    cells that would complete a line for the side to move and for the other
    side. A move only adds threats for the side that made it, so after a move
    the new side to move keeps its old ``theirs`` (less the cell just filled)
    and only the mover's threats are computed again: one
    :func:`~engine.kernels.rules.winning_cells` per move instead of two.
    """
    cols = np.empty(g.cols, dtype=np.int64)
    mine = winning_cells(current, mask, g)
    theirs = winning_cells(bxor(current, mask), mask, g)
    sign = 1  # +1 while the side to move is the one that started
    for _ in range(g.cols * g.rows - stones(mask)):
        playable = playable_cells(mask, g)
        if not is_zero(band(mine, playable)):
            return WIN * sign
        must_block = band(theirs, playable)
        if is_zero(must_block):
            col = cols[next_below(rng, legal_columns(mask, g, cols))]
        else:
            # With two such cells the game is lost anyway; block the first.
            col = column_of(must_block, g)
        current, mask = play(current, mask, g, col)
        # The roles swap: the old opponent moves next; the stones of the side
        # that just moved are ``current ^ mask``.
        mine, theirs = andnot(theirs, mask), winning_cells(bxor(current, mask), mask, g)
        sign = -sign
    return DRAW


@njit(cache=True, nogil=True)
def playout(current, mask, g, rng, policy):
    """One playout with the given policy (``RANDOM`` or ``SMART``)."""
    if policy == SMART:
        return smart_playout(current, mask, g, rng)
    return random_playout(current, mask, g, rng)


@njit(cache=True, nogil=True)
def winning_column(current, mask, g):
    """A column that wins at once for the side to move, or -1."""
    for col in range(g.cols):
        if can_play(mask, g, col) and is_winning_move(current, mask, g, col):
            return col
    return -1


@njit(cache=True, nogil=True)
def pure_monte_carlo(current, mask, g, rng, policy, per_column, flag, points, counts):
    """Score every legal column by playouts that start with it.

    Adds to ``points[col]`` (wins plus half the draws, for the side to move)
    and ``counts[col]`` (playouts) and returns the number of playouts made.
    The columns take turns, one playout each per round, so that a search cut
    short by ``flag`` has sampled every column about equally. ``per_column``
    is the number of rounds, or -1 for "until stopped". The caller handles a
    column that wins at once (it needs no playouts).
    """
    cols = np.empty(g.cols, dtype=np.int64)
    n = legal_columns(mask, g, cols)
    last_move = g.cols * g.rows - 1 == stones(mask)  # a move fills the board: a draw, no playout needed
    rounds = 0
    while per_column < 0 or rounds < per_column:
        if rounds % 16 == 0 and stop_requested(flag):
            break
        for i in range(n):
            if last_move:
                result = DRAW
            else:
                after_current, after_mask = play(current, mask, g, cols[i])
                result = playout(after_current, after_mask, g, rng, policy)
            points[cols[i]] += (1 - result) / 2  # the opponent's result, turned into ours
            counts[cols[i]] += 1
        rounds += 1
    return rounds * n
