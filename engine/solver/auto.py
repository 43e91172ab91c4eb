"""The one way in for every caller: the quickest solver that can answer, one result type.

Loading numba and its compiled search costs a fresh process about 0.4 s
before the first search, while most positions a pipe or a script asks about
are end games that take microseconds. :class:`AutoSolver` tries three
solvers in turn and says nothing of which one answered:

1. the plain-Python :class:`~engine.solver.quick.QuickSolver` (no numba, no
   numpy: an end game is answered about 0.06 s after the process starts);
2. the first position it cannot finish within its budget goes to the search
   built ahead of time (:mod:`engine.solver.aot`, if ``python -m
   engine.warmup --ahead-of-time`` has built it for this version), which then
   answers the positions after it too, within its own budget;
3. the first position neither can answer loads numba's compiled
   :class:`~engine.solver.solver.Solver` (with the opening book), which goes
   on from the table the ahead-of-time search filled and answers that
   position and every one after it.

A position the plain-Python solver cannot finish is looked up in the opening
book next (a stored one, or one whose every reply is stored), which answers it
without a search and without numba. A call with :class:`~engine.limits.Limits`
(nodes, seconds, a stop flag) otherwise goes to the compiled solver at once:
only it counts nodes for the caller, keeps a clock and stops within 50 ms. Every answer is a
:class:`~engine.solver.results.Solution` or
:class:`~engine.solver.results.Analysis`, whichever solver gave it. The
``solve`` and ``analyze`` commands and the Python API use it::

    from engine import AutoSolver, Board, Limits

    solver = AutoSolver()                        # 7x6, the opening book, a 64 MB table
    solver.solve("4453").score                   # Score.pons(-2)
    solver.analyze(Board.from_moves("4453"), Limits(seconds=5)).scores
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar

from engine.board import Board
from engine.errors import EngineError
from engine.geometry import Geometry
from engine.limits import NO_LIMITS, Limits
from engine.score import Score
from engine.solver import aot, quick
from engine.solver.quick import QuickSolver
from engine.solver.results import Analysis, BestMove, Solution
from engine.solver.settings import DEFAULT_TABLE_MB, checked_table_bits

if TYPE_CHECKING:
    from engine.solver.aot import AheadOfTimeSolver
    from engine.solver.book import Book
    from engine.solver.solver import Solver

T = TypeVar("T")


class AutoSolver:
    """Exact solves and analyses of one geometry by the quickest solver that can answer (see the module).

    ``book=False`` leaves the opening book out (a :class:`~engine.solver.book.Book`
    given here is used instead of the shipped one); ``table_mb`` and ``threads``
    are the compiled solver's (see :class:`~engine.solver.solver.Solver`).
    A table size this machine cannot hold fails here, not at the first
    position that needs it.
    """

    def __init__(
        self,
        geometry: Geometry | None = None,
        *,
        table_mb: float = DEFAULT_TABLE_MB,
        book: bool | Book = True,
        threads: int = 1,
    ) -> None:
        self.geometry = geometry = geometry or Geometry()
        self.table_mb, self.threads, self._use_book = table_mb, threads, book
        checked_table_bits(table_mb, geometry.wide)
        # Asked first: the plain-Python solver, then the one built ahead of time; None once numba's answers.
        budget = aot.QUICK_BUDGET if aot.built(geometry) else quick.BUDGET
        self._quick: QuickSolver | None = QuickSolver(geometry, budget)
        self._ahead: AheadOfTimeSolver | None = None
        self._compiled: Solver | None = None

    # -- public -----------------------------------------------------------------------------
    def solve(self, position: Board | str, limits: Limits = NO_LIMITS, *, weak: bool = False) -> Solution:
        """The exact score of a board or move string (weak: its sign); ``finished=False`` past the limits.

        A bad move string raises :class:`~engine.errors.PositionError`, as
        :meth:`Board.from_moves <engine.board.Board.from_moves>` does.
        """
        started = time.perf_counter()
        quick_board = position if isinstance(position, Board) else self._board_or_none(position)
        if limits == NO_LIMITS and quick_board is not None:
            board = quick_board
            if not board.is_over and board.geometry == self.geometry:
                score = self._quick_answer(board, lambda quick: quick.solve(board, weak=weak))
                if score is not None:
                    typed = Score.sign(score) if weak else Score.pons(score)
                    return Solution(typed, self._quick_nodes(), time.perf_counter() - started)
        known = None if quick_board is None else self._book_value(quick_board)
        if known is not None:  # the opening book's answer: exact, at once, whatever the limits
            return Solution(Score.sign(known) if weak else Score.pons(known), 0, time.perf_counter() - started)
        if isinstance(position, str):
            return self.compiled.solve_moves(position, limits, weak=weak)
        return self.compiled.solve(position, limits, weak=weak)

    def analyze(self, position: Board | str, limits: Limits = NO_LIMITS, *, weak: bool = False) -> Analysis:
        """The exact score of playing each column (None: full; weak: its sign); ``finished=False`` past the limits."""
        board = position if isinstance(position, Board) else Board.from_moves(position, self.geometry)
        started = time.perf_counter()

        def typing(score: int) -> Score:
            return Score.sign((score > 0) - (score < 0)) if weak else Score.pons(score)

        if limits == NO_LIMITS and not board.is_over and board.geometry == self.geometry:
            scores = self._quick_answer(board, lambda quick: quick.analyze(board))
            if scores is not None:
                typed = tuple(None if score is None else typing(score) for score in scores)
                return Analysis(typed, True, self._quick_nodes(), time.perf_counter() - started)
        known = self.book_analysis(board)
        if known is not None:  # every column from the opening book: exact, at once, whatever the limits
            typed = tuple(None if score is None else typing(score) for score in known)
            return Analysis(typed, True, 0, time.perf_counter() - started)
        return self.compiled.analyze(board, limits, weak=weak)

    def best_move(self, position: Board | str, limits: Limits = NO_LIMITS) -> BestMove:
        """A best column (the centre-most of the equal ones) and its exact score; ``finished=False`` past
        the limits. The quicker solvers give no column: the compiled solver (with the book) answers."""
        board = position if isinstance(position, Board) else Board.from_moves(position, self.geometry)
        return self.compiled.best_move(board, limits)

    def book_analysis(self, board: Board) -> list[int | None] | None:
        """Every column's exact score (None: full) from the opening book alone, or None where it misses one.

        A column is answered by a win at once, a full board, or the book's value
        of the position after it (:meth:`Book.value <engine.solver.book.Book.value>`:
        stored, or every reply stored): no search, and neither numba nor a table.
        """
        if board.is_over or board.geometry != self.geometry or self.book is None:
            return None
        if board.ply > self.book.deepest_ply:
            return None
        scores: list[int | None] = []
        for col in range(self.geometry.cols):
            if not board.is_legal(col):
                scores.append(None)
            elif board.is_winning_move(col):
                scores.append(self.geometry.win_score(board.ply + 1))
            else:
                board.play(col)
                child = 0 if board.is_over else self.book.value(board)
                board.undo()
                if child is None:
                    return None
                scores.append(-child)
        return scores

    def _book_value(self, board: Board) -> int | None:
        """The book's exact score of ``board`` (a game not over, of this geometry), or None."""
        if board.is_over or board.geometry != self.geometry or self.book is None:
            return None
        if board.ply > self.book.deepest_ply:
            return None
        return self.book.value(board)

    @cached_property
    def book(self) -> Book | None:
        """The opening book of the board (None with ``book=False`` or none shipped), loaded on first use."""
        from engine.solver.book import load_default

        if self._use_book is True:
            return load_default(self.geometry)
        return self._use_book or None

    @property
    def compiled(self) -> Solver:
        """Numba's compiled solver, loaded on first use; from then on the quicker ones are not asked."""
        if self._compiled is None:
            from engine.solver.solver import Solver  # (numba: loaded only when a position needs it)

            # It goes on from what the search built ahead of time proved, if that one was asked.
            table = None if self._ahead is None else self._ahead.table
            self._compiled = Solver(self.geometry, self.table_mb, book=self.book, threads=self.threads, table=table)
            self._quick = None
        return self._compiled

    # -- the quicker solvers ------------------------------------------------------------------
    def _board_or_none(self, moves: str) -> Board | None:
        """The board of a move string, or None: the compiled solver then says what is wrong with it."""
        try:
            return Board.from_moves(moves, self.geometry)
        except EngineError:
            return None

    def _quick_nodes(self) -> int:
        return 0 if self._quick is None else self._quick.nodes

    def _quick_answer(self, board: Board, ask: Callable[[QuickSolver], T | None]) -> T | None:
        """What ``ask`` gets from the plain-Python solver, else from the search built ahead of time
        (which then answers the positions after it), else None: the compiled solver must answer."""
        while self._quick is not None:
            if self._quick is self._ahead and self._in_book(board):
                return None  # (numba's solver has the book)
            answer = ask(self._quick)
            if answer is not None:
                return answer
            self._quick = None if self._quick is self._ahead else self._load_ahead_of_time()
        return None

    def _load_ahead_of_time(self) -> AheadOfTimeSolver | None:
        """The solver built ahead of time (engine.solver.aot), if this version has one for this board."""
        if self.geometry.wide:
            return None
        module = aot.load()  # (numpy: loaded only when a position needs more than plain Python)
        if module is not None:
            self._ahead = aot.AheadOfTimeSolver(self.geometry, module, self.table_mb)
        return self._ahead

    def _in_book(self, board: Board) -> bool:
        """Does the opening book (if one is used) hold ``board`` or a position one move on?"""
        if self.book is None or board.ply > self.book.deepest_ply:
            return False
        if self.book.entry(board) is not None:
            return True
        for col in board.legal_columns():
            board.play(col)
            try:
                if self.book.entry(board) is not None:
                    return True
            finally:
                board.undo()
        return False
