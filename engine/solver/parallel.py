"""One question on two threads: the replies to the most promising move, shared out.

A solve is a chain of yes/no questions, "is the score above s?" (see
:func:`~engine.solver.negamax.solve_kernel`), and on the openings one of them
is nearly the whole search. So both threads work on the same question:
the answer is "yes" when the move the move order likes best (``m``) leaves
every reply of the opponent a position still scoring above ``s``, and those
positions are independent searches. The threads take them one by one from a
shared list in column order, and all fill one transposition table. (Column
order puts the mirror images of a symmetric position far apart, 0 and 6 at
the ends: the second of a pair comes late, when the table holds the first.) If one of them fails, ``m`` was not
good enough: the others are cancelled, and the moves themselves are shared
out instead (a "no" needs every one of them to fall short; one that does not
is a "yes" and cancels the rest). The score found is the same: only the order
of the work changes.

Only boards of one word: a slot of their table is one 64-bit word, written
and read whole, so a thread never sees half of another's entry. (Two-word
boards keep the key's high word in a second array, which a thread could pair
with another position's slot.)
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

from engine.kernels.bitops import band, bor, bxor, is_zero
from engine.kernels.rules import column_cells, playable_cells, winning_cells
from engine.solver.moves import non_losing_moves, order_moves
from engine.solver.negamax import ABORTED, NODES, new_stats, next_question, question_kernel, score_range
from engine.stop import StopFlag

#: The threads that share a question.
THREADS = 2


@njit(cache=True, nogil=True)
def replies_to_best(current, mask, ply, g, order, out_current, out_mask):
    """The positions after the best-looking move and each reply, written to ``out_*``; how many (0: no split).

    No split when the move order has a single move, near the end of the board, or when the best
    move lets the opponent win at once (then the moves themselves are shared out, see answer).
    """
    threats = winning_cells(bxor(current, mask), mask, g)
    moves = non_losing_moves(mask, threats, g)
    if is_zero(moves) or ply + 4 >= g.cols * g.rows:
        return 0
    count = order_moves(current, mask, moves, threats, g, -1, order, ply)
    col = order[ply, 0, 0]
    child_current, child_mask = bxor(current, mask), bor(mask, band(moves, column_cells(g, col)))
    # The opponent to move: they win at once if one of their winning cells is playable.
    if not is_zero(band(winning_cells(child_current, child_mask, g), playable_cells(child_mask, g))):
        return 0
    n = 0
    for reply in range(g.cols):
        cell = band(playable_cells(child_mask, g), column_cells(g, reply))
        if is_zero(cell):
            continue
        out_current[n] = bxor(child_current, child_mask)
        out_mask[n] = bor(child_mask, cell)
        n += 1
    return n if count > 1 else 0


@njit(cache=True, nogil=True)
def children(current, mask, g, out_current, out_mask):
    """The positions after each move that does not lose at once, written to ``out_*``; how many."""
    opponent = bxor(current, mask)
    moves = non_losing_moves(mask, winning_cells(opponent, mask, g), g)
    n = 0
    for col in range(g.cols):
        cell = band(moves, column_cells(g, col))
        if not is_zero(cell):
            out_current[n] = opponent
            out_mask[n] = bor(mask, cell)
            n += 1
    return n


def answer(current, mask, ply: int, value: int, g, table, orders, flag: StopFlag) -> tuple[int, int, bool]:
    """``(bound, nodes, stopped)``: one null-window question ("above ``value``?") on two threads.

    First the replies to the best-looking move, all of which must stay above ``value`` for a
    "yes". If one does not, every move is asked side by side instead ("is the opponent's score
    after it at most ``-value - 1``?"): one such move is a "yes", none a "no".
    """
    out_current = np.zeros(g.cols, dtype=np.uint64)
    out_mask = np.zeros(g.cols, dtype=np.uint64)
    count = int(replies_to_best(current, mask, ply, g, orders[0], out_current, out_mask))
    nodes = 0
    if count:
        bounds, nodes, failed = _share(out_current[:count], out_mask[:count], ply + 2, value, g, table, orders, flag)
        if flag.is_set():
            return 0, nodes, True
        if not failed:
            return min(bounds), nodes, False
    count = int(children(current, mask, g, out_current, out_mask))
    if count > 1:
        bounds, spent, _ = _share(out_current[:count], out_mask[:count], ply + 1, -value - 1, g, table, orders, flag)
        if flag.is_set():
            return 0, nodes + spent, True
        # Either every move was answered (each scores at most -bound for us: a "no") or one
        # move's opponent scores at most -value - 1 and the others were cancelled (a "yes").
        return -min(bounds), nodes + spent, False
    stats = new_stats()
    bound = int(question_kernel(current, mask, ply, value, g, table, orders[0], stats, flag.array))
    return bound, nodes + int(stats[NODES]), bool(stats[ABORTED])


def _share(currents, masks, ply: int, value: int, g, table, orders, flag: StopFlag) -> tuple[list[int], int, bool]:
    """Ask "above ``value``?" of each position on ``THREADS`` threads: ``(bounds, nodes, some answer was no)``."""
    lock = threading.Lock()
    waiting = list(range(len(currents)))
    bounds: list[int] = []
    counted = [0]
    failed = [False]

    def work(order: np.ndarray, cancel: StopFlag) -> None:
        while True:
            with lock:
                if not waiting or failed[0]:
                    return
                index = waiting.pop(0)
            low, high = score_range(currents[index], masks[index], ply, False, g)
            stats = new_stats()
            if low == high:  # the mover wins at once
                bound = int(low)
            else:
                bound = int(
                    question_kernel(currents[index], masks[index], ply, value, g, table, order, stats, cancel.array)
                )
            with lock:
                counted[0] += int(stats[NODES])
                if stats[ABORTED]:
                    return
                bounds.append(bound)
                if bound <= value and not failed[0]:
                    failed[0] = True
                    cancel.set()  # (the shared flag: the other thread stops too)

    with flag.deadline(None) as cancel:
        threads = [threading.Thread(target=work, args=(order, cancel), daemon=True) for order in orders[:THREADS]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return bounds, counted[0], failed[0] or len(bounds) < len(currents)


def solve_parallel(current, mask, ply: int, weak: bool, g, table, orders, flag: StopFlag) -> tuple[int | None, int]:
    """``(score, nodes)`` of a position not over, each question on two threads (None: ``flag`` stopped it).

    ``orders`` are two move-order buffers, one for each thread.
    """
    low, high = (int(bound) for bound in score_range(current, mask, ply, weak, g))
    nodes = 0
    while low < high:
        value = int(next_question(low, high, ply))
        bound, spent, stopped = answer(current, mask, ply, value, g, table, orders, flag)
        nodes += spent
        if stopped:
            return None, nodes
        if bound <= value:
            high = bound
        else:
            low = bound
    return low, nodes
