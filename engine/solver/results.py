"""What every solver answers: the result types of solves, analyses and best moves, without numba.

The plain-Python solver, the search built ahead of time and numba's compiled
:class:`~engine.solver.solver.Solver` all answer in these types (through
:class:`~engine.solver.auto.AutoSolver`), so a caller never cares which one
answered. This module imports neither numba nor numpy, so that a process
answering end games in plain Python never loads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.score import Score


@dataclass(frozen=True)
class Solution:
    """One solve: the exact score (weak: its sign, 1 / 0 / -1), or None if unfinished."""

    score: Score | None
    nodes: int
    seconds: float

    @property
    def finished(self) -> bool:
        return self.score is not None


@dataclass(frozen=True)
class Analysis:
    """The exact score of every column (None: full, or not finished)."""

    scores: tuple[Score | None, ...]
    finished: bool
    nodes: int
    seconds: float


@dataclass(frozen=True)
class BestMove:
    """A best column and its exact score; ``column`` is None if unfinished."""

    column: int | None
    score: Score | None
    nodes: int
    seconds: float
    from_book: bool = False  # the book's stored move (a table hit can take 0 nodes too)

    @property
    def finished(self) -> bool:
        return self.column is not None


@dataclass(frozen=True)
class Ties:
    """The columns proven to score as well as a best move (ascending), and the nodes the proofs took."""

    columns: tuple[int, ...]
    nodes: int
