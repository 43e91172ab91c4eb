"""Counting the distinct positions after each number of moves.

``count`` answers "how many different positions can the board show after p
moves?" (OEIS A212693 for 7x6). It walks the game breadth first, one ply at a
time: expand every position of ply p by every legal move, then keep one copy
of each distinct child. A position where someone has just won is counted but
not expanded, because the game is over there.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

from engine.geometry import Geometry
from engine.kernels.bitops import bxor, load, store
from engine.kernels.rules import can_play, has_alignment, play


@njit(cache=True, nogil=True)
def _expand(currents, masks, g, out_currents, out_masks):
    """Write every child of every unfinished position; return how many."""
    n = 0
    for i in range(len(currents)):
        current, mask = load(currents, i), load(masks, i)
        # The player who just moved owns ``current ^ mask``: after a line, stop.
        if has_alignment(bxor(current, mask), g):
            continue
        for col in range(g.cols):
            if can_play(mask, g, col):
                child_current, child_mask = play(current, mask, g, col)
                store(out_currents, n, child_current)
                store(out_masks, n, child_mask)
                n += 1
    return n


def _distinct(currents: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keep one copy of each position."""
    if currents.ndim == 1:
        # current + mask is unique per position (see Board.key) and fits the word.
        _, first = np.unique(currents + masks, return_index=True)
    else:
        _, first = np.unique(np.hstack([currents, masks]), axis=0, return_index=True)
    return currents[first], masks[first]


def count_positions(geometry: Geometry, plies: int) -> Iterator[tuple[int, int]]:
    """Yield ``(ply, distinct positions)`` for ply 0 to ``plies``, as they are found.

    The count stops at a full board (``geometry.cells`` stones) even if
    ``plies`` is larger: no position has more stones, and a caller asking for
    99,999,999,999 plies must not get a line per ply forever.
    """
    g = geometry.kernel
    currents, masks = geometry.empty_array(1), geometry.empty_array(1)
    for ply in range(min(plies, geometry.cells) + 1):
        yield ply, len(currents)
        if ply == plies:
            return
        capacity = len(currents) * geometry.cols
        out_currents, out_masks = geometry.empty_array(capacity), geometry.empty_array(capacity)
        n = _expand(currents, masks, g, out_currents, out_masks)
        currents, masks = _distinct(out_currents[:n], out_masks[:n])
