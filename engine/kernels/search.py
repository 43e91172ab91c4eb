"""Minimax and alpha-beta search as numba kernels.

Both are written in *negamax* form: a position's value is from the point of
view of the side to move, so the value of a move is minus the value of the
position it leads to, and one function serves both players.

Values
    A won game is worth ``WIN - p`` to the winner, where ``p`` is the number of
    stones on the board after the winning move: a quicker win is worth more,
    and a slower loss less bad. A full board is a draw, 0. When the depth runs
    out the evaluation function (:mod:`engine.kernels.evaluation`) scores the
    position; its values stay far below ``WIN - cells``.

Terminal test before the cut-off
    A node first checks for a full board, then for the depth limit, then
    whether the side to move can complete a line. Checking the win at the node
    is the same as scoring the winning child as terminal, as textbook minimax
    does, so minimax and alpha-beta return the same value at the same depth.

Numba note
    The recursive kernels must always be called with the same argument types:
    a literal such as ``1`` would make numba compile a second version whose
    recursive call changes type, which its cache cannot reload (numba issues
    6061 and 6713: a crash on the next run). Hence ``np.int64(1)`` below.

The search state
    Everything a search updates lives in a :class:`SearchContext` of numpy
    arrays, made once per agent by :func:`new_context`: the statistics, the
    stop flag, the transposition table, the principal-variation table and a
    move list for each ply (so no node allocates memory).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.geometry import centre_order
from engine.kernels.bitops import add, band, bxor, hash64, is_zero, lowest_index, popcount
from engine.kernels.evaluation import evaluate, threat_cells
from engine.kernels.jit import inner
from engine.kernels.rules import can_play, is_winning_move, play, playable_cells
from engine.kernels.stop import must_stop
from engine.stats import ABORTED, NODES, SLOTS, new_stats

WIN = 1_000_000
INF = 1 << 40

# Slots of SearchContext.stats after the shared ones (NODES, NODE_LIMIT, ABORTED, ...: engine.stats).
CUT = SLOTS  # set when some position was scored by the evaluation (depth cut-off)
TABLE_SHIFT = SLOTS + 1  # 64 - log2(table size): the table index is the top bits of a product

#: The stop flag is read once every POLL + 1 nodes (well under a millisecond, even
#: with the threats evaluation on a two-word board on a busy machine).
POLL = 255

# Move orders.
NATURAL, CENTER, HEURISTIC = 0, 1, 2
ORDERS = ("natural", "center", "heuristic")

# Transposition table entries: what kind of value is stored.
EXACT, LOWER, UPPER = 0, 1, 2
#: The depth stored for a value found without any depth cut-off: it holds at every depth.
PROVEN = 127

TABLE_ENTRY = np.dtype(
    [
        # The position: current + mask, unique on boards of up to 64 bits. Wider boards fold it
        # into 64 bits, so two positions may (very rarely) share a key and an entry be misread.
        ("key", np.uint64),
        ("score", np.int32),
        ("depth", np.int8),  # the depth the value was searched to (PROVEN: exhaustively)
        ("flag", np.int8),  # EXACT, or the score is a LOWER or UPPER bound of the value
        ("move", np.int8),  # the best column found, or -1
        ("used", np.int8),  # 1 once written (a zero key is a real position: the empty board)
    ]
)


class SearchContext(NamedTuple):
    """The arrays a search works in (numba sees this tuple as a struct)."""

    stats: np.ndarray  # see engine.stats, then CUT and TABLE_SHIFT
    flag: np.ndarray  # a StopFlag's array (byte 0 the flag, bytes 8-15 its deadline), or uint8[1]: no deadline
    table: np.ndarray  # TABLE_ENTRY[2**k], or empty for no table
    pv: np.ndarray  # int64[plies + 1, plies + 1]: pv[p, p:pv_len[p]] is the best line from ply p
    pv_len: np.ndarray  # int64[plies + 1]
    moves: np.ndarray  # int64[plies + 1, cols]: the ordered moves of each ply
    keys: np.ndarray  # int64[plies + 1, cols]: their ordering keys
    base_order: np.ndarray  # int64[cols]: the columns in natural or centre-first order
    order: int  # NATURAL, CENTER or HEURISTIC
    eval_id: int  # see engine.kernels.evaluation.NAMES


def new_context(cols: int, rows: int, order: str, eval_id: int, table_entries: int = 0) -> SearchContext:
    """Fresh search arrays for a board size; ``table_entries`` is 0 or a power of two."""
    if table_entries & (table_entries - 1):
        raise ValueError("the transposition table size must be a power of two")
    plies = cols * rows + 1
    stats = new_stats(extra=2)  # (CUT, TABLE_SHIFT)
    stats[TABLE_SHIFT] = 64 - max(table_entries.bit_length() - 1, 0)
    base = np.array(range(cols) if order == "natural" else centre_order(cols), dtype=np.int64)
    return SearchContext(
        stats=stats,
        flag=np.zeros(1, dtype=np.uint8),
        table=np.zeros(table_entries, dtype=TABLE_ENTRY),
        pv=np.zeros((plies + 1, plies + 1), dtype=np.int64),
        pv_len=np.zeros(plies + 1, dtype=np.int64),
        moves=np.zeros((plies + 1, cols), dtype=np.int64),
        keys=np.zeros((plies + 1, cols), dtype=np.int64),
        base_order=base,
        order=ORDERS.index(order),
        eval_id=eval_id,
    )


# -- small helpers -------------------------------------------------------------------
@inner
def _enter_node(ctx):
    """Count a node; True (and the node is not searched) once the search must unwind.

    It must when the node limit is used up or the stop flag is set; the flag is
    read once every POLL + 1 nodes only.
    """
    stats = ctx.stats
    if stats[ABORTED] == 0 and must_stop(ctx, stats[NODES] & POLL == 0):
        stats[ABORTED] = 1
    if stats[ABORTED]:
        return True
    stats[NODES] += 1
    return False


@inner
def _pv_end(ctx, ply):
    """The best line from ``ply`` is empty (a leaf)."""
    ctx.pv_len[ply] = ply


@inner
def _pv_push(ctx, ply, col):
    """The best line from ``ply`` is ``col`` followed by the best line from ``ply + 1``."""
    ctx.pv[ply, ply] = col
    for i in range(ply + 1, ctx.pv_len[ply + 1]):
        ctx.pv[ply, i] = ctx.pv[ply + 1, i]
    ctx.pv_len[ply] = max(ctx.pv_len[ply + 1], ply + 1)


@inner
def _pv_single(ctx, ply, col):
    """The best line from ``ply`` is the single move ``col`` (a winning move)."""
    ctx.pv[ply, ply] = col
    ctx.pv_len[ply] = ply + 1


@inner
def _winning_column(current, mask, g):
    """A column where the side to move completes a line now, or -1."""
    wins = band(threat_cells(current, mask, g), playable_cells(mask, g))
    if is_zero(wins):
        return -1
    return lowest_index(wins) // g.height


@inner
def _slot(ctx, key):
    """The table slot of a key: the top bits of key * 2^64/phi (Fibonacci hashing)."""
    return np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(ctx.stats[TABLE_SHIFT]))


# -- move ordering ---------------------------------------------------------------------
@njit(cache=True, nogil=True)  # callable from Python too: a first start compiles it beside the evaluation
def order_moves(current, mask, g, ply, first, ctx):
    """Write the legal columns into ``ctx.moves[ply]``, best first; return how many.

    The base order is natural (left to right) or centre-first. ``heuristic``
    then sorts by how many threats (empty cells that would complete a line) the
    move leaves its player, centre-first among equals. ``first`` (the table's
    or the previous iteration's best move, or -1) goes in front in any order.
    """
    moves, keys = ctx.moves[ply], ctx.keys[ply]
    n = 0
    for col in ctx.base_order:
        if can_play(mask, g, col):
            moves[n] = col
            n += 1
    if ctx.order == HEURISTIC:
        for i in range(n):
            after_current, after_mask = play(current, mask, g, moves[i])
            mover = bxor(after_current, after_mask)  # after the move, `current` is the opponent
            keys[i] = popcount(threat_cells(mover, after_mask, g))
        # Insertion sort by key, largest first; stable, so ties keep the centre-first order.
        for i in range(1, n):
            col, key = moves[i], keys[i]
            j = i - 1
            while j >= 0 and keys[j] < key:
                moves[j + 1], keys[j + 1] = moves[j], keys[j]
                j -= 1
            moves[j + 1], keys[j + 1] = col, key
    if first >= 0:
        for i in range(n):
            if moves[i] == first:
                for j in range(i, 0, -1):  # shift the moves before it one place right
                    moves[j] = moves[j - 1]
                moves[0] = first
                break
    return n


# -- the transposition table -----------------------------------------------------------------
@inner
def _tt_store(ctx, key, depth, score, alpha, beta, move, proven):
    """Remember a searched position (always replacing what the slot held).

    With ``alpha`` and ``beta`` the window the node was searched with, a
    fail-soft value ``score <= alpha`` is only an upper bound of the true value
    and ``score >= beta`` a lower bound; in between it is exact.
    """
    entry = ctx.table[_slot(ctx, key)]
    entry.key = key
    entry.score = np.int32(score)
    entry.depth = np.int8(PROVEN if proven else depth)
    if score <= alpha:
        entry.flag = np.int8(UPPER)
    elif score >= beta:
        entry.flag = np.int8(LOWER)
    else:
        entry.flag = np.int8(EXACT)
    entry.move = np.int8(move)
    entry.used = np.int8(1)


# -- alpha-beta --------------------------------------------------------------------------------
@inner
def alphabeta(current, mask, g, depth, alpha, beta, ply, ctx):
    """The negamax value of the position searched ``depth`` plies deep, with alpha-beta pruning.

    Only values inside the window ``(alpha, beta)`` matter: as soon as one
    move scores ``beta`` or more, the opponent (who has a move worth ``-beta``
    elsewhere) will never allow this position, and the other moves are
    skipped. The value is *fail-soft*: outside the window it is a bound on the
    true value (an upper bound when ``<= alpha``, a lower bound when ``>=
    beta``), which the transposition table stores as such.
    """
    if _enter_node(ctx):
        return 0
    _pv_end(ctx, ply)
    stones = popcount(mask)
    if stones == g.cols * g.rows:
        return 0  # a full board is a draw
    if depth == 0:
        ctx.stats[CUT] = 1
        return evaluate(current, mask, g, ctx.eval_id)
    win = _winning_column(current, mask, g)
    if win >= 0:
        _pv_single(ctx, ply, win)
        return WIN - (stones + 1)

    key = hash64(add(current, mask))  # current + mask identifies the position (Pons's key)
    hash_move = -1
    if len(ctx.table) > 0:
        entry = ctx.table[_slot(ctx, key)]
        if entry.used == 1 and entry.key == key:
            hash_move = np.int64(entry.move)
            if entry.depth >= depth:
                score = np.int64(entry.score)
                flag = entry.flag
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    if entry.depth != PROVEN:
                        ctx.stats[CUT] = 1  # the stored value came from a cut-off search
                    return score

    # CUT records whether this subtree reaches a depth cut-off; keep the caller's flag aside.
    outer_cut = ctx.stats[CUT]
    ctx.stats[CUT] = 0
    n = order_moves(current, mask, g, ply, hash_move, ctx)
    best, best_move = -INF, -1
    window_low = alpha
    for i in range(n):
        col = ctx.moves[ply, i]
        child_current, child_mask = play(current, mask, g, col)
        score = -alphabeta(child_current, child_mask, g, depth - 1, -beta, -alpha, ply + 1, ctx)
        if ctx.stats[ABORTED]:
            return 0
        if score > best:
            best, best_move = score, col
            _pv_push(ctx, ply, col)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break  # a cut: the opponent will avoid this position
    subtree_cut = ctx.stats[CUT]
    if len(ctx.table) > 0:
        _tt_store(ctx, key, depth, best, window_low, beta, best_move, subtree_cut == 0)
    ctx.stats[CUT] = outer_cut | subtree_cut
    return best


@njit(cache=True, nogil=True)
def alphabeta_root(current, mask, g, depth, first, all_exact, margin, ctx, scores, exact):
    """Search each move of the root ``depth`` plies deep; return the best column.

    ``first`` (the previous iteration's best move, or -1) is searched first.
    ``scores[col]`` receives each searched move's value, and ``exact[col]`` 1
    if it is exact or 0 if it is only an upper bound (the move is no better
    than one searched before it, by more than ``margin``). With ``margin``
    0 or more, values within ``margin`` of the best so far are exact too, so
    the caller can choose among ties (0) or near-ties; -1 is plain alpha-beta.
    With ``all_exact`` every move is searched with the full window, so every
    value is exact (slower: no pruning between root moves). Returns -1 if the
    search was stopped before the first move was done; the best line is
    ``ctx.pv[0, :ctx.pv_len[0]]``.
    """
    ctx.stats[NODES] += 1
    ctx.pv_len[0] = 0
    stones = popcount(mask)
    n = order_moves(current, mask, g, np.int64(0), first, ctx)
    alpha, best_col = -INF, -1
    for i in range(n):
        col = ctx.moves[0, i]
        if is_winning_move(current, mask, g, col):
            score = WIN - (stones + 1)
            ctx.pv_len[1] = 1  # nothing follows a winning move
        else:
            child_current, child_mask = play(current, mask, g, col)
            # The window's low end: below it a move's value is only bounded (fail-soft).
            low = -INF if all_exact or alpha == -INF else alpha - margin - 1
            score = -alphabeta(child_current, child_mask, g, depth - 1, -INF, -low, np.int64(1), ctx)
            if ctx.stats[ABORTED]:
                break
        scores[col] = score
        exact[col] = 1 if all_exact or score > alpha - margin - 1 else 0
        if score > alpha:
            alpha, best_col = score, col
            _pv_push(ctx, np.int64(0), col)  # not the literal 0: one version of _pv_push
    return best_col


# -- minimax, the baseline ---------------------------------------------------------------------
@inner
def minimax(current, mask, g, depth, ply, ctx):
    """The negamax value of the position, searching every move ``depth`` plies deep.

    No pruning and no table: the textbook algorithm that alpha-beta must agree
    with. A move that completes a line is a terminal child worth ``WIN - p``.
    """
    if _enter_node(ctx):
        return 0
    _pv_end(ctx, ply)
    stones = popcount(mask)
    if stones == g.cols * g.rows:
        return 0
    if depth == 0:
        ctx.stats[CUT] = 1
        return evaluate(current, mask, g, ctx.eval_id)
    best = -INF
    for col in range(g.cols):
        if not can_play(mask, g, col):
            continue
        if is_winning_move(current, mask, g, col):
            score = WIN - (stones + 1)
            _pv_end(ctx, ply + 1)
        else:
            child_current, child_mask = play(current, mask, g, col)
            score = -minimax(child_current, child_mask, g, depth - 1, ply + 1, ctx)
            if ctx.stats[ABORTED]:
                return 0
        if score > best:
            best = score
            _pv_push(ctx, ply, col)
    return best


@njit(cache=True, nogil=True)
def minimax_root(current, mask, g, depth, ctx, scores):
    """Minimax at the root: every column's value into ``scores``; return the best column.

    Returns -1 if the search was stopped before every move was searched.
    """
    ctx.stats[NODES] += 1
    ctx.pv_len[0] = 0
    stones = popcount(mask)
    best, best_col = -INF, -1
    for col in range(g.cols):
        if not can_play(mask, g, col):
            continue
        if is_winning_move(current, mask, g, col):
            score = WIN - (stones + 1)
            _pv_end(ctx, np.int64(1))  # not the literal 1: one version of _pv_end
        else:
            child_current, child_mask = play(current, mask, g, col)
            score = -minimax(child_current, child_mask, g, depth - 1, np.int64(1), ctx)
            if ctx.stats[ABORTED]:
                return -1
        scores[col] = score
        if score > best:
            best, best_col = score, col
            _pv_push(ctx, np.int64(0), col)  # not the literal 0: one version of _pv_push
    return best_col
