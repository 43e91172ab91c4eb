"""Claimeven: an upper bound on the first player's score from the second player's simplest strategy.

On a board with an even number of rows, when an even number of stones has
been played (the first player is to move), the second player can answer
every move with a stone *directly on top of it* ("follow-up"). The one
exception is a column whose next cell is already on an even row: the first
player may take such a cell, and the second player then takes the next
cell of this kind elsewhere (there is always one: the number of columns of
odd height is even). Played to the end, this gives the second player every
empty cell of the even rows (2nd, 4th, ... from the bottom) except the ones
playable right now, and the first player at most everything else.

So, with ``claimed`` = the second player's stones plus those even cells:

* if the rest of the board holds no line, the first player can never win:
  the score is at most 0;
* if moreover ``claimed`` holds a line, the second player is sure to
  complete it: the score is at most -1, and less when every empty cell of
  such a line is low on the board (the cells above it are still empty when
  it is completed, so the win comes early).

Allis's Connect Four knowledge rule "claimeven" is this argument; a solver
that checks it at every node of the first player proves many positions are
not wins without searching them.
"""

from __future__ import annotations

from numba import njit

from engine.kernels.bitops import andnot, band, bor, bxor, shl
from engine.kernels.rules import has_alignment, playable_cells

#: Returned when the rule gives nothing (above every score).
NO_BOUND = 1 << 20


@njit(cache=True, nogil=True)
def claimeven_bound(current, mask, ply, g):
    """An upper bound on the score of the side to move, or ``NO_BOUND``."""
    if g.rows % 2 == 1 or ply % 2 == 1:
        return NO_BOUND  # follow-up needs even columns, and the second player to answer
    opponent = bxor(current, mask)
    # Empty even-row cells above the playable ones: follow-up gives all of them to the opponent.
    even_cells = andnot(andnot(g.even_rows, mask), playable_cells(mask, g))
    claimed = bor(opponent, even_cells)
    if has_alignment(andnot(g.full, claimed), g):
        return NO_BOUND
    if not has_alignment(claimed, g):
        return 0
    # The opponent wins; how late at the latest? When a line's last empty cell is filled, the
    # cells above it in its column are still empty. A line whose empty cells all lie on rows
    # 0..row leaves at least rows - 1 - row cells empty, so the opponent's winning stone is at
    # most the (cells - rows + 1 + row)-th: the score is at most -(rows + 1 - row) // 2.
    low_rows = shl(g.bottom, 0)  # row 0 of every column, then rows 0..row
    for row in range(1, g.rows - 1, 2):
        low_rows = bor(low_rows, bor(shl(g.bottom, row - 1), shl(g.bottom, row)))
        if has_alignment(bor(opponent, band(even_cells, low_rows)), g):
            return -((g.rows + 1 - row) // 2)
    return -1
