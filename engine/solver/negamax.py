"""The exact search: negamax with alpha-beta over bitboards, and its null-window driver.

:func:`negamax` returns the score of a position in Pons's convention (see
docs/cli.md), but only as precisely as the window ``(alpha, beta)`` asks:

* if the true score is in the window, it returns it;
* if it is at most ``alpha``, it returns some upper bound ``<= alpha``;
* if it is at least ``beta``, it returns some lower bound ``>= beta``.

A *null window* ``(s, s + 1)`` therefore answers one yes/no question, "is the
score above ``s``?", and is much cheaper than a wide window.
:func:`solve_kernel` finds the exact score with a few such questions, halving
the interval of possible scores each time (and stepping one score at a time
next to 0, because Connect Four positions are often close to a draw). Weak
solving asks only whether the score is above -1 and above 0.

Before searching a node, three cheap bounds may settle it: how soon either
side could still win, the opponent's claimeven strategy
(:mod:`engine.solver.claimeven`) and the transposition table.

Every position keeps the precondition that the side to move cannot win at
once: :func:`solve_kernel` checks it at the root, and
:func:`~engine.solver.moves.non_losing_moves` keeps it below.

**Stopping.** ``stats`` counts nodes; every 4096 nodes the search reads the
stop flag and the node limit, and on either sets ``stats[ABORTED]``. From then
on every call returns at once, nothing more is stored in the table, and the
caller must discard the (meaningless) result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bitops import band, bor, bxor, is_zero
from engine.kernels.rules import column_cells, winning_cells
from engine.kernels.stop import stop_requested
from engine.solver.claimeven import claimeven_bound
from engine.solver.moves import can_win_now, non_losing_moves, order_moves
from engine.solver.symmetry import SYMMETRY_PLIES, mirror, mirror_cell, smaller_image
from engine.solver.table import entry_column, entry_is_lower, entry_score, pack, probe, store, work_of

# Slots of the ``stats`` array.
NODES, LIMIT, ABORTED = 0, 1, 2
#: Nodes between two looks at the stop flag and the node limit (a power of two).
POLL = 4096
#: Enhanced transposition cut-offs are tried while more cells than this are empty.
ETC_MIN_EMPTY = 12
#: Positions with fewer stones than this are asked for their sign first (see solve_kernel).
SIGN_FIRST_PLIES = 4
#: Scores this close to 0 are asked about one at a time (see solve_kernel).
STEP_ZONE = 2


def new_stats(node_limit: int = 0) -> np.ndarray:
    """A fresh ``stats`` array; ``node_limit`` 0 means no limit."""
    stats = np.zeros(3, dtype=np.int64)
    stats[LIMIT] = node_limit
    return stats


def new_order_buffer(cols: int, cells: int) -> np.ndarray:
    """Scratch space for the move order of every ply (see ``order_moves``)."""
    return np.zeros((cells + 1, cols, 2), dtype=np.int64)


@njit(cache=True, nogil=True)
def lowest_stored(g):
    """The offset of scores in the table (below any score the search stores)."""
    return -(g.cols * g.rows // 2) - 1


@njit(cache=True, nogil=True)
def _count_node(stats, flag):
    """Count a node; every POLL nodes check the stop flag and the node limit."""
    stats[NODES] += 1
    if stats[NODES] & (POLL - 1) == 0 and (stop_requested(flag) or (stats[LIMIT] > 0 and stats[NODES] >= stats[LIMIT])):
        stats[ABORTED] = 1


@njit(cache=True, nogil=True)
def _seen(col, mirrored, g):
    """A column as the table's image of the position sees it (-1 stays -1)."""
    return g.cols - 1 - col if mirrored and col >= 0 else col


