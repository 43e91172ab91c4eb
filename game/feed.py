"""A :class:`Feed`: a job of the analysis process whose snapshots a scene reads each frame.

The live analysis and the game review produce their results bit by bit (an
estimate, then exact values column by column; the moves of a game one after
another). A feed hands each run a fresh :class:`Box` that the
:class:`~game.analysis_process.AnalysisProcess` fills as the child sends
items, and the scene reads the box. Starting a feed again stops the old run
and gives the new run a new box, so a late item of the old run can never be
mistaken for one of the new.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from engine.board import Board
    from game.analysis_process import AnalysisProcess

T = TypeVar("T")


class Box(Generic[T]):
    """What one run has produced so far. Only the process's reader thread appends; list appends are atomic."""

    def __init__(self, key: object) -> None:
        self.key = key
        self.items: list[T] = []
        self.finished = False
        self.error: str | None = None
        self.started = time.perf_counter()

    @property
    def latest(self) -> T | None:
        return self.items[-1] if self.items else None

    @property
    def seconds(self) -> float:
        """Real time since the run was asked for."""
        return time.perf_counter() - self.started


class Feed(Generic[T]):
    """Runs ``job`` ("analyse" or "review") in the analysis process for a key (a position, a game)."""

    def __init__(self, service: AnalysisProcess, job: str) -> None:
        self.service, self.job = service, job
        self.box: Box[T] | None = None

    def start(self, key: object, board: Board) -> None:
        """Run the job on ``board`` for ``key`` unless it already runs (or ran) for it; any other run is stopped."""
        if self.box is not None and self.box.key == key:
            return
        self.box = Box(key)
        self.service.submit(self.job, board, self.box)

    def stop(self) -> None:
        """Stop the run under way and forget it."""
        if self.box is not None and not self.box.finished:
            self.service.cancel(self.box)
        self.box = None
