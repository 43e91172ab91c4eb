"""One question on many threads: its answer split into independent questions, shared out.

A solve is a chain of yes/no questions, "is the score above s?" (see
:func:`~engine.solver.negamax.solve_kernel`), and on the openings each of them
is a long search. The threads answer one question together:

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
* **No thread waits, and idle threads split the work for good.** When the list
  is empty, a thread splits the search that has run longest into the questions
  it comes down to: the opponent's moves, or the replies to our most promising
  move. That search stops, its work so far kept in the table, and the threads
  take the parts, most promising first, and split them in turn, down to
  ``PART_LEVELS`` levels. A split question is answered from its parts (all "yes",
  or one "no"), so no thread searches a part another is on. If a reply
  refutes our most promising move, the question is split again by our moves,
  each asked whether it is refuted: one that is not is a "yes". (This replaced
  splitting a question while its thread went on searching it whole: that thread
  met the parts others were on and searched them again, and with 16 threads
  only about 3 had a part to search, the rest searching beside them: the empty
  7x6 board on a 16-core server took 6.2-7.0 s that way, 4.2-4.3 s this way,
  28.9 s on one thread.) Only where
  nothing is left to split does a thread search a question beside another, its
  move order jittered where the opponent moves (see ``jitter`` in
  :func:`~engine.solver.negamax.negamax`), so that they take different ways
  and fill the table for each other. The first to answer stops the others.

The answer is the same as on one thread: only the order of the work changes.
(Measured on the empty 7x6 board, weakly: 15.7 s on one thread, 8.6-9.5 s on
two this way, 11.6-13.4 s with both threads searching every question whole.)

Every board size: the table is shared without locks, and a thread never sees
half of another's entry (see "Threads" in :mod:`engine.solver.table`).
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from engine.kernels.bitops import andnot, band, bor, bxor, shr, store
from engine.kernels.rules import column_cells, playable_cells, winning_cells
from engine.solver.arrays import SolveContext
from engine.solver.moves import order_moves
from engine.solver.negamax import play_forced, question_kernel, score_range
from engine.solver.questions import next_question
from engine.solver.symmetry import mirror
from engine.stats import ABORTED, NODES, new_stats
from engine.stop import StopFlag

#: The jitter of a thread that joins a question another is on (see negamax): random steps where
#: the opponent moves, one and three plies below the question's position, where every move must be
#: searched anyway (the question is expected to be a "yes"), so that they go different ways.
HELPER_JITTER = 1010
#: How many levels deep a question's most promising move is asked on all threads (see _until_no).
SPLIT_DEPTH = 2
#: How many levels down from a batch's questions idle threads split searches (see _Batch._pick).
PART_LEVELS = 8
#: Whether a thread that finds nothing left to split searches beside another (jittered) or leaves.
BESIDE = True


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
        store(out_current, k, opponent)
        store(out_mask, k, bor(mask, band(safe, column_cells(g, order[k, 0]))))
    return n


@njit(cache=True, nogil=True)
def mirror_image(bits, g):
    """:func:`~engine.solver.symmetry.mirror` for the Python side (which cannot call an inlined kernel)."""
    return mirror(bits, g)


def _bits(value):
    """A bitboard a kernel returned (a Python int, or a pair of them on a wide board) as kernels take it."""
    if isinstance(value, (tuple, np.ndarray)) and len(value) == 2:
        return (np.uint64(value[0]), np.uint64(value[1]))
    return np.uint64(value)


def _plain(position: tuple) -> tuple:
    """A ``(current, mask)`` pair as plain Python ints, to compare and hash boards of either kind."""
    return tuple(tuple(int(word) for word in bits) if isinstance(bits, tuple) else int(bits) for bits in position)


def _children(current, mask, g) -> list[tuple]:
    """The positions after the moves that do not lose at once, most promising first, each
    mirror image left out after its twin."""
    wide = isinstance(current, tuple)
    shape = (g.cols, 2) if wide else (g.cols,)
    out_current, out_mask = np.zeros(shape, dtype=np.uint64), np.zeros(shape, dtype=np.uint64)
    children: list[tuple] = []
    seen: set[tuple] = set()
    for k in range(int(safe_moves(current, mask, g, out_current, out_mask))):
        child = (_bits(out_current[k]), _bits(out_mask[k]))
        twin = (_bits(mirror_image(child[0], g)), _bits(mirror_image(child[1], g)))
        if _plain(twin) not in seen:
            seen.add(_plain(child))
            children.append(child)
    return children


def _ask(current, mask, ply: int, value: int, jitter: int, g, ctx: SolveContext) -> int:
    """:func:`~engine.solver.negamax.question_kernel`, also for a position whose mover wins at once."""
    low, high = score_range(current, mask, ply, False, g)
    if low == high:
        return int(low)
    return int(question_kernel(current, mask, ply, value, jitter, g, ctx))


#: How a split question's answer follows from its parts' (see _parts).
EVERY = "every"  # the opponent moves: "yes" when every part is, "no" as soon as one is
BEST = "best"  # the parts are the replies to our most promising move: as EVERY, but a "no" only
# shows that move is not good enough: the question is split again, by moves (ANY)
ANY = "any"  # each part asks whether one of our moves is refuted: "yes" as soon as one is not


@dataclass(eq=False)  # (one question is one object: compared and found by identity)
class _Question:
    """One of the questions a batch shares out: "is the score of this position above ``value``?"."""

    current: np.uint64
    mask: np.uint64
    ply: int
    value: int
    flag: StopFlag = field(default_factory=StopFlag)  # set once answered or dropped: all on it stop
    bound: int | None = None
    parent: _Question | None = None  # the question this one is a part of (None: one of the batch's own)
    #: The threads searching it whole: their own stop flags (a split stops them, not its parts),
    #: and when the first of them started (see _Batch.clock).
    searches: list[StopFlag] = field(default_factory=list)
    since: int = 0
    #: What it was split into, once it was (see _parts; [] when it cannot be), and how.
    parts: list[_Question] | None = None
    kind: str = EVERY
    untaken: list[_Question] = field(default_factory=list)  # parts no thread has taken yet
    best_failed: bool = False  # a BEST split found a "no": split by moves instead

    @property
    def level(self) -> int:
        """How many splits down from the batch's own questions."""
        return 0 if self.parent is None else self.parent.level + 1

    @property
    def searchers(self) -> int:
        """How many threads search it whole."""
        return len(self.searches)


