"""One question on two threads: both search it, each its own way, and share what they learn.

A solve is a chain of yes/no questions, "is the score above s?" (see
:func:`~engine.solver.negamax.solve_kernel`), and on the openings each of them
is a long search. Both threads search the whole question ("lazy SMP", as
chess engines call it) and fill one transposition table. The second thread
jitters its move order near the root (see ``jitter`` in
:func:`~engine.solver.negamax.negamax`), so the two go down different
subtrees first; each then finds in the table much of what the other proved,
and cuts its own tree short there. The first thread to answer stops the
other. The answer is the same as on one thread: only the order of the work
changes.

Only boards of one word: a slot of their table is one 64-bit word, written
and read whole, so a thread never sees half of another's entry. (Two-word
boards keep the key's high word in a second array, which a thread could pair
with another position's slot.)
"""

from __future__ import annotations

import threading

from engine.solver.negamax import ABORTED, NODES, new_stats, next_question, question_kernel, score_range
from engine.stop import StopFlag

#: The threads that share a question.
THREADS = 2
#: The jitter of each thread's move order (see negamax): none for the first, so that it searches
#: as one thread alone would; random steps at the root and the two plies below it for the second.
JITTERS = (0, 111)


def answer(current, mask, ply: int, value: int, g, table, scratches, flag: StopFlag) -> tuple[int, int, bool]:
    """``(bound, nodes, stopped)``: one null-window question ("above ``value``?") raced on two threads."""
    found: list[int] = []
    counted = [0]
    lock = threading.Lock()

    def work(index: int, cancel: StopFlag) -> None:
        stats = new_stats(seed=index)
        bound = int(question_kernel(current, mask, ply, value, JITTERS[index], g, table, scratches[index], stats, cancel.array))
        with lock:
            counted[0] += int(stats[NODES])
            if not stats[ABORTED] and not found:
                found.append(bound)
                cancel.set()  # (a flag of this question only: the other thread stops, the caller's flag stays)

    with flag.deadline(None) as cancel:
        threads = [threading.Thread(target=work, args=(index, cancel), daemon=True) for index in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if not found:
        return 0, counted[0], True
    return found[0], counted[0], False


def solve_parallel(current, mask, ply: int, weak: bool, g, table, scratches, flag: StopFlag) -> tuple[int | None, int]:
    """``(score, nodes)`` of a position not over, each question on two threads (None: ``flag`` stopped it).

    ``scratches`` are two scratch buffers (see :func:`~engine.solver.negamax.new_scratch`), one for each thread.
    """
    low, high = (int(bound) for bound in score_range(current, mask, ply, weak, g))
    nodes = 0
    while low < high:
        value = int(next_question(low, high, ply))
        bound, spent, stopped = answer(current, mask, ply, value, g, table, scratches, flag)
        nodes += spent
        if stopped:
            return None, nodes
        if bound <= value:
            high = bound
        else:
            low = bound
    return low, nodes
