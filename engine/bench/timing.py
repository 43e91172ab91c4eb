"""Small helpers for measuring: a stopwatch that reports rates."""

from __future__ import annotations

import time
from collections.abc import Callable


def rate(work: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Call ``work`` (which returns how many units it did) for about ``seconds``.

    Returns ``(units, elapsed seconds)``. ``work`` is called once first,
    untimed, so that compilation does not count.
    """
    work()
    done, start = 0, time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done, elapsed
