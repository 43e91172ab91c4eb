"""Stopping a running search from another thread.

A :class:`StopFlag` is the one way any search in the engine is asked to end:
the GUI's worker sets it on undo or a new game, a time limit sets a child
flag, and numba kernels poll its byte through :mod:`engine.kernels.stop`.
It lives in its own module so that agents, the solver and the tools that
drive them can share it without importing each other.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

#: Bytes 8-15 of a flag's array: its deadline, ``time.monotonic_ns()`` as a little-endian int64 (0: none).
#: :meth:`StopFlag.is_set` checks it everywhere; kernels check it themselves on Linux, where their
#: clock is the same one (see :mod:`engine.kernels.stop`); elsewhere a timer thread sets the flag.
DEADLINE = slice(8, 16)
KERNEL_CLOCK = sys.platform.startswith("linux")


class StopFlag:
    """Asks a running search to stop; safe to set from any thread.

    Numba kernels cannot see a ``threading.Event``, so the flag is a small
    numpy array (:attr:`array`: byte 0 the flag, then the deadline) that
    kernels poll every few thousand nodes (well inside the 50 ms the design
    allows). Time limits are child flags: :meth:`deadline` gives a flag that
    counts as set when its time runs out *or* when this one is set.
    """

    def __init__(self) -> None:
        self.array = np.zeros(DEADLINE.stop, dtype=np.uint8)
        self._children: list[StopFlag] = []
        self._lock = threading.Lock()

    def set(self) -> None:
        with self._lock:
            self.array[0] = 1
            children = list(self._children)
        for child in children:
            child.set()

    def is_set(self) -> bool:
        return bool(self.array[0]) or 0 < self.deadline_ns <= time.monotonic_ns()

    @property
    def deadline_ns(self) -> int:
        """The deadline the kernels check (``time.monotonic_ns()``; 0: none)."""
        return int(self.array[DEADLINE].view("<i8")[0])

    @contextmanager
    def deadline(self, seconds: float | None) -> Iterator[StopFlag]:
        """A child flag, set after ``seconds`` (never, if None) or with this flag."""
        child = StopFlag()
        with self._lock:
            self._children.append(child)
            if self.array[0]:
                child.array[0] = 1
        ends = self.deadline_ns  # a child never outlives its parent's deadline
        if seconds is not None:
            mine = time.monotonic_ns() + round(max(0.0, seconds) * 1e9)
            ends = min(ends, mine) if ends else mine
        child.array[DEADLINE].view("<i8")[0] = ends
        timer = None
        if seconds is not None and not KERNEL_CLOCK:
            # Only where kernels read no clock: a timer thread sets the byte. Starting a thread waits
            # until it runs, which on a busy machine can take longer than the whole limit.
            timer = threading.Timer(max(0.0, seconds), child.set)
            timer.daemon = True
            timer.start()
        try:
            yield child
        finally:
            if timer is not None:
                timer.cancel()
            with self._lock:
                self._children.remove(child)
