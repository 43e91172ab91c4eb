"""The exact search: negamax with alpha-beta over bitboards, and its null-window driver.

:func:`search` returns the score of a position in Pons's convention (see
docs/cli.md), but only as precisely as the window ``(alpha, beta)`` asks:

* if the true score is in the window, it returns it;
* if it is at most ``alpha``, it returns some upper bound ``<= alpha``;
* if it is at least ``beta``, it returns some lower bound ``>= beta``.

A *null window* ``(s, s + 1)`` therefore answers one yes/no question, "is the
score above ``s``?", and is much cheaper than a wide window.
:func:`solve_kernel` finds the exact score with a few such questions in the
order of :mod:`engine.solver.questions`: cheap ones far from 0 first, which
narrow the interval, and one score at a time next to 0 (early in a game, from
0 outwards), because Connect Four positions are often close to a draw. Weak
solving asks only whether the score is above -1 and above 0.

**Settling before searching.** Much of a Connect Four tree needs no search:
a move that must block, a position lost to a double threat, one that the
opponent's claimeven strategy (:mod:`engine.solver.claimeven`) or the
transposition table already bounds. :func:`play_forced` plays the forced
moves out and :func:`known_bounds` gathers those bounds; only a *quiet*
position (two or more moves that do not lose at once, nothing to block) that
they leave open reaches :func:`negamax`, which settles every child before it
searches any. A child settled outside the window cuts the node off at once,
whatever place the move order gave it; the others are searched most
promising first. Only quiet positions are counted as nodes and stored in the
table. (Christophe Steininger's solver, the fastest we know, is built this
way.)

**Speed.** The helpers are inlined into the search (``inline="always"``), the
recursion runs without numba's reference counting (:data:`~engine.kernels.jit.NO_REFCOUNTS`: it
allocates nothing) and a node asks the memory for its children's table
entries before it needs them (:func:`~engine.solver.table.prefetch`), so
that those slow loads overlap. (Measured on the weak solve of the empty board,
one thread: without the prefetch 38 % slower, with reference counting 17 %.)

Every position keeps the precondition that the side to move cannot win at
once: the drivers check it at the root, and the moves that do not lose at
once keep it below.

**Stopping.** ``ctx.stats`` counts nodes (:mod:`engine.stats`); every 4096 nodes
the search makes the kernels' one check (:func:`~engine.kernels.stop.must_stop`:
node limit or stop flag), and on either sets ``stats[ABORTED]``. From then
on every call returns at once, nothing more is stored in the table, and the
caller must discard the (meaningless) result.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from numba import njit

from engine.kernels.bitops import andnot, band, bor, bxor, is_zero, load, shr, store, sub
from engine.kernels.jit import NO_REFCOUNTS, inner
from engine.kernels.rules import column_cells, playable_cells, winning_cells
from engine.kernels.stop import must_stop
from engine.solver import questions
from engine.solver.arrays import CHILD_FIELDS
from engine.solver.claimeven import claimeven_bound
from engine.solver.moves import can_win_now, centre_column, move_promise
from engine.solver.symmetry import SYMMETRY_PLIES, mirror, smaller_image
from engine.solver.table import EXACT, LOWER, UPPER, entry_bound, entry_score, pack, prefetch, probe, work_of
from engine.solver.table import store as remember
from engine.stats import ABORTED, NODES, RANDOM

#: Nodes between two looks at the stop flag and the node limit (a power of two).
POLL = 4096
#: How much a jittered move may gain in the move order (see negamax's ``jitter``).
JITTER = 3

# Columns of a child's row in the scratch ``info`` array (see arrays.new_scratch).
_COL, _PLY, _FLIPPED, _LOW, _HIGH, _PROMISE = range(CHILD_FIELDS)


@njit(cache=True, nogil=True)
def lowest_stored(g):
    """The offset of scores in the table (below any score the search stores)."""
    return -(g.cols * g.rows // 2) - 1


@njit(cache=True, nogil=True, inline="always")
def _count_node(ctx):
    """Count a node; every POLL nodes check the node limit and the stop flag."""
    stats = ctx.stats
    stats[NODES] += 1
    if stats[NODES] & (POLL - 1) == 0 and must_stop(ctx, True):
        stats[ABORTED] = 1


@njit(cache=True, nogil=True, inline="always")
def table_image(current, mask, ply, g):
    """``(current, mask)``: the image of a position the table stores it under.

    Early positions are stored as the smaller of their two mirror images: near the root
    both often occur (after 4 and 3, the mirror of 4 and 5), deeper down rarely.
    """
    if ply < SYMMETRY_PLIES:
        current, mask, _ = smaller_image(current, mask, mirror(current, g), mirror(mask, g))
    return current, mask


@njit(cache=True, nogil=True, inline="always")
def play_forced(current, mask, ply, g):
    """Play out the forced moves of a position not over whose mover cannot win at once.

    Returns ``(done, value, current, mask, ply, flipped)``: ``done`` when the
    game is decided on the way (``value`` is then the exact score of the given
    position); else the quiet position reached (two or more moves that do not
    lose at once, nothing to block), whose score is the given one's, negated
    if ``flipped``.
    """
    cells = g.cols * g.rows
    flipped = False
    while True:
        opponent = bxor(current, mask)
        opponent_threats = winning_cells(opponent, mask, g)
        playable = playable_cells(mask, g)
        blocks = band(opponent_threats, playable)  # where the opponent wins with their next stone
        # threats >> 1 are the cells just below the opponent's winning cells: playing one lets them win.
        safe = andnot(playable, shr(opponent_threats, 1))
        if (
            is_zero(safe)
            or not is_zero(band(blocks, sub(blocks, g.one)))  # (x & (x - 1) clears the lowest bit: two threats)
            or not is_zero(andnot(blocks, safe))  # the one block lets them win on top of it
        ):
            value = -((cells - ply) // 2)  # lost with the opponent's next stone
            return True, -value if flipped else value, current, mask, ply, flipped
        if ply >= cells - 2:
            return True, 0, current, mask, ply, flipped  # neither can win any more: a draw
        forced = blocks
        if is_zero(forced) and is_zero(band(safe, sub(safe, g.one))):
            forced = safe  # the only move that does not lose at once
        if is_zero(forced):
            return False, 0, current, mask, ply, flipped
        current, mask = opponent, bor(mask, forced)
        ply += 1
        flipped = not flipped


@njit(cache=True, nogil=True, inline="always")
def known_bounds(current, mask, ply, g, table):
    """``(low, high)``: bounds on the score of a quiet position that need no search."""
    cells = g.cols * g.rows
    # The opponent cannot win with their next stone, so we score at least this ...
    low = -((cells - 2 - ply) // 2)
    # ... and we cannot win with this stone, so at most this.
    high = (cells - 1 - ply) // 2
    # The opponent's follow-up strategy may rule out a win, or bound the loss (see claimeven).
    high = min(high, claimeven_bound(current, mask, ply, g))
    # What an earlier search proved.
    seen_current, seen_mask = table_image(current, mask, ply, g)
    word = probe(table, seen_current, seen_mask)
    if word != 0:
        stored = entry_score(word, lowest_stored(g))
        kind = entry_bound(word)
        if kind != UPPER:
            low = max(low, stored)
        if kind != LOWER:
            high = min(high, stored)
    return low, high


@njit(cache=True, nogil=True, inline="always")
def outside(low, high, alpha, beta):
    """Do the bounds ``low..high`` answer the window ``(alpha, beta)``? ``(answered, value)``.

    The value is as :func:`search` returns it: the exact score, a lower bound at or above
    ``beta``, or an upper bound at or below ``alpha``.
    """
    if low >= high or low >= beta or high <= alpha:
        return True, low if low >= beta else high
    return False, 0


@njit(cache=True, nogil=True, inline="always")
def _random(stats):
    """The next number of the random state in ``stats`` (Marsaglia's xorshift, 64 bits)."""
    state = np.uint64(stats[RANDOM])
    state ^= state << np.uint64(13)
    state ^= state >> np.uint64(7)
    state ^= state << np.uint64(17)
    stats[RANDOM] = np.int64(state)
    return state >> np.uint64(33)  # the high bits, the most random ones


@njit(cache=True, nogil=True, inline="always")
def search(current, mask, ply, alpha, beta, jitter, g, ctx):
    """The score of a position not over whose mover cannot win at once, within ``(alpha, beta)``
    (``jitter``: see :func:`negamax`)."""
    done, value, current, mask, ply, flipped = play_forced(current, mask, ply, g)
    if done:
        return value
    if flipped:  # the forced moves gave the move to the other side
        alpha, beta = -beta, -alpha
    low, high = known_bounds(current, mask, ply, g, ctx.table)
    done, value = outside(low, high, alpha, beta)
    if not done:
        # (np.int64: a constant jitter would give numba a second signature of the recursion.)
        value = negamax(current, mask, ply, alpha, beta, low, high, np.int64(jitter), g, ctx)
    return -value if flipped else value


@partial(inner, refcounts=False)
def negamax(current, mask, ply, alpha, beta, low, high, jitter, g, ctx):
    """The score of a quiet position (see :func:`play_forced`) within ``(alpha, beta)``.

    ``low`` and ``high`` are its :func:`known_bounds`, which do not answer the window.
    ``jitter`` (0: none) shuffles the move order a little near the root, so that two threads
    searching one position go different ways (see :mod:`engine.solver.parallel`): its last
    digit ``d`` adds up to ``d * JITTER`` at random to the promise of each move, and the
    children get the other digits.
    """
    _count_node(ctx)
    stats, table, scratch = ctx.stats, ctx.table, ctx.scratch
    if stats[ABORTED]:
        return 0
    start_nodes = stats[NODES]
    cells = g.cols * g.rows
    window_low = alpha = max(alpha, low)
    beta = min(beta, high)

    # Settle every move before searching any: one settled outside the window decides the node at
    # once, whatever place the move order gives it. First the forced moves of each, starting to load
    # their table entries (the loads then overlap) ...
    info, currents, masks = scratch
    opponent = bxor(current, mask)
    opponent_threats = winning_cells(opponent, mask, g)
    safe = andnot(playable_cells(mask, g), shr(opponent_threats, 1))
    value = -cells  # below any score
    first_row = ply * g.cols
    count = 0
    for i in range(g.cols):
        col = centre_column(g, i)
        cell = band(safe, column_cells(g, col))
        if is_zero(cell):
            continue
        done, child, c_current, c_mask, c_ply, c_flipped = play_forced(opponent, bor(mask, cell), ply + 1, g)
        if done:
            child = -child
            # (value <= alpha < beta always holds here: a value above alpha raises it.)
            value, alpha = max(value, child), max(alpha, child)
            if alpha >= beta:
                return alpha
            continue
        seen_current, seen_mask = table_image(c_current, c_mask, c_ply, g)
        prefetch(table, seen_current, seen_mask)
        row = first_row + count
        info[row, _COL] = col
        info[row, _PLY] = c_ply
        info[row, _FLIPPED] = c_flipped
        store(currents, row, c_current)
        store(masks, row, c_mask)
        count += 1
    # ... then what each position reached is known to score.
    kept = 0
    for k in range(count):
        row = first_row + k
        c_current, c_mask = load(currents, row), load(masks, row)
        c_ply, c_flipped = info[row, _PLY], info[row, _FLIPPED]
        c_low, c_high = known_bounds(c_current, c_mask, c_ply, g, table)
        # The child's window: the position reached is the opponent's unless the forced moves gave it back.
        done, child = outside(c_low, c_high, alpha, beta) if c_flipped else outside(c_low, c_high, -beta, -alpha)
        if done:
            if not c_flipped:
                child = -child
            value, alpha = max(value, child), max(alpha, child)
            if alpha >= beta:
                return alpha
            continue
        if kept != k:
            _copy_row(scratch, first_row + kept, row)
        row = first_row + kept
        info[row, _LOW] = c_low
        info[row, _HIGH] = c_high
        kept += 1
    count = kept
    if count == 0:
        return value
    # No move lost the opponent the game at once, so no win comes before our stone after next.
    no_quick_win = max(value, (cells - 3 - ply) // 2)
    if beta > no_quick_win:
        beta = no_quick_win
        if alpha >= beta:
            return beta

    # The most promising move first. (The move the table remembers would do worse: trying it
    # first cost 8 % more nodes on the Pons sets, so the table keeps none.)
    for k in range(count):
        row = first_row + k
        col = info[row, _COL]
        promise = move_promise(current, mask, band(safe, column_cells(g, col)), opponent_threats, g)
        if jitter % 10:
            promise += JITTER * (_random(stats) % (jitter % 10 + 1))
        # Insertion sort, descending and stable: the centre goes first among equals.
        j = row
        while j > first_row and info[j - 1, _PROMISE] < promise:
            _swap_rows(scratch, j, j - 1)
            j -= 1
        info[j, _PROMISE] = promise

    for k in range(count):
        row = first_row + k
        c_current, c_mask = load(currents, row), load(masks, row)
        c_ply, c_low, c_high = info[row, _PLY], info[row, _LOW], info[row, _HIGH]
        if info[row, _FLIPPED]:  # the child's forced moves gave the move back to us
            child = negamax(c_current, c_mask, c_ply, alpha, beta, c_low, c_high, jitter // 10, g, ctx)
        else:
            child = -negamax(c_current, c_mask, c_ply, -beta, -alpha, c_low, c_high, jitter // 10, g, ctx)
        if stats[ABORTED]:
            return 0
        value, alpha = max(value, child), max(alpha, child)
        if alpha >= beta:
            break

    # What was proven: a lower bound (fail high), an upper bound (fail low) or the score itself;
    # a bound that meets the opposite bound known before the search is the score too.
    if value >= beta:
        kind = EXACT if value == high else LOWER
    elif value <= window_low:
        kind = EXACT if value == low else UPPER
    else:
        kind = EXACT
    seen_current, seen_mask = table_image(current, mask, ply, g)
    remember(table, seen_current, seen_mask, pack(value, kind, lowest_stored(g), work_of(stats[NODES] - start_nodes)))
    return value


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNTS)
def _copy_row(scratch, to, source):
    """Copy a child of a node to another row of the scratch arrays."""
    info, currents, masks = scratch
    for field in range(6):
        info[to, field] = info[source, field]
    store(currents, to, load(currents, source))
    store(masks, to, load(masks, source))


@njit(cache=True, nogil=True, inline="always", **NO_REFCOUNTS)
def _swap_rows(scratch, a, b):
    """Exchange two children of a node in the scratch arrays."""
    info, currents, masks = scratch
    for field in range(6):
        info[a, field], info[b, field] = info[b, field], info[a, field]
    current_a, mask_a = load(currents, a), load(masks, a)
    store(currents, a, load(currents, b))
    store(masks, a, load(masks, b))
    store(currents, b, current_a)
    store(masks, b, mask_a)


#: The question order, compiled for the kernels (see engine.solver.questions).
next_question = njit(cache=True, nogil=True)(questions.next_question)


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


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def question_kernel(current, mask, ply, value, jitter, g, ctx):
    """One null-window search of a position that cannot be won at once: a bound that is above
    ``value`` exactly when the score is (``jitter``: see :func:`negamax`)."""
    return search(current, mask, ply, value, value + 1, jitter, g, ctx)


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def solve_kernel(current, mask, ply, weak, g, ctx):
    """The exact score (weak: its sign) of a position that is not over.

    Check ``ctx.stats[ABORTED]`` afterwards: if set, the result means nothing.
    """
    low, high = score_range(current, mask, ply, weak, g)
    while low < high:
        middle = next_question(low, high, ply, g.cols * g.rows)
        result = search(current, mask, ply, middle, middle + 1, 0, g, ctx)
        if ctx.stats[ABORTED]:
            return 0
        if result <= middle:
            high = result
        else:
            low = result
    return low


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def at_most_kernel(current, mask, ply, value, g, ctx):
    """Is the score of this position (not over) at most ``value``? One null-window search."""
    cells = g.cols * g.rows
    if can_win_now(current, mask, g):
        return (cells + 1 - ply) // 2 <= value
    return search(current, mask, ply, value, value + 1, 0, g, ctx) <= value