@njit(cache=True, nogil=True)
def negamax(current, mask, ply, alpha, beta, g, table, order, stats, flag):
    """The score of ``(current, mask)`` with ``ply`` stones, within ``(alpha, beta)``."""
    _count_node(stats, flag)
    if stats[ABORTED]:
        return 0
    start_nodes = stats[NODES]
    cells = g.cols * g.rows
    opponent = bxor(current, mask)
    opponent_threats = winning_cells(opponent, mask, g)
    moves = non_losing_moves(mask, opponent_threats, g)
    if is_zero(moves):  # every move lets the opponent win with their next stone
        return -((cells - ply) // 2)
    if ply >= cells - 2:  # two stones left, neither can win: a draw
        return 0

    # The opponent cannot win with their next stone, so we score at least this ...
    lowest = -((cells - 2 - ply) // 2)
    if alpha < lowest:
        alpha = lowest
        if alpha >= beta:
            return alpha
    # ... and we cannot win with this stone, so at most this.
    highest = (cells - 1 - ply) // 2
    if beta > highest:
        beta = highest
        if alpha >= beta:
            return beta

    # The opponent's follow-up strategy may already rule out a win, or bound the loss (see claimeven).
    if beta > -(g.rows // 2):
        bound = claimeven_bound(current, mask, ply, g)
        if beta > bound:
            beta = bound
            if alpha >= beta:
                return beta

    # What an earlier search learnt about this position narrows the window.
    offset = lowest_stored(g)
    first = -1
    # Early positions are stored as the smaller of their two mirror images.
    mirror_current, mirror_mask = current, mask  # (their mirror images, in the opening)
    if ply < SYMMETRY_PLIES:
        mirror_current, mirror_mask = mirror(current, g), mirror(mask, g)
    seen_current, seen_mask, mirrored = smaller_image(current, mask, mirror_current, mirror_mask)
    word = probe(table, seen_current, seen_mask)
    if word != 0:
        bound = entry_score(word, offset)
        if entry_is_lower(word):
            if alpha < bound:
                alpha = bound
                if alpha >= beta:
                    return alpha
        elif beta > bound:
            beta = bound
            if alpha >= beta:
                return beta
        first = entry_column(word)
        if mirrored and first >= 0:
            first = g.cols - 1 - first

    if ply < cells - ETC_MIN_EMPTY:
        # Enhanced transposition cut-off: if the table already says a child
        # scores at most u, this position scores at least -u; that may be enough.
        # Mirroring is linear: a child's image follows from ours without a loop over the columns.
        mirror_opponent = bxor(mirror_current, mirror_mask)
        for col in range(g.cols):
            cell = band(moves, column_cells(g, col))
            if is_zero(cell):
                continue
            child_current, child_mask = opponent, bor(mask, cell)
            if ply + 1 < SYMMETRY_PLIES:
                mirror_child_mask = bor(mirror_mask, mirror_cell(cell, col, g))
                child_current, child_mask, _ = smaller_image(
                    child_current, child_mask, mirror_opponent, mirror_child_mask
                )
            child = probe(table, child_current, child_mask)
            if child != 0 and not entry_is_lower(child):
                bound = -entry_score(child, offset)
                if bound >= beta:
                    store(table, seen_current, seen_mask, pack(bound, True, _seen(col, mirrored, g), offset, 0))
                    return bound

    count = order_moves(current, mask, moves, opponent_threats, g, first, order, ply)
    best = -1
    for k in range(count):
        col = order[ply, k, 0]
        child_mask = bor(mask, band(moves, column_cells(g, col)))
        score = -negamax(opponent, child_mask, ply + 1, -beta, -alpha, g, table, order, stats, flag)
        if stats[ABORTED]:
            return 0
        if score >= beta:  # fail high: the opponent avoids this position; score is a lower bound
            work = work_of(stats[NODES] - start_nodes)
            store(table, seen_current, seen_mask, pack(score, True, _seen(col, mirrored, g), offset, work))
            return score
        if score > alpha:
            alpha = score
            best = col
    # Fail low or exact: alpha is an upper bound on the score.
    work = work_of(stats[NODES] - start_nodes)
    store(table, seen_current, seen_mask, pack(alpha, False, _seen(best, mirrored, g), offset, work))
    return alpha


@njit(cache=True, nogil=True)
def next_question(low, high, ply):
    """The value ``s`` of the next null-window question "is the score above s?" (low <= s < high).

    ``low`` and ``high`` bound the score (both included) of a position with ``ply`` stones.
    """
    middle = low + (high - low) // 2
    if low < 0 < high and ply < SIGN_FIRST_PLIES:
        # In the first few moves no quick win exists and every question near 0 costs about
        # as much as the sign itself: ask the sign at once. (Measured: 79 -> 64 s on the
        # empty board; from 4 stones on, far questions pay on the Pons sets.)
        middle = 0
    elif low < 0 < high:
        # While the sign is open, cheap questions far from 0 first: they narrow the
        # interval. (-(-low // 2) is low / 2 rounded towards zero.)
        if middle <= 0 and -(-low // 2) < middle:
            middle = -(-low // 2)
        elif middle >= 0 and high // 2 > middle:
            middle = high // 2
    # Once it is known and the score is next to 0 (where the scores of openings lie and
    # each proof is costliest), ask about the very next score: "above 1?" after "above 0?".
    elif 0 <= low < STEP_ZONE:
        middle = low
    elif -STEP_ZONE < high <= 0:
        middle = high - 1
    return middle


@njit(cache=True, nogil=True)
def score_range(current, mask, ply, weak, g):
    """``(low, high)``: the scores a position not over can have (``low == high``: it wins now)."""
    cells = g.cols * g.rows
    if can_win_now(current, mask, g):
        win = (cells + 1 - ply) // 2
        return win, win
    low = -((cells - ply) // 2)
    high = (cells + 1 - ply) // 2
    if weak:
        low, high = max(low, -1), min(high, 1)
    return low, high


@njit(cache=True, nogil=True)
def question_kernel(current, mask, ply, value, g, table, order, stats, flag):
    """One null-window search of a position that cannot be won at once: a bound that is above
    ``value`` exactly when the score is."""
    return negamax(current, mask, ply, value, value + 1, g, table, order, stats, flag)


@njit(cache=True, nogil=True)
def solve_kernel(current, mask, ply, weak, g, table, order, stats, flag):
    """The exact score (weak: its sign) of a position that is not over.

    Check ``stats[ABORTED]`` afterwards: if set, the result means nothing.
    """
    low, high = score_range(current, mask, ply, weak, g)
    while low < high:
        middle = next_question(low, high, ply)
        result = negamax(current, mask, ply, middle, middle + 1, g, table, order, stats, flag)
        if stats[ABORTED]:
            return 0
        if result <= middle:
            high = result
        else:
            low = result
    return low


@njit(cache=True, nogil=True)
def at_most_kernel(current, mask, ply, value, g, table, order, stats, flag):
    """Is the score of this position (not over) at most ``value``? One null-window search."""
    cells = g.cols * g.rows
    if can_win_now(current, mask, g):
        return (cells + 1 - ply) // 2 <= value
    return negamax(current, mask, ply, value, value + 1, g, table, order, stats, flag) <= value
