"""The :class:`Solver`: exact scores of positions, for people and programs.

It owns a transposition table (kept between calls: its keys are exact, so
what it learnt about one position is sound for the next), an optional
opening book, and runs the kernels of :mod:`engine.solver.negamax`. Every
call may be limited by a node budget, a time limit or a
:class:`~engine.stop.StopFlag`, as one :class:`~engine.limits.Limits`, its second argument; a
search that hits one reports ``finished=False`` and no score, never a guess. It answers in the result types of
:mod:`engine.solver.results`, as every solver does (:class:`~engine.solver.auto.AutoSolver`
picks the quickest one for a caller).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from engine.board import Board
from engine.errors import GeometryError, IllegalMoveError, ValueRangeError
from engine.geometry import Geometry, KernelBits, centre_order
from engine.limits import NO_LIMITS, Limits
from engine.score import Score
from engine.solver.arrays import SolveContext, new_scratch, new_table
from engine.solver.book import Book, BookError
from engine.solver.negamax import at_most_kernel, question_kernel, solve_kernel
from engine.solver.parallel import solve_parallel
from engine.solver.parallel import warm_up as warm_up_parallel
from engine.solver.replay import replay, solve_replays
from engine.solver.results import Analysis, BestMove, Solution, Ties
from engine.solver.settings import DEFAULT_TABLE_MB, checked_table_bits
from engine.stats import ABORTED, NO_LIMIT, NODE_LIMIT, NODES, new_stats
from engine.stop import StopFlag

#: With more than one thread, a solve shares its work between them once one thread has searched
#: this many nodes without an answer (about 0.3 s): starting threads costs more than short solves take.
PARALLEL_AFTER_NODES = 1_500_000


def game_over_score(board: Board) -> int:
    """The score of a finished game, from the view of the side that would move.

    The last stone (the ``ply``-th) won for the opponent, or filled the board.
    """
    if board.winner is None:
        return 0
    return -board.geometry.win_score(board.ply)


def win_now_score(board: Board) -> int:
    """The score of winning with the next stone (the ``ply + 1``-th)."""
    return (board.geometry.cells + 1 - board.ply) // 2


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


def _typed(score: int | None, weak: bool = False) -> Score | None:
    """A kernel's integer as a typed :class:`~engine.score.Score` (a sign when ``weak``), None kept."""
    if score is None:
        return None
    return Score.sign(score) if weak else Score.pons(score)


class _Run:
    """One limited search: a node counter shared by its kernel calls, and its stop flag."""

    def __init__(self, nodes: int, flag: StopFlag) -> None:
        self.stats = new_stats(nodes or NO_LIMIT)  # (Limits.node_budget: 0 is none)
        self.flag = flag
        self.start = time.perf_counter()

    @property
    def aborted(self) -> bool:
        return bool(self.stats[ABORTED])

    @property
    def nodes(self) -> int:
        return int(self.stats[NODES])

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start


#: The flag of searches without a time limit or stop flag: nobody ever sets it.
_NEVER = StopFlag()