class _Batch:
    """Questions answered on every thread (one per scratch buffer) until one of them is a "no"."""

    def __init__(self, questions: list[_Question], g, table, scratches) -> None:
        self.questions, self.g, self.table, self.scratches = questions, g, table, scratches
        self.lock = threading.Lock()
        self.waiting = list(questions)  # (taken in the order given: most promising first)
        self.no: _Question | None = None
        self.nodes = 0
        self.clock = itertools.count(1)  # orders the searches by when they started
        self.flags = contextlib.ExitStack()  # every question's and part's flag, until the batch ends
        self.stop = StopFlag()

    def run(self, flag: StopFlag) -> bool:
        """Answer the questions (``flag`` stops it all); True if they were all answered or one was a "no"."""
        with self.flags:
            self.stop = flag
            for question in self.questions:
                question.flag = self.flags.enter_context(flag.deadline(None))
            threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(len(self.scratches))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        return self.no is not None or all(question.bound is not None for question in self.questions)

    def _pick(self) -> tuple[_Question | None, bool]:
        """The next question for an idle thread, and whether another thread is on it already (under the lock).

        First the questions no thread has taken, the batch's own, then the parts of split
        questions, level by level, most promising first. Then the thread splits the search that
        has run longest (the least deep first, down to ``PART_LEVELS`` levels): its threads stop
        and take its parts too, so that no part is searched twice (their work so far is in the
        table). Only where nothing is left to split does the thread search beside another.
        """
        if self.no is not None or self.stop.is_set():
            return None, False
        if self.waiting:
            return self.waiting.pop(0), False
        whole: list[_Question] = []  # the open questions threads search whole
        level = [question for question in self.questions if not question.flag.is_set()]
        while level:
            for question in level:
                if question.untaken:
                    return question.untaken.pop(0), False
            whole += (question for question in level if not question.parts and question.searchers > 0)
            level = [part for question in level for part in question.parts or () if not part.flag.is_set()]
        for question in sorted(whole, key=lambda question: (question.level, question.since)):
            if question.level >= PART_LEVELS:
                break
            if question.parts is None and self._split(question):
                for search in question.searches:  # (they stop, and take its parts when they come back)
                    search.set()
                return question.untaken.pop(0), False
        if BESIDE and whole:
            return min(whole, key=lambda question: (question.searchers, -question.level)), True
        return None, False

    def _split(self, question: _Question) -> bool:
        """Give ``question`` its parts (under the lock); False if it cannot be split."""
        question.kind, question.parts = _parts(question, self.g)
        for part in question.parts:
            part.flag = self.flags.enter_context(question.flag.deadline(None))
        question.untaken = list(question.parts)
        return bool(question.parts)

    def _settle(self, question: _Question, bound: int) -> None:
        """``question`` is answered: stop whoever is on it, and answer what follows (under the lock)."""
        question.bound = bound
        question.flag.set()  # (the other threads on this question or its parts, if any, stop)
        no = bound <= question.value
        parent = question.parent
        if parent is None:
            if no and self.no is None:
                self.no = question
                for other in self.questions:
                    other.flag.set()
            return
        if parent.flag.is_set() or not parent.parts:  # (answered or dropped already)
            return
        bounds = [part.bound for part in parent.parts if part.bound is not None]
        answered = len(bounds) == len(parent.parts)
        if parent.kind == ANY:  # a move not refuted answers "yes"; all refuted, "no"
            if no or answered:
                self._settle(parent, -bound if no else max(-each for each in bounds))
        elif no and parent.kind == EVERY:
            self._settle(parent, bound)
        elif no:  # our most promising move is not good enough: ask of each move whether it is refuted
            for part in parent.parts:
                part.flag.set()
            parent.best_failed = True
            self._split(parent)
        elif answered:
            self._settle(parent, min(bounds))

    def _work(self, index: int) -> None:
        scratch = self.scratches[index]
        while True:
            with self.lock:
                question, beside = self._pick()
                if question is None:
                    return
                if not question.searches:
                    question.since = next(self.clock)
                search = contextlib.ExitStack()
                flag = search.enter_context(question.flag.deadline(None))
                question.searches.append(flag)
            stats = new_stats(seed=index)
            jitter = HELPER_JITTER if beside else 0
            ctx = SolveContext(stats, flag.array, self.table, scratch)
            bound = _ask(question.current, question.mask, question.ply, question.value, jitter, self.g, ctx)
            with self.lock:
                search.close()
                question.searches.remove(flag)
                self.nodes += int(stats[NODES])
                if not stats[ABORTED] and not question.flag.is_set():
                    self._settle(question, bound)


