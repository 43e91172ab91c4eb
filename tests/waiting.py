"""Waiting for something to happen, never for time to pass: the one way the tests wait.

A test that sleeps a fixed time and then looks races the thread or process it waits for: on a
loaded machine the time is too short, on an idle one it is wasted. :func:`wait_until` looks again
and again and returns the moment the awaited thing is there; its ``timeout`` is only the point
at which a test gives up (generous, for a loaded machine), never a measurement.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    condition: Callable[[], T],
    timeout: float = 30.0,
    what: str | Callable[[], str] = "the condition",
    *,
    every: float = 0.01,
    step: Callable[[], object] | None = None,
) -> T:
    """``condition()``'s first true value, looked for every ``every`` seconds (``step()`` runs between two
    looks: a frame of the game, a reap of processes); after ``timeout`` seconds, an AssertionError that
    names ``what`` was awaited (a function: called then, to say what was seen)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what() if callable(what) else what}")
        if step is not None:
            step()
        time.sleep(every)
    return value