class Solver:
    """Exact solving of positions of one geometry, with a reusable table.

    ``book`` (an opening :class:`~engine.solver.book.Book` of the same
    geometry) answers the positions it holds without a search. With
    ``threads`` above 1 a long solve runs on that many threads sharing the
    table (see :mod:`engine.solver.parallel`); node limits keep it on one. A
    ``table`` the same kernels filled for this geometry (the search built ahead
    of time hands its own over: :mod:`engine.solver.aot`) is used instead of a
    new one of ``table_mb``.
    """

    def __init__(
        self,
        geometry: Geometry,
        table_mb: float = DEFAULT_TABLE_MB,
        book: Book | None = None,
        threads: int = 1,
        table: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        if book is not None and book.geometry != geometry:
            raise BookError(f"the book is for {book.geometry}, not {geometry}")
        self.geometry = geometry
        self.book = book
        self.table = new_table(checked_table_bits(table_mb, geometry.wide), geometry.wide) if table is None else table
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueRangeError(f"threads must be a whole number from 1 up, not {threads!r}")
        self.threads = threads
        self._scratch = new_scratch(geometry)
        # Long solves may run on several threads, one scratch buffer each (see engine.solver.parallel).
        self._scratches = (self._scratch, *(new_scratch(geometry) for _ in range(threads - 1))) if threads > 1 else None
        self._live: _Run | None = None  # the run under way, whose node counter other threads may read

    @property
    def live_nodes(self) -> int:
        """Nodes searched so far by the call under way (0 when idle): safe to read from any thread."""
        run = self._live
        return 0 if run is None else run.nodes

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) every kernel the solver uses, in milliseconds after that.

        Each kernel runs on the empty board with a node limit that stops it at
        its first look at the limit; the table keeps nothing wrong (it never
        stores a stopped search).
        """
        empty = self.geometry.to_kernel(0)
        kernels: list[tuple[Any, tuple[int, ...]]] = [(solve_kernel, (False,)), (at_most_kernel, (0,))]
        if self._scratches is not None:
            kernels.append((question_kernel, (0, 0)))  # (the value asked, the jitter)
            warm_up_parallel(self.geometry.kernel)
        for kernel, arguments in kernels:
            run = _Run(1, _NEVER)
            kernel(empty, empty, 0, *arguments, self.geometry.kernel, self._context(run))

    def reset(self) -> None:
        """Forget everything the table learnt."""
        for array in self.table:
            array.fill(0)

    # -- public entry points ------------------------------------------------------------
    def solve(self, board: Board, limits: Limits = NO_LIMITS, *, weak: bool = False) -> Solution:
        """Solve ``board`` within ``limits`` (weak: only the sign of its score)."""
        with self._run(board, limits) as run:
            return Solution(_typed(self._score(board, run, weak), weak), run.nodes, run.seconds)

    def solve_moves(self, moves: str, limits: Limits = NO_LIMITS, *, weak: bool = False) -> Solution:
        """:meth:`solve` for a move string: the fast way through many positions.

        A bad string raises :class:`~engine.errors.PositionError` as
        :meth:`Board.from_moves <engine.board.Board.from_moves>` does.
        """
        position = replay(moves, self.geometry) if self.book is None else None
        if position is None:
            return self.solve(Board.from_moves(moves, self.geometry), limits, weak=weak)
        with self._limits(limits) as run:
            score = self._search(*position, run, weak)
            if score is not None and weak:
                score = sign(score)
            return Solution(_typed(score, weak), run.nodes, run.seconds)

    def solve_many(self, texts: list[str], *, weak: bool = False) -> list[Solution]:
        """:meth:`solve_moves` of every move string, without limits, in one kernel call where it can.

        For bulk work: an end-game position takes a few microseconds, less than a call from
        Python costs. A string the kernel does not take (a bad one, a finished game, or any
        when a book is loaded) goes through :meth:`solve_moves`, which raises for a bad one.
        """
        if self.book is not None:
            return [self.solve_moves(text, weak=weak) for text in texts]
        run = _Run(0, _NEVER)
        rows = solve_replays(texts, weak, self.geometry, self._context(run))
        typed: dict[int, Score | None] = {}  # (one Score per value: making one costs as much as a small solve)
        solutions = []
        for text, (playing, score, nodes, nanoseconds) in zip(texts, rows.tolist(), strict=True):
            if not playing:
                solutions.append(self.solve_moves(text, weak=weak))
                continue
            value = sign(score) if weak else score
            if value not in typed:
                typed[value] = _typed(value, weak)
            solutions.append(Solution(typed[value], nodes, nanoseconds / 1e9))
        return solutions

    def analyze(self, board: Board, limits: Limits = NO_LIMITS, *, weak: bool = False) -> Analysis:
        """The exact score of playing each column (weak: its sign); the limits hold for all columns together."""
        with self._run(board, limits) as run:
            scores: list[Score | None] = [None] * self.geometry.cols
            for col in board.legal_columns():
                scores[col] = _typed(self._column_score(board, col, run, weak), weak)
                if run.aborted:
                    return Analysis(tuple([None] * self.geometry.cols), False, run.nodes, run.seconds)
            return Analysis(tuple(scores), True, run.nodes, run.seconds)

    def best_move(self, board: Board, limits: Limits = NO_LIMITS) -> BestMove:
        """A column of best exact score: the centre-most of the equally good ones.

        A higher score is already a faster win or a slower loss, so "best
        score, then nearest the centre" is the whole rule. Cheaper than
        :meth:`analyze`: one solve, then one null-window test per column
        until a column reaches the score.
        """
        if board.is_over:
            raise IllegalMoveError("the game is over: there is no move to choose")
        if self.book is not None and (entry := self.book.entry(board)) is not None and entry.column is not None:
            return BestMove(entry.column, Score.pons(entry.score), 0, 0.0, from_book=True)
        with self._run(board, limits) as run:
            score = self._score(board, run, weak=False)
            if score is None:
                return BestMove(None, None, run.nodes, run.seconds)
            for col in centre_order(self.geometry.cols):
                if not board.is_legal(col):
                    continue
                if self._column_reaches(board, col, score, run):
                    return BestMove(col, Score.pons(score), run.nodes, run.seconds)
                if run.aborted:
                    break
            return BestMove(None, None, run.nodes, run.seconds)

    def tied_columns(self, board: Board, best: BestMove, limits: Limits = NO_LIMITS, *, search: bool = True) -> Ties:
        """Every column proven to score as well as ``best`` (a finished :meth:`best_move` of ``board``), ascending.

        A column counts only once proven: with ``search`` by one null-window
        test each (the book and the end of the game answer some at once), all
        within ``limits``; without, only where the
        book holds every position one reply after the column, so that a
        player of the book who takes it is still in its book at its next
        move. A column not settled is left out: the answer is always a set of
        best moves, ``best.column`` among them, and no larger than the truth.
        """
        assert best.column is not None and best.score is not None, "tied_columns needs a finished best move"
        score, tied = int(best.score.value), {best.column}
        with self._run(board, limits) as run:
            for col in board.legal_columns():
                if col in tied:
                    continue
                if self._column_reaches(board, col, score, run) if search else self._book_reaches(board, col, score):
                    tied.add(col)
            return Ties(tuple(sorted(tied)), run.nodes)

    # -- the pieces -------------------------------------------------------------------------
    @contextmanager
    def _run(self, board: Board, limits: Limits) -> Iterator[_Run]:
        if board.geometry != self.geometry:
            raise GeometryError(f"this solver is for {self.geometry}, not {board.geometry}")
        with self._limits(limits) as run:
            yield run

    @contextmanager
    def _limits(self, limits: Limits) -> Iterator[_Run]:
        if limits.seconds is None and limits.stop is None:
            yield _Run(limits.node_budget, _NEVER)  # no timer to start: the common case of solving many positions
            return
        with (limits.stop or StopFlag()).deadline(limits.seconds) as flag:
            self._live = run = _Run(limits.node_budget, flag)
            try:
                yield run
            finally:
                self._live = None

    def _score(self, board: Board, run: _Run, weak: bool) -> int | None:
        """The exact score (or sign) of ``board``, or None if the run was stopped."""
        if board.is_over:
            score = game_over_score(board)
        elif (known := self._book_score(board)) is not None:
            score = known
        else:
            current, mask = board.kernel_state()
            found = self._search(current, mask, board.ply, run, weak)
            if found is None:
                return None
            score = found
        return sign(score) if weak else score

    def _search(self, current: KernelBits, mask: KernelBits, ply: int, run: _Run, weak: bool) -> int | None:
        """The kernel's score of a position still going on, or None if the run was stopped."""
        parallel = self._scratches is not None and run.stats[NODE_LIMIT] == NO_LIMIT
        if parallel:  # one thread first, up to a node count (the run's count goes on across solves)
            run.stats[NODE_LIMIT] = run.stats[NODES] + PARALLEL_AFTER_NODES
        try:
            score = solve_kernel(current, mask, ply, weak, self.geometry.kernel, self._context(run))
        finally:
            if parallel:
                run.stats[NODE_LIMIT] = NO_LIMIT  # (else the next solve of this run would start already over it)
        if not parallel or not run.aborted:
            return None if run.aborted else int(score)
        if run.flag.is_set():
            return None
        run.stats[ABORTED] = 0  # (the table kept only finished results: it goes on from them)
        found, nodes = solve_parallel(
            current, mask, ply, weak, self.geometry.kernel, self.table, self._scratches, run.flag
        )
        run.stats[NODES] += nodes
        return found

    def _context(self, run: _Run) -> SolveContext:
        """What every search kernel takes last (after the position and the geometry)."""
        return SolveContext(run.stats, run.flag.array, self.table, self._scratch)

    def _column_score(self, board: Board, col: int, run: _Run, weak: bool = False) -> int | None:
        """The exact score of playing ``col`` (legal), from the mover's view (weak: its sign)."""
        if board.is_winning_move(col):
            return 1 if weak else win_now_score(board)
        board.play(col)
        try:
            child = self._score(board, run, weak)
        finally:
            board.undo()
        return None if child is None else -child

    def _column_reaches(self, board: Board, col: int, score: int, run: _Run) -> bool:
        """Does playing ``col`` score ``score`` (no column scores more)?"""
        if board.is_winning_move(col):
            return win_now_score(board) == score
        board.play(col)
        try:
            known = game_over_score(board) if board.is_over else self._book_score(board)
            if known is not None:
                return -known == score
            current, mask = board.kernel_state()
            # No column beats the best: -child <= score, so equality is child <= -score.
            reaches = at_most_kernel(current, mask, board.ply, -score, self.geometry.kernel, self._context(run))
            return bool(reaches) and not run.aborted
        finally:
            board.undo()

    def _book_reaches(self, board: Board, col: int, score: int) -> bool:
        """Does playing ``col`` score ``score``, as the positions the book holds one reply later show?"""
        if board.is_winning_move(col):
            return win_now_score(board) == score
        assert self.book is not None
        board.play(col)
        try:
            best = None  # the reply's best value, from the replying side's view
            for reply in board.legal_columns():
                if board.is_winning_move(reply):
                    value = win_now_score(board)
                else:
                    board.play(reply)
                    known = game_over_score(board) if board.is_over else self.book.score(board)
                    board.undo()
                    if known is None:
                        return False
                    value = -known
                best = value if best is None else max(best, value)
            return -(best if best is not None else game_over_score(board)) == score
        finally:
            board.undo()

    def _book_score(self, board: Board) -> int | None:
        """The book's score of ``board`` (its entry or one ply of look-ahead: :meth:`Book.value`)."""
        if self.book is None:
            return None
        return self.book.value(board)
