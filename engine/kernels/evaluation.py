"""Evaluation functions: how good a position looks when the search stops early.

A depth-limited search scores the positions where it stops with one of these
functions. Every function takes ``(current, mask, g)`` (see
:mod:`engine.kernels.rules`) and returns an integer from the point of view of
the side to move, as negamax wants: positive is good for the player whose turn
it is. All of them work on every board size and for every connect-N.

Most of them count **windows**: the ``connect`` cells of one possible line
(horizontal, vertical or diagonal) that fits on the board. A window that holds
stones of one side only is still open for that side; with ``k`` cells missing
it is ``k`` moves from a line. :func:`open_windows` counts the open windows of
both sides with 0, 1, 2 and 3 cells missing, in all four directions, with a
handful of shifts per direction (a bit-sliced counter).

The evaluations, by name (the name is what ``eval=`` takes):

========  ==================================================================
zero      no knowledge: every unfinished position is worth 0 (seed 000's
          first cut-off search returned 0 at its depth limit).
nlines4   seed 002 c1: lines of ``connect`` stones, mine minus the opponent's.
nlines3   seed 002 c2: windows with ``connect - 1`` of my stones and one empty
          cell ("possibilities to win"), mine minus the opponent's.
central   seed 002 c3: 2 points per stone in the centre column, 1 per stone in
          the columns next to it, mine minus the opponent's.
f1..f4    seed 002's EvalF1..EvalF4: f1 = nlines4, f2 = 100 f1 + nlines3,
          f3 = 100 f1 + central, f4 = 5 f2 + f3.
seed000   seed 000's weighted scheme: open windows with 1, 2 or 3 cells missing
          score 3, 2 and 1 (the seed's 0.9 / 0.6 / 0.3, scaled to integers).
          The search agents' ``mode=1|2|3`` key gives seed 000's three weight
          modes relative to a line (its utility 1): 0.9/0.6/0.3, 0.6/0.4/0.2
          and 30/20/10 (mode 3 lets open windows outweigh a made line). A line
          is worth LINE_VALUE, and the sum is kept within +-SEED000_CAP, far
          below a search's win score (kernel names ``seed000/1`` ... ``/3``).
seed003   seed 003: THREE_SCORE = 50 per open window with one cell missing,
          TWO_SCORE = 10 per window with two missing; a line is ±maximum.
seed004   seed 004's table: 512 / 50 / 10 / 1 for open windows with 0 / 1 / 2
          / 3 cells missing, and 16 for the side to move.
threats   this project's own: threats (empty cells that would complete a line)
          weighed by row parity, stacked threats, double threats, open windows.
========  ==================================================================

Where a seed defines its function for 4 in a row, "three stones and one empty
cell" becomes "one cell missing", and so on; on a 7x6 connect-4 board every
function gives the seed's numbers. Three readings of the seeds, on purpose:
seed 002's nlines3 ("three pieces followed by an empty spot") counts the empty
cell anywhere in the window, as its purpose ("possibilities to win") needs;
seed 000's code stops at the first window of three it finds, where its comments
describe the sum over all windows computed here; seed 004's code gives the 16
points by colour rather than to the side to move, which its table means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from numba import njit

from engine.kernels.bitops import andnot, band, bor, bxor, is_zero, popcount, shl, shr
from engine.kernels.rules import column_cells, playable_cells

if TYPE_CHECKING:
    from engine.board import Board

#: The names ``eval=`` accepts; a function's id (what kernels receive) is its index here.
NAMES = ("zero", "nlines4", "nlines3", "central", "f1", "f2", "f3", "f4", "seed000", "seed003", "seed004", "threats")
ZERO, NLINES4, NLINES3, CENTRAL, F1, F2, F3, F4, SEED000, SEED003, SEED004, THREATS = range(len(NAMES))
#: Seed 000's weight modes, chosen with the agents' ``mode`` key rather than by ``eval=``.
SEED000_MODES = ("seed000/1", "seed000/2", "seed000/3")
SEED000_MODE1 = len(NAMES)  # kernel ids of the modes follow the public names

#: One line on the board as an evaluation: far above any window count, far below a search's win score.
LINE_VALUE = 100_000
#: Seed 000's modes: the value of a window one stone short (its 0.9, 0.6 and 30 times a line),
#: divided by 3; windows two and three stones short are worth 2/3 and 1/3 of it.
SEED000_UNIT = (30_000, 20_000, 1_000_000)
SEED000_CAP = 500_000  # a mode's sum is kept within this, far below the search's win scores

# Weights of the `threats` evaluation. Tuned at depth 6 on 7x6 in games from all 49
# two-move openings, both colours: they score about 0.8 against f4 and against seed004.
GOOD_THREAT = 60  # a threat on a row whose parity favours its owner (see threats())
BAD_THREAT = 30  # a threat on the other rows: it still ties the opponent down
STACKED_THREAT = 200  # two threats one above the other in one column: deadly once the column fills up
OPEN_TWO = 12  # open windows with two cells missing
OPEN_ONE = 4  # open windows with three cells missing


def evaluation_id(name: str) -> int:
    """The id of an evaluation function for the kernels (``ValueError`` if unknown)."""
    try:
        return (*NAMES, *SEED000_MODES).index(name)
    except ValueError:
        raise ValueError(f"unknown evaluation {name!r} (known: {', '.join(NAMES)})") from None


def evaluate_board(board: Board, name: str) -> int:
    """The evaluation ``name`` of a :class:`~engine.board.Board`, from the side to move's view."""
    current, mask = board.kernel_state()
    return int(evaluate(current, mask, board.geometry.kernel, evaluation_id(name)))


