"""A :class:`Feed`: a generator of snapshots run on a background worker, read by the main thread each frame.

The live analysis and the game review produce their results bit by bit (an
estimate, then exact values column by column; the moves of a game one after
another). The worker's one-reply-per-request protocol is made for answers;
a feed instead hands the generator a fresh :class:`Box` that it appends to,
and the scene reads the box. Starting a feed again cancels the old run
(the worker sets its stop flag) and gives the new run a new box, so a late
item of the old run can never be mistaken for one of the new.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from engine.stop import StopFlag
from game.worker import Worker, describe_exception

T = TypeVar("T")


class Box(Generic[T]):
    """What one run has produced so far. Only the run's thread appends; list appends are atomic."""

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
    """Runs ``make(stop)`` on ``worker`` for a key (a position, a game) and keeps what it yields."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.box: Box[T] | None = None

    def start(self, key: object, make: Callable[[StopFlag], Iterator[T]]) -> None:
        """Run ``make`` for ``key`` unless it already runs (or ran) for it; any other run is cancelled."""
        if self.box is not None and self.box.key == key:
            return
        box: Box[T] = Box(key)
        self.box = box

        def job(stop: StopFlag) -> None:
            try:
                for item in make(stop):
                    if stop.is_set():
                        return
                    box.items.append(item)
            except Exception as exc:  # shown by the scene; the worker and the game go on
                box.error = describe_exception(exc)
            finally:
                box.finished = True

        self.worker.submit(job)

    def stop(self) -> None:
        """Cancel the run under way and forget it."""
        if self.box is not None and not self.box.finished:
            self.worker.cancel()
        self.box = None
