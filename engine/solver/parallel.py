"""Two null-window questions at once, on two threads that share the table.

A solve is a chain of yes/no questions, "is the score above s?" (see
:func:`~engine.solver.negamax.solve_kernel`), each one search on one core. On
a machine with two cores a long solve asks two at once: the question the
chain asks next, and the one it would ask after the likelier answer (the one
after a "yes" when that is still open, else after a "no"). Both threads fill
one transposition table, so each reuses what the other has proved, and the
kernels release the interpreter lock, so they run truly in parallel. A
question that an answer has made moot is cancelled through its own child of
the run's stop flag.

Only boards of one word: a slot of their table is one 64-bit word, written
and read whole, so a thread never sees half of another's entry. (Two-word
boards keep the key's high word in a second array, which a thread could pair
with another position's slot.)
"""

from __future__ import annotations

import queue
import threading
from contextlib import ExitStack
from dataclasses import dataclass, field

import numpy as np

from engine.solver.negamax import ABORTED, NODES, new_stats, next_question, question_kernel, score_range
from engine.stop import StopFlag


@dataclass
class _Question:
    """One question under way on its own thread: its value, its own stop flag, counters and answer."""

    value: int
    cancel: StopFlag
    stats: np.ndarray = field(default_factory=new_stats)
    bound: int = 0


def questions(low: int, high: int, ply: int) -> list[int]:
    """The next question for scores in ``[low, high]``, then the one to ask beside it (if any)."""
    first = int(next_question(low, high, ply))
    # "Above first?" -- a yes leaves [first + 1, high], a no [low, first].
    for after_low, after_high in ((first + 1, high), (low, first)):
        if after_low < after_high:
            return [first, int(next_question(after_low, after_high, ply))]
    return [first]


def solve_parallel(current, mask, ply: int, weak: bool, g, table, orders, flag: StopFlag) -> tuple[int | None, int]:
    """``(score, nodes)`` of a position not over, two questions at a time; the score is None if ``flag`` stopped it.

    ``orders`` are two move-order buffers, one for each thread.
    """
    low, high = (int(bound) for bound in score_range(current, mask, ply, weak, g))
    done: queue.Queue[_Question] = queue.Queue()
    running: dict[int, tuple[_Question, threading.Thread]] = {}
    free = list(orders)
    nodes = 0

    def ask(question: _Question, order: np.ndarray) -> None:
        try:
            question.bound = int(
                question_kernel(
                    current, mask, ply, question.value, g, table, order, question.stats, question.cancel.array
                )
            )
        finally:
            free.append(order)
            done.put(question)

    with ExitStack() as stack:
        while low < high:
            for value in questions(low, high, ply):
                if value not in running and free:
                    question = _Question(value, stack.enter_context(flag.deadline(None)))
                    thread = threading.Thread(target=ask, args=(question, free.pop()), daemon=True)
                    running[value] = (question, thread)
                    thread.start()
            finished = done.get()
            del running[finished.value]
            nodes += int(finished.stats[NODES])
            if finished.stats[ABORTED]:
                if flag.is_set():
                    break
                continue  # cancelled: another answer settled its question
            if finished.bound <= finished.value:
                high = finished.bound
            else:
                low = finished.bound
            for question, _ in running.values():
                if not low <= question.value < high:
                    question.cancel.set()
        for question, _ in running.values():
            question.cancel.set()
        for question, thread in running.values():
            thread.join()
            nodes += int(question.stats[NODES])
    return (low if low >= high else None), nodes