# -- counting windows ----------------------------------------------------------------
@njit(cache=True, nogil=True)
def window_starts(g, step):
    """The cells where a whole window in direction ``step`` starts.

    A window starting at cell ``p`` covers ``p, p + step, ..., p + (connect-1)
    step``; ``full >> (k * step)`` has bit ``p`` set exactly when cell ``p + k
    step`` is on the board, so AND-ing those shifts keeps the starts of the
    windows that fit. Windows cannot wrap from one column into the next: the
    wrap would pass through a sentinel cell, which ``full`` does not contain.
    """
    starts = g.full
    for k in range(1, g.connect):
        starts = band(starts, shr(g.full, k * step))
    return starts


@njit(cache=True, nogil=True)
def _equals(cells, c0, c1, c2, count):
    """The cells of ``cells`` where the 3-bit counter ``(c2 c1 c0)`` equals ``count``."""
    cells = band(cells, c0) if count & 1 else andnot(cells, c0)
    cells = band(cells, c1) if count & 2 else andnot(cells, c1)
    return band(cells, c2) if count & 4 else andnot(cells, c2)


@njit(cache=True, nogil=True)
def open_windows(current, mask, g):
    """Open windows of both sides, by how many cells each still misses.

    Returns two tuples ``(lines, missing1, missing2, missing3)``, for the side
    to move and for the opponent: windows holding ``connect``, ``connect - 1``,
    ``connect - 2`` and ``connect - 3`` stones of that side and none of the
    other (a window needs at least one stone to count, so ``missing3`` is 0
    for connect 3).

    In a window without stones of one side, every stone belongs to the other,
    so one count serves both sides: the stones of ``mask`` in the window
    starting at each cell, kept in a bit-sliced binary counter ``(c2 c1 c0)``
    (each shifted copy of ``mask`` is added with the carries of a ripple
    adder). ``no_opp`` and ``no_mine`` keep the window starts whose window has
    no stone of the opponent, or of the side to move.
    """
    opp = bxor(current, mask)
    n = g.connect
    mine0 = mine1 = mine2 = mine3 = 0
    theirs0 = theirs1 = theirs2 = theirs3 = 0
    for step in (1, g.height - 1, g.height, g.height + 1):
        no_opp = no_mine = window_starts(g, step)
        c0 = c1 = c2 = bxor(g.one, g.one)  # an empty bitboard of the right width
        for k in range(n):
            no_opp = andnot(no_opp, shr(opp, k * step))
            no_mine = andnot(no_mine, shr(current, k * step))
            stones = shr(mask, k * step)
            carry0 = band(c0, stones)
            c0 = bxor(c0, stones)
            carry1 = band(c1, carry0)
            c1 = bxor(c1, carry0)
            c2 = bor(c2, carry1)  # counts never exceed 6, so the top plane needs no carry
        mine0 += popcount(_equals(no_opp, c0, c1, c2, n))
        theirs0 += popcount(_equals(no_mine, c0, c1, c2, n))
        mine1 += popcount(_equals(no_opp, c0, c1, c2, n - 1))
        theirs1 += popcount(_equals(no_mine, c0, c1, c2, n - 1))
        mine2 += popcount(_equals(no_opp, c0, c1, c2, n - 2))
        theirs2 += popcount(_equals(no_mine, c0, c1, c2, n - 2))
        if n > 3:
            mine3 += popcount(_equals(no_opp, c0, c1, c2, n - 3))
            theirs3 += popcount(_equals(no_mine, c0, c1, c2, n - 3))
    return (mine0, mine1, mine2, mine3), (theirs0, theirs1, theirs2, theirs3)


