"""A live analysis of a position: every column's value, estimates first, exact values as they come.

:meth:`Analyst.analyze` is a generator of ever better :class:`PositionAnalysis`
snapshots, in three stages:

1. **book** (at once): a move that wins now, a move that fills the board, and
   the children the opening book holds are exact without any search;
2. **estimate** (a fraction of a second): alpha-beta with the threats
   evaluation gives every column a value; forced wins and losses it finds are
   exact, the rest are estimates;
3. **solve**: the solver replaces the estimates one column at a time, the
   most promising first. Early positions take long here; every snapshot
   says which column is being solved. The stage is bounded, as the review
   is (:data:`SOLVE_SECONDS` in all, a third of it a column): an early 8x8
   position would otherwise keep a core busy for hours. A column not solved
   in its time keeps its estimate, and the last snapshot is ``unsolved``
   instead of ``done``.

The whole generator stops within the solver's 50 ms once ``stop`` is set,
so a caller that sees the position change sets the flag and starts again.
The caller decides where it runs (the game uses a background thread of low
priority) and what to do with each snapshot.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from engine.agents.registry import create_agent
from engine.agents.search import pons_score, proven_plies
from engine.board import Board
from engine.errors import EngineError, ValueRangeError
from engine.geometry import Geometry
from engine.limits import Limits
from engine.score import Score
from engine.solver.auto import AutoSolver
from engine.solver.book import Book, BookError, load_default
from engine.solver.solver import win_now_score
from engine.stop import StopFlag

#: Seconds of alpha-beta for the first estimate.
ESTIMATE_SECONDS = 0.25
#: The search behind estimates: every column's value (no pruning between root moves), 8 plies, threats evaluation.
ESTIMATE_SPEC = "alphabeta:columns=true,eval=threats,depth=8,seconds={seconds:g}"
#: Heuristic values are squashed into (-1, 1) by tanh(value / SCALE): a strong threat (200) is about 0.76.
ESTIMATE_SCALE = 200.0
#: Table of the analysis' own solver (the players have their own).
TABLE_MB = 32
#: Seconds the solve stage may take in all; then the columns still unsolved keep their estimates.
SOLVE_SECONDS = 30.0
#: The share of those seconds one column may take (so that one hard column leaves time for the others).
COLUMN_SHARE = 1 / 3
#: An analysis' limits unless its caller gives others: the solve stage's seconds.
ANALYSIS_LIMITS = Limits(seconds=SOLVE_SECONDS)


class Stage(str, Enum):
    """How far an analysis got (a ``str``, so that a snapshot travels as JSON as it is)."""

    BOOK = "book"  # wins now, full columns and the opening book: at once
    ESTIMATE = "estimate"  # alpha-beta's values, exact where it proves them
    SOLVE = "solve"  # the solver replaces the estimates, one column at a time
    DONE = "done"  # every value exact
    UNSOLVED = "unsolved"  # the solve stage ran out of time: the estimates left stay


@dataclass(frozen=True)
class PositionAnalysis:
    """One snapshot: a value per column (None for a full column) and how far the analysis got.

    A value is for the side to move: an exact Pons :class:`~engine.score.Score`,
    or an estimate whose value lies in (-1, 1) (a heuristic squashed by tanh;
    positive when the move looks good for the mover). In the ``book`` stage a
    column the book does not know holds ``Score.estimate(0.0)``: nothing known yet.
    """

    values: tuple[Score | None, ...]
    stage: Stage
    seconds: float  # since the analysis started
    solving: int | None = None  # the column the solver works on now

    @property
    def finished(self) -> bool:
        """Every value is exact (the solve stage ended before its time was up)."""
        return self.stage is Stage.DONE

    @property
    def ended(self) -> bool:
        """Nothing more is coming: every value is exact, or the solve stage ran out of time."""
        return self.stage in (Stage.DONE, Stage.UNSOLVED)

    @property
    def exact_count(self) -> int:
        """How many of the playable columns have an exact value."""
        return sum(1 for value in self.values if value is not None and value.is_exact)

    @property
    def playable(self) -> int:
        return sum(1 for value in self.values if value is not None)

    @property
    def best_columns(self) -> tuple[int, ...]:
        """The columns that are best on what is known: the highest exact score once all are exact,
        else the highest estimate (an exact win counts above any estimate, an exact loss below)."""
        ranked = {col: _rank(value) for col, value in enumerate(self.values) if value is not None}
        if not ranked:
            return ()
        top = max(ranked.values())
        return tuple(col for col, rank in ranked.items() if rank == top)


def _rank(value: Score) -> float:
    """One scale for exact scores and estimates: exact wins above 1, exact losses below -1."""
    if value.is_exact:
        return 0.0 if value.value == 0 else math.copysign(1 + abs(value.value), value.value)
    return float(value.value)


class Analyst:
    """Analyzes positions of one board size; keeps its solver (and what its table learnt) between them.

    ``threads``: how many threads a long solve shares its work between (see engine.solver.parallel).
    """

    def __init__(
        self,
        geometry: Geometry,
        *,
        table_mb: float = TABLE_MB,
        book: Book | bool | None = True,
        estimate_seconds: float = ESTIMATE_SECONDS,
        threads: int = 1,
    ) -> None:
        if book is True:
            try:
                book = load_default(geometry)
            except BookError:  # a damaged book: the solver answers alone, only slower
                book = None
        self.geometry = geometry
        self.book: Book | None = book or None
        # The solver's one way in (with limits, always numba's compiled solver, whose table lasts).
        self.solver = AutoSolver(geometry, table_mb=table_mb, book=self.book or False, threads=threads)
        self._solver_ready = False  # its kernels loaded (the first solve of a process loads them: seconds)
        self._estimator = create_agent(ESTIMATE_SPEC.format(seconds=estimate_seconds))

    def analyze(self, board: Board, limits: Limits = ANALYSIS_LIMITS) -> Iterator[PositionAnalysis]:
        """Snapshots of ``board``'s column values, better each time; the last one has stage ``done``, or
        ``unsolved`` when the solve stage used the limits' ``seconds`` (each column at most a third of
        them) before every column was exact (None: no bound).

        Ends early (with neither) once the limits' ``stop`` is set. An analysis counts no nodes.
        """
        if board.geometry != self.geometry:
            raise EngineError(f"this analysis is for {self.geometry}, not {board.geometry}")
        if limits.nodes is not None:
            raise ValueRangeError("an analysis has no node budget: give it seconds")
        stop, seconds = limits.stop or StopFlag(), limits.seconds
        start = time.perf_counter()
        board = board.copy()
        values: list[Score | None] = [None] * self.geometry.cols
        if board.is_over:
            yield PositionAnalysis(tuple(values), Stage.DONE, 0.0)
            return

        def snapshot(stage: Stage, solving: int | None = None) -> PositionAnalysis:
            return PositionAnalysis(tuple(values), stage, time.perf_counter() - start, solving)

        unknown = Score.estimate(0.0)  # a placeholder until the estimate: "no idea yet"
        for col in board.legal_columns():
            known = self._known_score(board, col)
            values[col] = unknown if known is None else Score.pons(known)
        yield snapshot(Stage.BOOK)
        if stop.is_set():
            return

        if any(not value.is_exact for value in values if value is not None):
            self._estimate(board, values, stop)
            if stop.is_set():
                return
            yield snapshot(Stage.ESTIMATE)

        order = sorted(
            (col for col, value in enumerate(values) if value is not None and not value.is_exact),
            key=lambda col: -_rank(values[col]),  # type: ignore[arg-type]
        )
        if order and not self._solver_ready:  # loading the kernels is not solving: the clock starts after it
            self.solver.compiled.warm_up()
            self._solver_ready = True
        deadline = None if seconds is None else time.perf_counter() + seconds
        unsolved = False
        for col in order:
            limit = None
            if seconds is not None and deadline is not None:
                limit = min(deadline - time.perf_counter(), seconds * COLUMN_SHARE)
                if limit <= 0:
                    unsolved = True
                    break
            yield snapshot(Stage.SOLVE, col)
            board.play(col)
            try:
                solution = self.solver.solve(board, Limits(seconds=limit, stop=stop))
            finally:
                board.undo()
            if stop.is_set():
                return
            if not solution.finished:  # out of time: this column keeps its estimate
                unsolved = True
                continue
            values[col] = Score.pons(-int(solution.score.value))  # type: ignore[union-attr]
        yield snapshot(Stage.UNSOLVED if unsolved else Stage.DONE)

    def _known_score(self, board: Board, col: int) -> int | None:
        """The exact score of ``col`` if it needs no search: a win now, a full board, or a book entry."""
        if board.is_winning_move(col):
            return win_now_score(board)
        board.play(col)
        try:
            if board.is_over:
                return 0  # the last cell, and no win: a draw
            if self.book is not None and (child := self.book.score(board)) is not None:
                return -child
        finally:
            board.undo()
        if self.book is not None and (entry := self.book.entry(board)) is not None and entry.column == col:
            return entry.score
        return None

    def _estimate(self, board: Board, values: list[Score | None], stop: StopFlag) -> None:
        """Fill in the unknown columns with a short alpha-beta's values (exact where it proves them)."""
        result = self._estimator.choose(board, Limits(stop=stop))
        for col, found in enumerate(result.column_scores or ()):
            value = values[col]
            if found is None or value is None or value.is_exact:
                continue
            if found.is_exact:
                values[col] = found
            elif (proven := _forced_score(int(found.value), self.geometry)) is not None:
                values[col] = Score.pons(proven)
            else:
                values[col] = Score.estimate(math.tanh(found.value / ESTIMATE_SCALE))


def _forced_score(raw: int, geometry: Geometry) -> int | None:
    """Pons's score of an alpha-beta value that is a forced win or loss, else None (a heuristic)."""
    return None if proven_plies(raw, 0, geometry) is None else pons_score(raw, geometry)
