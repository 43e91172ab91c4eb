"""Stopping a running search from another thread.

A :class:`StopFlag` is the one way any search in the engine is asked to end:
the GUI's worker sets it on undo or a new game, a time limit sets a child
flag, and numba kernels poll its byte through :mod:`engine.kernels.stop`.
It lives in its own module so that agents, the solver and the tools that
drive them can share it without importing each other.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np


class StopFlag:
    """Asks a running search to stop; safe to set from any thread.

    Numba kernels cannot see a ``threading.Event``, so the flag is a one-byte
    numpy array (:attr:`array`) that kernels poll every few thousand nodes
    (well inside the 50 ms the design allows). Time limits are child flags:
    :meth:`deadline` gives a flag that is set when its time runs out *or* when
    this one is set.
    """

    def __init__(self) -> None:
        self.array = np.zeros(1, dtype=np.uint8)
        self._children: list[StopFlag] = []
        self._lock = threading.Lock()

    def set(self) -> None:
        with self._lock:
            self.array[0] = 1
            children = list(self._children)
        for child in children:
            child.set()

    def is_set(self) -> bool:
        return bool(self.array[0])

    @contextmanager
    def deadline(self, seconds: float | None) -> Iterator[StopFlag]:
        """A child flag, set after ``seconds`` (never, if None) or with this flag."""
        child = StopFlag()
        with self._lock:
            self._children.append(child)
            if self.array[0]:
                child.array[0] = 1
        timer = None
        if seconds is not None:
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