@njit(cache=True, nogil=True)
def threat_cells(stones, mask, g):
    """The empty cells where one more stone would give ``stones`` a line.

    The same cells as :func:`engine.kernels.rules.winning_cells`, found with
    runs instead of every window position, which is several times faster (the
    search asks for them at every node). For a direction ``step``, ``left_k``
    marks the cells that have ``k`` stones in a row just before them, and
    ``right_k`` the cells with ``k`` stones just after them; a cell completes
    a line of ``n`` when ``k`` stones precede it and ``n - 1 - k`` follow it.
    The cases are written out for connect 3 to 6, all the engine allows.
    """
    n = g.connect
    cells = bxor(g.one, g.one)  # an empty bitboard of the right width
    for step in (1, g.height - 1, g.height, g.height + 1):
        left1, right1 = shl(stones, step), shr(stones, step)
        left2, right2 = band(left1, shl(stones, 2 * step)), band(right1, shr(stones, 2 * step))
        if n == 3:
            cells = bor(cells, bor(bor(left2, right2), band(left1, right1)))
            continue
        left3, right3 = band(left2, shl(stones, 3 * step)), band(right2, shr(stones, 3 * step))
        middle = bor(band(left1, right2), band(left2, right1))
        if n == 4:
            cells = bor(cells, bor(bor(left3, right3), middle))
            continue
        left4, right4 = band(left3, shl(stones, 4 * step)), band(right3, shr(stones, 4 * step))
        if n == 5:
            middle = bor(bor(band(left1, right3), band(left2, right2)), band(left3, right1))
            cells = bor(cells, bor(bor(left4, right4), middle))
            continue
        left5, right5 = band(left4, shl(stones, 5 * step)), band(right4, shr(stones, 5 * step))
        middle = bor(bor(band(left1, right4), band(left2, right3)), bor(band(left3, right2), band(left4, right1)))
        cells = bor(cells, bor(bor(left5, right5), middle))
    return andnot(band(cells, g.full), mask)


@njit(cache=True, nogil=True)
def central(stones, g):
    """Seed 002's ``central``: 2 points per stone in the centre column, 1 per stone beside it.

    ``|2 col - (cols - 1)|`` is 0 for the middle column of an odd board and 1 for
    the two middle columns of an even board, so both get 2 points; the next
    columns out (distance 2 or 3) get 1 point.
    """
    score = 0
    for col in range(g.cols):
        distance = abs(2 * col - (g.cols - 1))
        if distance <= 3:
            points = 2 if distance <= 1 else 1
            score += points * popcount(band(stones, column_cells(g, col)))
    return score