def _parts(question: _Question, g) -> tuple[str, list[_Question]]:
    """How ``question`` splits, and the questions it comes down to, in the order a search meets them.

    The opponent moves: every move of theirs must leave us above the value (EVERY). We move:
    every reply to our most promising move must (BEST), or, once that failed, some move of
    ours must not be refuted (ANY: each part asks the opponent's side whether it is).
    """
    low, high = score_range(question.current, question.mask, question.ply, False, g)
    if low == high:  # (decided at once, e.g. the mover wins: play_forced is for the other positions)
        return EVERY, []
    done, _, current, mask, ply, flipped = play_forced(question.current, question.mask, question.ply, g)
    if done:
        return EVERY, []
    current, mask, ply = _bits(current), _bits(mask), int(ply)
    moves = _children(current, mask, g)
    if flipped:
        return EVERY, [_Question(c, m, ply + 1, question.value, parent=question) for c, m in moves]
    if question.best_failed:
        return ANY, _refutations(moves, ply, question.value, question)
    return BEST, _best_replies(moves, ply, question.value, g, question)


def _best_replies(moves: list[tuple], ply: int, value: int, g, parent: _Question | None) -> list[_Question]:
    """After our most promising of ``moves`` (at ``ply``), every reply must leave us above ``value``."""
    best_current, best_mask = moves[0]
    return [_Question(c, m, ply + 2, value, parent=parent) for c, m in _children(best_current, best_mask, g)]


def _refutations(moves: list[tuple], ply: int, value: int, parent: _Question | None) -> list[_Question]:
    """Of each of our ``moves`` (at ``ply``): does the opponent score at least ``-value`` after it?"""
    return [_Question(c, m, ply + 1, -value - 1, parent=parent) for c, m in moves]


def answer(
    current, mask, ply: int, value: int, expect_yes: bool, g, table, scratches, flag: StopFlag, depth: int = 0
) -> tuple[int | None, int]:
    """``(bound, nodes)``: one null-window question ("above ``value``?") on every thread.

    ``bound`` is above ``value`` exactly when the answer is "yes", as for
    :func:`~engine.solver.negamax.question_kernel` (None: ``flag`` stopped it).
    ``expect_yes`` says which answer to try to prove first (either is found in the end).
    """
    done, score, current, mask, ply, flipped = play_forced(current, mask, ply, g)
    if done:
        return int(score), 0
    current, mask = _bits(current), _bits(mask)  # (numba hands uint64 back as Python ints)
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
        replies = _best_replies(moves, ply, value, g, None)
        if replies:
            finished, nodes = _until_no(replies, depth, g, table, scratches, flag)
            if not finished:
                return None, nodes
            if _no(replies) is None:
                return min(q.bound for q in replies if q.bound is not None), nodes
    # Each move is asked: does the opponent score at least -value after it?
    refutations = _refutations(moves, ply, value, None)
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
    first on all threads, itself split the same way: if there is a "no", it is usually that
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
    empty = _bits((0, 0)) if isinstance(g.one, tuple) else np.uint64(0)
    play_forced(empty, empty, 0, g)
    _children(empty, empty, g)


def solve_parallel(current, mask, ply: int, weak: bool, g, table, scratches, flag: StopFlag) -> tuple[int | None, int]:
    """``(score, nodes)`` of a position not over, each question on every thread (None: ``flag`` stopped it).

    ``scratches`` are the threads' scratch buffers (see :func:`~engine.solver.arrays.new_scratch`), one each.
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
