"""The background thread that runs the agents, so that the window never waits.

There is exactly one worker thread: a :class:`~game.jobs.Runner` for the
lanes of :mod:`game.jobs`. The main thread (the only one that touches
pygame) asks a lane for a move - a :class:`~game.jobs.Job` whose work is a
function of the job - and looks at the lane once per frame. A newer request
on the lane cancels the older one: its :class:`~engine.stop.StopFlag` is set
(the engine promises to stop within 50 ms), a cancelled job still queued is
skipped, and the late answer of one under way lands in a job nobody reads, so
a stale move can never land on a board it was not computed for.

All calls into agents go through this one thread, in order, including
``new_game`` and ``close`` (:meth:`Worker.run_later`): an agent object is
never used by two threads at once.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game import heap
from game.jobs import Job

#: Niceness of the thread that runs the players' searches (the analysis process, below it, has 19).
PLAYER_NICENESS = 10


def lower_priority(native_id: int | None = None) -> None:
    """Let the calling thread (or the thread or child process ``native_id``) give way to the window's thread.

    On Linux a thread has its own nice value, so the search runs at full speed
    on a free core but never delays a frame on a busy one. (Elsewhere the
    call would lower the whole process, so it is left alone.)
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, native_id or threading.get_native_id(), PLAYER_NICENESS)


def describe_exception(exc: BaseException) -> str:
    """``Type: message (file.py, line N)``: enough to find the bug, short enough for the screen.

    An :class:`~engine.errors.EngineError` (bad input) or :class:`~engine.errors.AgentFailure` (a student's
    agent that forfeited names the student's own file and line) is a message for people: it is shown as it
    is, without our file and line.
    """
    from engine.errors import AgentFailure, EngineError

    if isinstance(exc, (EngineError, AgentFailure)) and str(exc):
        return str(exc)
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        text += f" ({Path(last.filename).name}, line {last.lineno})"
    return text


class Worker:
    """One daemon thread running jobs in order, and chores between them."""

    def __init__(self, name: str = "agent-worker") -> None:
        heap.keep_large_blocks_apart()  # the agents' tables, freed with their match, go back to the system
        self._queue: queue.SimpleQueue[tuple[Job[Any], Callable[[Job[Any]], Any]] | Callable[[], Any] | None]
        self._queue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._unfinished: set[Job[Any]] = set()  # queued or running: stopped when the worker closes
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # -- the main thread's side -------------------------------------------------
    def start(self, job: Job[Any], work: Callable[[Job[Any]], Any]) -> None:
        """Run ``work(job)`` on the worker thread after what is queued; it reads ``job.stop``."""
        from engine.stop import StopFlag  # here, so that the first frame does not wait for numpy

        job.stop = StopFlag()
        with self._lock:
            self._unfinished.add(job)
        self._queue.put((job, work))

    def cancel(self, job: Job[Any]) -> None:
        """Nothing more to do: the job's stop flag is set, and a queued job is skipped."""

    def run_later(self, chore: Callable[[], Any]) -> None:
        """Run ``chore()`` on the worker thread after what is queued (e.g. ``agent.new_game``)."""
        self._queue.put(chore)

    def close(self, timeout: float = 0.2) -> None:
        """Stop every job and let the thread end (it is a daemon: quitting never waits long)."""
        with self._lock:
            unfinished, self._unfinished = self._unfinished, set()
        for job in unfinished:
            job.cancel()
        self._queue.put(None)
        self._thread.join(timeout)

    # -- the worker thread's side -----------------------------------------------
    def _run(self) -> None:
        lower_priority()
        while (task := self._queue.get()) is not None:
            if not isinstance(task, tuple):
                with contextlib.suppress(Exception):  # a failing clean-up must not stop the worker
                    task()
                continue
            job, work = task
            if job.cancelled:  # a job cancelled while queued is skipped: nobody reads it
                job.finish()
            else:
                job.begin()
                began = time.perf_counter()
                try:
                    value = work(job)
                except Exception as exc:  # an agent's bug is shown to the player, never kills the worker
                    job.took = time.perf_counter() - began
                    job.finish(error=describe_exception(exc))
                else:
                    job.took = time.perf_counter() - began
                    job.finish(value)
            with self._lock:
                self._unfinished.discard(job)