# -- the evaluations ----------------------------------------------------------------------
@njit(cache=True, nogil=True)
def threats(current, mask, g):
    """The project's evaluation: threats, their row parity, and open windows.

    A *threat* is an empty cell that would complete a line for its owner.
    - If the side to move can play one of its threats now, it wins: +LINE_VALUE.
    - If the opponent has two threats the side to move could play into now, it
      can block only one: -LINE_VALUE.
    - Otherwise threats further up count by **row parity** (Allis's rule for
      Connect Four): when the board fills up, the first player ends up with the
      cells of odd rows (1, 3, 5 counted from the bottom) and the second player
      with even rows, so a threat on a row of its owner's parity tends to be
      cashed in at the end, the others only restrain the opponent.
    - Two threats of one side directly above one another win as soon as the
      column below them fills: the opponent cannot block both.
    - Open windows with two or three cells missing add a little, which favours
      central, well-connected stones.
    On boards with an odd number of rows the parity rule is a rough guide only.
    """
    opp = bxor(current, mask)
    mine = threat_cells(current, mask, g)
    theirs = threat_cells(opp, mask, g)
    playable = playable_cells(mask, g)
    if not is_zero(band(mine, playable)):
        return LINE_VALUE
    if popcount(band(theirs, playable)) >= 2:
        return -LINE_VALUE
    # Cells of odd rows counted from 1 at the bottom, i.e. even 0-based rows.
    odd_rows = bxor(g.one, g.one)
    for row in range(0, g.rows, 2):
        odd_rows = bor(odd_rows, shl(g.bottom, row))
    even_rows = andnot(g.full, odd_rows)
    first_to_move = popcount(mask) % 2 == 0
    my_rows = odd_rows if first_to_move else even_rows
    their_rows = even_rows if first_to_move else odd_rows
    score = GOOD_THREAT * (popcount(band(mine, my_rows)) - popcount(band(theirs, their_rows)))
    score += BAD_THREAT * (popcount(andnot(mine, my_rows)) - popcount(andnot(theirs, their_rows)))
    score += STACKED_THREAT * (popcount(band(mine, shl(mine, 1))) - popcount(band(theirs, shl(theirs, 1))))
    (_, _, my_two, my_one), (_, _, their_two, their_one) = open_windows(current, mask, g)
    return score + OPEN_TWO * (my_two - their_two) + OPEN_ONE * (my_one - their_one)


@njit(cache=True, nogil=True)
def evaluate(current, mask, g, eval_id):
    """The evaluation ``eval_id`` (an index into :data:`NAMES`) of the position."""
    if eval_id == ZERO:
        return 0
    if eval_id == THREATS:
        return threats(current, mask, g)
    opp = bxor(current, mask)
    if eval_id == CENTRAL:
        return central(current, g) - central(opp, g)
    (my_lines, my_1, my_2, my_3), (their_lines, their_1, their_2, their_3) = open_windows(current, mask, g)
    lines = my_lines - their_lines  # seed 002's EvalF1 = nlines4(me) - nlines4(opponent)
    if eval_id in (NLINES4, F1):
        return lines
    if eval_id == NLINES3:
        return my_1 - their_1
    if eval_id == F2:
        return 100 * lines + my_1 - their_1
    if eval_id == F3:
        return 100 * lines + central(current, g) - central(opp, g)
    if eval_id == F4:  # 5 * EvalF2 + EvalF3
        return 5 * (100 * lines + my_1 - their_1) + 100 * lines + central(current, g) - central(opp, g)
    if eval_id == SEED000:
        return 3 * (my_1 - their_1) + 2 * (my_2 - their_2) + (my_3 - their_3)
    if eval_id >= SEED000_MODE1:
        unit = SEED000_UNIT[eval_id - SEED000_MODE1]
        value = LINE_VALUE * lines + unit * (3 * (my_1 - their_1) + 2 * (my_2 - their_2) + (my_3 - their_3))
        return max(-SEED000_CAP, min(SEED000_CAP, value))
    if eval_id == SEED003:
        if my_lines > 0:
            return LINE_VALUE
        if their_lines > 0:
            return -LINE_VALUE
        return 50 * (my_1 - their_1) + 10 * (my_2 - their_2)
    # SEED004: the table, plus 16 for having the move.
    return 512 * lines + 50 * (my_1 - their_1) + 10 * (my_2 - their_2) + (my_3 - their_3) + 16
