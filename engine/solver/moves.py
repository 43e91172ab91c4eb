"""Which moves the solver tries, and in what order.

Two ideas carry most of a Connect Four solver's speed:

* **Never search a move that loses at once.** If the opponent threatens to
  win on a playable cell we must take that cell; two such threats and the
  game is lost; and we never play directly below a cell where the opponent
  would win (it would let them drop a stone on it).
* **Try the most promising move first**, so that alpha-beta cuts early: the
  moves that leave threats of our own (cells where one more stone would win)
  that can be used soonest, ties going to the centre, where a stone takes part
  in the most lines. (The move the transposition table remembers, tried
  first, cost 8 % more nodes on the Pons sets.)
"""

from __future__ import annotations

from numba import njit

from engine.kernels.bitops import andnot, band, bor, is_zero, popcount, shl
from engine.kernels.rules import column_cells, playable_cells, winning_cells
from engine.solver.settings import PROMISE_ANY, PROMISE_LATER, PROMISE_NOW, PROMISE_SOON


@njit(cache=True, nogil=True, inline="always")
def centre_column(g, i):
    """The ``i``-th column of :func:`engine.geometry.centre_order` (3 2 4 1 5 0 6 on 7 columns, 3 4 2 5 ...
    on 8), computed where the kernels need it."""
    # Twice the centre is cols - 1: odd widths have a middle column, even ones a pair of them.
    # An even width is an odd one shifted by half a column: ``pair`` (1 there) makes the first
    # step a half step, so that both widths alternate left, then right, one step further each pair.
    pair = 1 - g.cols % 2
    k = i + pair
    step = 2 * ((k + 1) // 2) - pair  # the distance from the centre, in half columns
    side = 1 - 2 * (k % 2)  # +1: right of the centre, -1: left
    return (g.cols - 1 + side * step) // 2


@njit(cache=True, nogil=True, inline="always")
def can_win_now(current, mask, g):
    """Does the side to move have a winning cell among the playable ones?"""
    return not is_zero(band(winning_cells(current, mask, g), playable_cells(mask, g)))


@njit(cache=True, nogil=True, inline="always")
def move_promise(current, mask, cell, opponent_threats, g):
    """How promising playing ``cell`` looks: a weighted count of the threats it leaves us.

    Not every threat is worth the same. One on a playable cell must be
    blocked at once; one directly above a playable cell pins the opponent
    (a stone below it lets us win); one two cells above will bite soon.
    One directly above an opponent's threat can never be used (whoever
    fills the cell below lets the other side win or block), so it does not
    count at all. The weights were tuned on the Pons sets.
    """
    after = bor(mask, cell)
    # Our threats that are not right above a threat of the opponent's.
    useful = andnot(winning_cells(bor(current, cell), after, g), shl(opponent_threats, 1))
    playable = playable_cells(after, g)
    now = popcount(band(useful, playable))
    soon = popcount(band(useful, shl(playable, 1)))
    # (masked to the board between the steps: two rows above a top cell is the next column)
    later = popcount(band(useful, shl(band(shl(playable, 1), g.full), 1)))
    return PROMISE_NOW * now + PROMISE_SOON * soon + PROMISE_LATER * later + PROMISE_ANY * popcount(useful)


@njit(cache=True, nogil=True)
def order_moves(current, mask, moves_bits, opponent_threats, g, out):
    """Write the columns of ``moves_bits`` to ``out``, most promising first; return how many.

    ``out[k]`` is ``(column, promise)``: sorted by :func:`move_promise`, ties in
    centre-first order (the insertion below is stable).
    """
    n = 0
    for i in range(g.cols):
        col = centre_column(g, i)
        cell = band(moves_bits, column_cells(g, col))
        if is_zero(cell):
            continue
        promise = move_promise(current, mask, cell, opponent_threats, g)
        # Insertion sort, descending: shift lower promises right, keep equal ones in front.
        j = n
        while j > 0 and out[j - 1, 1] < promise:
            out[j, 0], out[j, 1] = out[j - 1, 0], out[j - 1, 1]
            j -= 1
        out[j, 0], out[j, 1] = col, promise
        n += 1
    return n
