"""One question on two threads: its answer split into independent questions, shared out.

A solve is a chain of yes/no questions, "is the score above s?" (see
:func:`~engine.solver.negamax.solve_kernel`), and on the openings each of them
is a long search. Two threads answer one question together:

* **"Yes" needs one good move.** The move the move order likes best, ``m``,
  is good enough when every reply of the opponent leaves a position still
  scoring above ``s``. Those positions are independent questions: the
  threads take them one by one from a shared list, most promising reply
  first, and fill one transposition table. (Mirror images have the same
  answer: only one of each pair is asked.) If one of them is a "no", ``m``
  was not good enough: the others are cancelled and the moves themselves are
  shared out instead.
* **"No" needs every move refuted.** Each move is a question of its own ("does
  the opponent score at least ``-s`` after it?"); one that is not refuted
  is a "yes" and cancels the rest. A question asked right after a "yes, at
  least ``b``" is "above ``b``?", usually a "no" (less so early in a game,
  where the questions step up from 0 and only the last is sure to be one):
  the moves are shared out at once.
* **The first question first.** If a list holds a "no", it is usually its
  first question (the reply the move order likes best refutes ``m``; the move
  it likes best is the one the opponent cannot refute). So near the top the
  first question is answered on both threads, split the same way, before the
  rest are shared out: what the other thread would do meanwhile on the others
  is then not thrown away. (Measured on a 9x5 position, 261119: 28.9 s
  without this, 21.3 s with it, 38.3 s on one thread.)
* **No thread waits.** When the list is empty, a thread joins a question the
  other one is still on: first it answers the questions that one comes down
  to, from the last (which the other thread will reach last, and then find
  answered in the table), then it searches the question itself, its move
  order jittered where the opponent moves (see ``jitter`` in
  :func:`~engine.solver.negamax.negamax`). The first to answer stops the other.

The answer is the same as on one thread: only the order of the work changes.
(Measured on the empty 7x6 board, weakly: 15.7 s on one thread, 8.6-9.5 s on
two this way, 11.6-13.4 s with both threads searching every question whole.)

Only boards of one word: a slot of their table is one 64-bit word, written
and read whole, so a thread never sees half of another's entry. (Two-word
boards keep the key's high word in a second array, which a thread could pair
with another position's slot.)
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from engine.kernels.bitops import andnot, band, bor, bxor, shr
from engine.kernels.rules import column_cells, playable_cells, winning_cells
from engine.solver.arrays import ABORTED, NODES, new_stats
from engine.solver.moves import order_moves
from engine.solver.negamax import play_forced, question_kernel, score_range
from engine.solver.questions import next_question
from engine.solver.symmetry import mirror
from engine.stop import StopFlag

#: The threads that share a question.
THREADS = 2
#: The jitter of a thread that joins a question another is on (see negamax): random steps where
#: the opponent moves, one and three plies below the question's position, where every move must be
#: searched anyway (the question is expected to be a "yes"), so that the two go different ways.
HELPER_JITTER = 1010
#: How many levels deep a question's most promising move is asked on both threads (see _answer_quiet).
SPLIT_DEPTH = 2


@njit(cache=True, nogil=True)
def safe_moves(current, mask, g, out_current, out_mask):
    """The positions after each move that does not lose at once, most promising first, in ``out_*``;
    how many. (The order is the search's own, see :func:`~engine.solver.moves.order_moves`.)"""
    opponent = bxor(current, mask)
    threats = winning_cells(opponent, mask, g)
    safe = andnot(playable_cells(mask, g), shr(threats, 1))
    order = np.zeros((g.cols, 2), dtype=np.int64)
    n = order_moves(current, mask, safe, threats, g, order)
    for k in range(n):
        out_current[k] = opponent
        out_mask[k] = bor(mask, band(safe, column_cells(g, order[k, 0])))
    return n


def _children(current, mask, g) -> list[tuple[np.uint64, np.uint64]]:
    """The positions after the moves that do not lose at once, most promising first, each
    mirror image left out after its twin."""
    out_current = np.zeros(g.cols, dtype=np.uint64)
    out_mask = np.zeros(g.cols, dtype=np.uint64)
    children: list[tuple[np.uint64, np.uint64]] = []
    for k in range(int(safe_moves(current, mask, g, out_current, out_mask))):
        twin = (np.uint64(mirror(out_current[k], g)), np.uint64(mirror(out_mask[k], g)))
        if twin not in children:
            children.append((out_current[k], out_mask[k]))
    return children


def _ask(current, mask, ply: int, value: int, jitter: int, g, table, scratch, stats, flag: StopFlag) -> int:
    """:func:`~engine.solver.negamax.question_kernel`, also for a position whose mover wins at once."""
    low, high = score_range(current, mask, ply, False, g)
    if low == high:
        return int(low)
    return int(question_kernel(current, mask, ply, value, jitter, g, table, scratch, stats, flag.array))


@dataclass
class _Question:
    """One of the questions a batch shares out: "is the score of this position above ``value``?"."""

    current: np.uint64
    mask: np.uint64
    ply: int
    value: int
    flag: StopFlag = field(default_factory=StopFlag)  # set once answered: whoever else is on it stops
    bound: int | None = None
    searchers: int = 0


class _Batch:
    """Questions answered on ``THREADS`` threads until one of them is a "no"."""

    def __init__(self, questions: list[_Question], g, table, scratches) -> None:
        self.questions, self.g, self.table, self.scratches = questions, g, table, scratches
        self.lock = threading.Lock()
        self.waiting = list(questions)  # (taken in the order given: most promising first)
        self.no: _Question | None = None
        self.nodes = 0

    def run(self, flag: StopFlag) -> bool:
        """Answer the questions (``flag`` stops it all); True if they were all answered or one was a "no"."""
        with contextlib.ExitStack() as flags:
            for question in self.questions:
                question.flag = flags.enter_context(flag.deadline(None))
            threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(THREADS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        return self.no is not None or all(question.bound is not None for question in self.questions)

    def _pick(self) -> tuple[_Question | None, bool]:
        """The next question for an idle thread, and whether another thread is on it (under the lock)."""
        if self.no is not None:
            return None, False
        if self.waiting:
            return self.waiting.pop(0), False
        helped = [q for q in self.questions if q.bound is None and q.searchers == 1]
        return (helped[0], True) if helped else (None, False)

    def _work(self, index: int) -> None:
        scratch = self.scratches[index]
        while True:
            with self.lock:
                question, helping = self._pick()
                if question is None:
                    return
                question.searchers += 1
            if helping:  # first the end of its work, which the other thread comes to last
                spent = _help(question, self.g, self.table, scratch, seed=index)
                with self.lock:
                    self.nodes += spent
            stats = new_stats(seed=index)
            jitter = HELPER_JITTER if helping else 0
            bound = _ask(
                question.current, question.mask, question.ply, question.value, jitter,
                self.g, self.table, scratch, stats, question.flag,
            )  # fmt: skip
            with self.lock:
                self.nodes += int(stats[NODES])
                question.searchers -= 1
                if stats[ABORTED] or question.bound is not None:
                    continue
                question.bound = bound
                question.flag.set()  # (the other thread on this question, if any, stops)
                if bound <= question.value and self.no is None:
                    self.no = question
                    for other in self.questions:
                        other.flag.set()


def _help(question: _Question, g, table, scratch, seed: int) -> int:
    """Answer the questions the one another thread is on comes down to, the last first; the nodes searched.

    The other thread meets them first to last, and finds the answers of the last ones in the
    table when it gets there. A "no" means its search takes another way: the help ends.
    """
    done, _, current, mask, ply, flipped = play_forced(question.current, question.mask, question.ply, g)
    if done:
        return 0
    current, mask, ply = np.uint64(current), np.uint64(mask), int(ply)
    if flipped:  # the opponent moves: every move of theirs must leave us above the value
        parts = [(c, m, ply + 1) for c, m in _children(current, mask, g)]
    else:  # our most promising move, and every reply to it
        best_current, best_mask = _children(current, mask, g)[0]
        parts = [(c, m, ply + 2) for c, m in _children(best_current, best_mask, g)]
    nodes = 0
    for c, m, p in reversed(parts[1:]):
        stats = new_stats(seed=seed)
        bound = _ask(c, m, p, question.value, 0, g, table, scratch, stats, question.flag)
        nodes += int(stats[NODES])
        if stats[ABORTED] or bound <= question.value:
            break
    return nodes


def answer(
    current, mask, ply: int, value: int, expect_yes: bool, g, table, scratches, flag: StopFlag, depth: int = 0
) -> tuple[int | None, int]:
    """``(bound, nodes)``: one null-window question ("above ``value``?") on two threads.

    ``bound`` is above ``value`` exactly when the answer is "yes", as for
    :func:`~engine.solver.negamax.question_kernel` (None: ``flag`` stopped it).
    ``expect_yes`` says which answer to try to prove first (either is found in the end).
    """
    done, score, current, mask, ply, flipped = play_forced(current, mask, ply, g)
    if done:
        return int(score), 0
    current, mask = np.uint64(current), np.uint64(mask)  # (numba hands uint64 back as Python ints)
    if not flipped:
        return _answer_quiet(current, mask, int(ply), value, expect_yes, g, table, scratches, flag, depth)
    # The forced moves gave the move to the other side: ask them the opposite question.
    bound, nodes = _answer_quiet(current, mask, int(ply), -value - 1, not expect_yes, g, table, scratches, flag, depth)
    return (None if bound is None else -bound), nodes


def _answer_quiet(
    current, mask, ply: int, value: int, expect_yes: bool, g, table, scratches, flag: StopFlag, depth: int
) -> tuple[int | None, int]:
    """:func:`answer` for a quiet position (two or more moves that do not lose at once)."""
    moves = _children(current, mask, g)
    nodes = 0
    if expect_yes:  # a "yes" by the most promising move: every reply must leave us above value
        best_current, best_mask = moves[0]
        replies = [_Question(c, m, ply + 2, value) for c, m in _children(best_current, best_mask, g)]
        if replies:
            finished, nodes = _until_no(replies, depth, g, table, scratches, flag)
            if not finished:
                return None, nodes
            if _no(replies) is None:
                return min(q.bound for q in replies if q.bound is not None), nodes
    # Each move is asked: does the opponent score at least -value after it?
    refutations = [_Question(c, m, ply + 1, -value - 1) for c, m in moves]
    finished, spent = _until_no(refutations, depth, g, table, scratches, flag)
    nodes += spent
    if not finished:
        return None, nodes
    if (unrefuted := _no(refutations)) is not None and unrefuted.bound is not None:  # a "yes"
        return -unrefuted.bound, nodes
    # Every move refuted (and the ones that lose at once are worse): a "no".
    return max(-q.bound for q in refutations if q.bound is not None), nodes


def _until_no(questions: list[_Question], depth: int, g, table, scratches, flag: StopFlag) -> tuple[bool, int]:
    """Answer ``questions`` until one is a "no"; ``(finished, nodes)`` (not finished: ``flag`` stopped it).

    Near the top (``depth`` below ``SPLIT_DEPTH``) the first, most promising question is asked
    first on both threads, itself split the same way: if there is a "no", it is usually that
    one, and whatever the threads did on the others meanwhile would be work thrown away.
    """
    nodes = 0
    if depth < SPLIT_DEPTH and len(questions) > 1:
        first = questions[0]
        first.bound, nodes = answer(
            first.current, first.mask, first.ply, first.value, True, g, table, scratches, flag, depth + 1
        )
        if first.bound is None or first.bound <= first.value:
            return first.bound is not None, nodes
        questions = questions[1:]
    batch = _Batch(questions, g, table, scratches)
    finished = batch.run(flag)
    return finished, nodes + batch.nodes


def _no(questions: list[_Question]) -> _Question | None:
    """The question answered "no", if any."""
    return next((q for q in questions if q.bound is not None and q.bound <= q.value), None)


def warm_up(g) -> None:
    """Compile (or load) the kernels that share out a question."""
    empty = np.uint64(0)
    play_forced(empty, empty, 0, g)
    _children(empty, empty, g)


def solve_parallel(current, mask, ply: int, weak: bool, g, table, scratches, flag: StopFlag) -> tuple[int | None, int]:
    """``(score, nodes)`` of a position not over, each question on two threads (None: ``flag`` stopped it).

    ``scratches`` are two scratch buffers (see :func:`~engine.solver.arrays.new_scratch`), one for each thread.
    """
    low, high = (int(bound) for bound in score_range(current, mask, ply, weak, g))
    nodes = 0
    proven = None  # the bound the last "yes" gave
    while low < high:
        value = next_question(low, high, ply, g.cols * g.rows)
        # A search proves the bound it returns and usually no more: after "yes, at least b" the
        # question "above b?" is likely a "no".
        bound, spent = answer(current, mask, ply, value, value != proven, g, table, scratches, flag)
        nodes += spent
        if bound is None:
            return None, nodes
        if bound <= value:
            high = bound
        else:
            low = proven = bound
    return low, nodes
