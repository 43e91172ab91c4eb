"""The background thread that runs the agents, so that the window never waits.

There is exactly one worker thread. The main thread (the only one that
touches pygame) hands it *requests* - "find a move for this board" - and polls
for the reply once per frame. Every request gets a number; only the reply to
the latest request is ever delivered. Starting a new request, or calling
:meth:`Worker.cancel` (new game, undo, leaving the screen, quitting), sets the
running search's :class:`~engine.stop.StopFlag` - the engine promises
to stop within 50 ms - and its late reply is thrown away, so a stale move can
never land on a board it was not computed for.

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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.stop import StopFlag


@dataclass(frozen=True)
class Reply:
    """The outcome of one request: its value, or a one-line description of what went wrong."""

    request: int
    value: Any = None
    error: str | None = None
    seconds: float = 0.0


@dataclass
class _Request:
    number: int
    job: Callable[[StopFlag], Any] | Callable[[], Any]
    stop: StopFlag | None  # None for a chore, which has no reply and cannot be cancelled


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
    """``Type: message (file.py, line N)``: enough to find the bug, short enough for the screen."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        text += f" ({Path(last.filename).name}, line {last.lineno})"
    return text


class Worker:
    """One daemon thread running requests in order; the main thread polls for replies."""

    def __init__(self, name: str = "agent-worker") -> None:
        self._queue: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._wanted = 0  # the only request whose reply will be delivered (0: none)
        self._numbers = 0
        self._reply: Reply | None = None
        self._stops: dict[int, StopFlag] = {}  # queued or running requests
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # -- the main thread's side -------------------------------------------------
    def submit(self, job: Callable[[StopFlag], Any]) -> int:
        """Run ``job(stop)`` in the background; cancels any earlier request. Returns its number."""
        from engine.stop import StopFlag  # here, so that the first frame does not wait for numpy

        stop = StopFlag()

        with self._lock:
            self._cancel_locked()
            self._numbers += 1
            number = self._wanted = self._numbers
            self._stops[number] = stop
        self._queue.put(_Request(number, job, stop))
        return number

    def run_later(self, chore: Callable[[], Any]) -> None:
        """Run ``chore()`` on the worker thread after what is queued (e.g. ``agent.new_game``)."""
        self._queue.put(_Request(0, chore, None))

    def cancel(self) -> None:
        """Stop the running search, skip queued ones, and never deliver their replies."""
        with self._lock:
            self._cancel_locked()

    def _cancel_locked(self) -> None:
        self._wanted = 0
        self._reply = None
        for stop in self._stops.values():
            stop.set()

    def poll(self) -> Reply | None:
        """The reply to the latest request, once, if it has arrived."""
        with self._lock:
            reply, self._reply = self._reply, None
            if reply is not None:
                self._wanted = 0
            return reply

    @property
    def busy(self) -> bool:
        """True while the latest request has not been answered (or polled) yet."""
        with self._lock:
            return self._wanted != 0

    def close(self, timeout: float = 0.2) -> None:
        """Cancel everything and let the thread end (it is a daemon: quitting never waits long)."""
        self.cancel()
        self._queue.put(None)
        self._thread.join(timeout)

    # -- the worker thread's side -----------------------------------------------
    def _run(self) -> None:
        lower_priority()
        while True:
            request = self._queue.get()
            if request is None:
                return
            if request.stop is None:
                self._run_chore(request)
                continue
            if request.stop.is_set():  # cancelled while queued
                self._forget(request)
                continue
            start = time.perf_counter()
            try:
                job: Callable[[StopFlag], Any] = request.job  # type: ignore[assignment]  # a request has a stop
                reply = Reply(request.number, value=job(request.stop))
            except Exception as exc:  # an agent's bug is shown to the player, never kills the worker
                reply = Reply(request.number, error=describe_exception(exc))
            reply = Reply(reply.request, reply.value, reply.error, time.perf_counter() - start)
            with self._lock:
                self._stops.pop(request.number, None)
                if request.number == self._wanted:
                    self._reply = reply

    def _run_chore(self, request: _Request) -> None:
        # A failing clean-up must not stop the worker; a broken agent shows up in its next real request.
        with contextlib.suppress(Exception):
            request.job()  # type: ignore[call-arg]

    def _forget(self, request: _Request) -> None:
        with self._lock:
            self._stops.pop(request.number, None)
