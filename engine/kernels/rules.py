"""The rules of Connect-N as numba kernels over bitboards.

A position is ``(current, mask)``, as in Pons's solver: ``mask`` has a bit for
every stone on the board, ``current`` for the stones of the player *to move*.
After a move the roles swap, so a kernel never needs to know the colours.
``g`` is the :class:`engine.geometry.KernelGeometry`; the layout is drawn in
:mod:`engine.geometry`. Every function works on one-word and two-word
bitboards through :mod:`engine.kernels.bitops`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bitops import add, andnot, band, bor, bxor, is_zero, popcount, shl, shr, sub
from engine.kernels.rng import next_below

# Outcomes of a finished game, seen from the side to move at its start.
LOSS, DRAW, WIN = -1, 0, 1


@njit(cache=True, nogil=True, inline="always")
def bottom_cell(g, col):
    """The bit of the lowest cell of ``col``."""
    return shl(g.one, col * g.height)


@njit(cache=True, nogil=True, inline="always")
def top_cell(g, col):
    """The bit of the highest playable cell of ``col``."""
    return shl(g.one, col * g.height + g.rows - 1)


@njit(cache=True, nogil=True, inline="always")
def column_cells(g, col):
    """Every playable cell of ``col``.

    With ``b`` the column's bottom bit, ``(b << rows) - b`` is ``rows`` ones
    starting at ``b``: the subtraction borrows through every bit in between.
    """
    bottom = bottom_cell(g, col)
    return sub(shl(bottom, g.rows), bottom)


@njit(cache=True, nogil=True)
def can_play(mask, g, col):
    """A column is playable while its top cell is empty."""
    return is_zero(band(mask, top_cell(g, col)))


@njit(cache=True, nogil=True)
def play(current, mask, g, col):
    """Drop a stone of the side to move into ``col``; returns the new position.

    Adding the column's bottom bit to ``mask`` carries up through the column's
    stones and lands on its first empty cell, which the OR then adds. The new
    ``current`` is the opponent's stones (``current ^ mask`` before the move),
    because the opponent is to move next.
    """
    new_mask = bor(mask, add(mask, bottom_cell(g, col)))
    return bxor(current, mask), new_mask


@njit(cache=True, nogil=True, inline="always")
def has_alignment(bits, g):
    """True if ``bits`` holds ``connect`` stones in a row in any direction.

    For a direction with shift ``s``, ``m = bits & (bits >> s) & ... & (bits >>
    (n-1)s)`` keeps a bit exactly where a run of ``n`` stones starts. Runs never
    wrap between columns because the sentinel row is never set (see
    :mod:`engine.geometry`).
    """
    for step in (1, g.height - 1, g.height, g.height + 1):
        run = bits
        for k in range(1, g.connect):
            run = band(run, shr(bits, k * step))
        if not is_zero(run):
            return True
    return False


@njit(cache=True, nogil=True)
def is_winning_move(current, mask, g, col):
    """Would the side to move complete a line by playing ``col``?"""
    landing = band(add(mask, bottom_cell(g, col)), column_cells(g, col))
    return has_alignment(bor(current, landing), g)


@njit(cache=True, nogil=True, inline="always")
def winning_cells(bits, mask, g):
    """The empty cells where one more stone would give ``bits`` a line.

    Connect 4 takes the unrolled :func:`winning_cells4`, about three times
    faster; every other connect-N the loops of :func:`winning_cells_generic`.
    Both give the same cells.
    """
    if g.connect == 4:
        return winning_cells4(bits, mask, g)
    return winning_cells_generic(bits, mask, g)


@njit(cache=True, nogil=True, inline="always")
def winning_cells_generic(bits, mask, g):
    """:func:`winning_cells` for any connect-N.

    For every direction and every place ``i`` of the missing stone inside a
    window of ``connect`` cells, the cell is winning when the other
    ``connect - 1`` cells of the window hold stones of ``bits``: shifting
    ``bits`` by ``(j - i) * step`` lines window cell ``j`` up with cell ``i``.
    The result is limited to empty cells of the board (sentinels excluded).
    """
    cells = bxor(g.one, g.one)  # an empty bitboard of the right width
    for step in (1, g.height - 1, g.height, g.height + 1):
        for i in range(g.connect):
            hole = g.full
            for j in range(g.connect):
                if j < i:
                    hole = band(hole, shl(bits, (i - j) * step))
                elif j > i:
                    hole = band(hole, shr(bits, (j - i) * step))
            cells = bor(cells, hole)
    return andnot(band(cells, g.full), mask)


@njit(cache=True, nogil=True, inline="always")
def winning_cells4(bits, mask, g):
    """:func:`winning_cells` written out for connect 4 (the solver's hot spot).

    In each direction ``s`` an empty cell wins when three stones of ``bits``
    surround it in one of four ways: three below it along ``s`` (``xxx.``),
    two below and one above (``xx.x``), one below and two above (``x.xx``)
    or three above (``.xxx``). ``shl(bits, k * s)`` moves each stone ``k``
    steps forward along ``s``, so an AND of shifted copies marks the cells
    that have stones at all the required offsets.
    """
    # Vertical: only the pattern with three stones below the cell can occur.
    cells = band(band(shl(bits, 1), shl(bits, 2)), shl(bits, 3))
    for step in (g.height - 1, g.height, g.height + 1):
        # Stones one and two steps back along the direction ...
        back = band(shl(bits, step), shl(bits, 2 * step))
        cells = bor(cells, band(back, shl(bits, 3 * step)))  # xxx.
        cells = bor(cells, band(back, shr(bits, step)))  # xx.x
        # ... and one and two steps ahead.
        ahead = band(shr(bits, step), shr(bits, 2 * step))
        cells = bor(cells, band(ahead, shl(bits, step)))  # x.xx
        cells = bor(cells, band(ahead, shr(bits, 3 * step)))  # .xxx
    return andnot(band(cells, g.full), mask)


@njit(cache=True, nogil=True, inline="always")
def playable_cells(mask, g):
    """The cell each non-full column would receive next."""
    return band(add(mask, g.bottom), g.full)


@njit(cache=True, nogil=True)
def stones(mask):
    """How many stones are on the board (the ply)."""
    return popcount(mask)


@njit(cache=True, nogil=True)
def legal_columns(mask, g, out):
    """Write the playable columns into ``out``; return how many there are."""
    n = 0
    for col in range(g.cols):
        if can_play(mask, g, col):
            out[n] = col
            n += 1
    return n


@njit(cache=True, nogil=True)
def random_playout(current, mask, g, rng):
    """Play uniformly random moves to the end of the game.

    Returns ``WIN``, ``DRAW`` or ``LOSS`` for the side to move at the start.
    The caller must pass a position where the game is not already over.
    """
    cols = np.empty(g.cols, dtype=np.int64)
    sign = 1
    for _ in range(g.cols * g.rows - stones(mask)):
        n = legal_columns(mask, g, cols)
        col = cols[next_below(rng, n)]
        if is_winning_move(current, mask, g, col):
            return WIN * sign
        current, mask = play(current, mask, g, col)
        sign = -sign
    return DRAW
