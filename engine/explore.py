"""The opening explorer: every column's exact value in a position, and the best line from it.

:class:`Explorer` gives the exact score of each legal column from the mover's
side (Pons's convention, as ``solve``), and the best line: a best column (the
centre-most of the equally good), then the best reply, and so on.

The values come from the board's opening book wherever it answers (a stored
position, or one whose every reply is stored: :meth:`Book.value
<engine.solver.book.Book.value>`), which needs neither numba nor a search:
on 7x6 every position of up to 6 stones is explored at once when the book
holds every position of 7 (see docs/solver.md for the plies it holds).
Otherwise the :class:`~engine.solver.auto.AutoSolver` answers (an end game in
plain Python, else the compiled solver), within the caller's limits.

The line follows the book and the plain-Python solver (end games) as far as
they answer; with ``line_nodes`` it goes on with the compiled solver, each
step within that many nodes, up to :data:`LINE_PLIES` plies.

Used by ``python -m engine explore`` and by the game's explorer screen
(through the analysis process, :mod:`engine.analysis_service`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.board import Board
from engine.errors import IllegalMoveError
from engine.geometry import Geometry, centre_order
from engine.limits import NO_LIMITS, Limits
from engine.outcome import outcome
from engine.solver.auto import AutoSolver
from engine.solver.quick import QuickSolver

#: The longest best line followed.
LINE_PLIES = 12


@dataclass(frozen=True)
class ColumnValue:
    """One column of an exploration: 0-based; ``score`` None when the column is full or was not solved."""

    column: int
    score: int | None
    full: bool

    def words(self, board: Board) -> str:
        if self.full:
            return "full"
        if self.score is None:
            return "not solved"
        return outcome(self.score, board.ply, board.geometry).words


@dataclass(frozen=True)
class Exploration:
    """What :meth:`Explorer.explore` found: each column's value, the best line (0-based columns), and
    whether every legal column was solved."""

    board: Board
    columns: tuple[ColumnValue, ...]
    line: tuple[int, ...]
    finished: bool

    @property
    def best(self) -> int | None:
        return self.line[0] if self.line else None

    def to_json(self) -> dict[str, Any]:
        board = self.board
        return {
            "position": board.move_string,
            "cols": board.geometry.cols,
            "rows": board.geometry.rows,
            "connect": board.geometry.connect,
            "columns": [
                {
                    "column": value.column + 1,
                    "score": value.score,
                    "full": value.full,
                    "words": value.words(board),
                    "best": value.column == self.best,
                }
                for value in self.columns
            ],
            "best": None if self.best is None else self.best + 1,
            "line": [col + 1 for col in self.line],
        }


class Explorer:
    """Explorations of positions of one board, with its book and solvers (kept between calls)."""

    def __init__(self, solver: AutoSolver, line_nodes: int = 0) -> None:
        self.solver = solver
        self.geometry: Geometry = solver.geometry
        self.line_nodes = line_nodes
        self._quick = QuickSolver(solver.geometry)

    def explore(self, board: Board, limits: Limits = NO_LIMITS) -> Exploration:
        """Every column's exact value in ``board`` (within ``limits`` for all of them) and the best line.

        A finished game is an :class:`~engine.errors.IllegalMoveError`: there is nothing to explore.
        """
        if board.is_over:
            raise IllegalMoveError("the game is over: there is no move to explore")
        board = board.copy()
        scores = self.solver.book_analysis(board)  # an opening: the book, before the end-game solver tries
        if scores is None:
            analysis = self.solver.analyze(board, limits)
            scores = [None if score is None else int(score.value) for score in analysis.scores]
            if not analysis.finished:
                columns = tuple(ColumnValue(col, None, not board.is_legal(col)) for col in range(self.geometry.cols))
                return Exploration(board, columns, (), False)
        columns = tuple(ColumnValue(col, score, not board.is_legal(col)) for col, score in enumerate(scores))
        return Exploration(board, columns, tuple(self._line(board, scores, limits)), True)

    def _line(self, board: Board, scores: list[int | None], limits: Limits) -> list[int]:
        """The best line from ``board`` whose column ``scores`` are known: as far as each step is answered."""
        line: list[int] = []
        board = board.copy()
        found: list[int | None] | None = scores
        while found is not None and len(line) < LINE_PLIES:
            top = max(score for score in found if score is not None)
            line.append(next(col for col in centre_order(self.geometry.cols) if found[col] == top))
            board.play(line[-1])
            if board.is_over:
                break
            found = self.solver.book_analysis(board) or self._quick.analyze(board)
            if found is None and self.line_nodes:
                best = self.solver.best_move(board, Limits(nodes=self.line_nodes, stop=limits.stop))
                if best.column is not None:
                    found = [1 if col == best.column else None for col in range(self.geometry.cols)]
        return line
