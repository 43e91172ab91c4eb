"""Claimeven: an upper bound on the mover's score from the opponent's simplest strategy.

When an even number of cells is empty, the player *not* to move can answer
every move with a stone *directly on top of it* ("follow-up"). The one
exception is a column with an odd number of empty cells: the mover may take
its next cell, and the follower then takes the next cell of another such
column (there always is one: the empty cells add up to an even number, so
such columns come in pairs). Played to the end, this gives the follower
every empty cell of the *follow rows* (the top row and every second row
below it: the 2nd, 4th and 6th from the bottom on six rows, the 1st, 3rd and
5th on five) except the ones playable right now, and the mover at most
everything else.

So, with ``claimed`` = the follower's stones plus those cells:

* if the rest of the board holds no line, the mover can never win: the
  score is at most 0;
* the same holds when every line of the rest is *dominated*: it lies
  directly above a line of ``claimed`` of the same direction, cell for cell
  in the same columns. A stone of the upper line needs the cell below it
  filled first, so the follower's line is complete before the mover's;
* if ``claimed`` holds a line, the follower is sure to complete it (and
  first, by the above): the score is at most -1, and less when every empty
  cell of such a line is low on the board (the cells above it are still
  empty when it is completed, so the win comes early).

Allis's Connect Four knowledge rule "claimeven" is this argument (on six
rows it is the first player, to move after an even number of stones, whom
it bounds); a solver that checks it proves many positions are not wins
without searching them.
"""

from __future__ import annotations

from numba import njit

from engine.kernels.bitops import andnot, band, bor, bxor, is_zero, shl, shr
from engine.kernels.rules import has_alignment, playable_cells

#: Returned when the rule gives nothing (above every score).
NO_BOUND = 1 << 20


@njit(cache=True, nogil=True, inline="always")
def line_starts(bits, step, g):
    """The cells where a line of ``bits`` starts, going ``step`` bits at a time.

    ``bits & bits >> step & bits >> 2*step ...`` keeps a bit exactly where
    ``connect`` stones of ``bits`` follow each other along the direction.
    """
    run = bits
    for k in range(1, g.connect):
        run = band(run, shr(bits, k * step))
    return run


@njit(cache=True, nogil=True, inline="always")
def above_in_column(bits, g):
    """Every cell directly above a cell of ``bits`` in its column, one or more rows up."""
    above = bxor(bits, bits)
    spread = bits
    for _ in range(g.rows - 1):
        # One row up; masking with the board drops the sentinel, so nothing climbs into the next column.
        spread = band(shl(spread, 1), g.full)
        above = bor(above, spread)
    return above


@njit(cache=True, nogil=True)
def claimeven_bound(current, mask, ply, g):
    """An upper bound on the score of the side to move, or ``NO_BOUND``."""
    cells = g.cols * g.rows
    if (cells - ply) % 2 == 1:
        return NO_BOUND  # follow-up needs an even number of empty cells
    opponent = bxor(current, mask)
    # Empty follow-row cells above the playable ones: follow-up gives all of them to the opponent.
    follow_cells = andnot(andnot(g.follow_rows, mask), playable_cells(mask, g))
    claimed = bor(opponent, follow_cells)
    mover = andnot(g.full, claimed)
    if not is_zero(line_starts(mover, 1, g)):
        return NO_BOUND  # a vertical line of the mover's is above nothing
    theirs = line_starts(claimed, 1, g)
    for step in (g.height - 1, g.height, g.height + 1):
        ours = line_starts(mover, step, g)
        starts = line_starts(claimed, step, g)
        # Two lines of one direction start in the same column and cover the same columns:
        # the mover's is dominated when its start is above a start of the follower's.
        if not is_zero(ours) and not is_zero(andnot(ours, above_in_column(starts, g))):
            return NO_BOUND
        theirs = bor(theirs, starts)
    if is_zero(theirs):
        return 0  # no line for either
    # The opponent wins; how late at the latest? When a line's last empty cell is filled, the
    # cells above it in its column are still empty. A line whose empty cells all lie on rows
    # 0..row leaves at least rows - 1 - row cells empty, so the opponent's winning stone is at
    # most the (cells - rows + 1 + row)-th: the score is at most -(rows + 1 - row) // 2.
    # (Only follow rows matter, and the top one gives the -1 below.)
    low_rows = bxor(g.bottom, g.bottom)
    for row in range(g.rows - 1):
        low_rows = bor(low_rows, shl(g.bottom, row))
        if (g.rows - 1 - row) % 2 == 0 and has_alignment(bor(opponent, band(follow_cells, low_rows)), g):
            return -((g.rows + 1 - row) // 2)
    return -1
