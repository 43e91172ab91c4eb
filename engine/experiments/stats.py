"""Small statistics the studies share."""

from __future__ import annotations

import math
import time
from collections.abc import Callable


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion: better than p +- z*se near 0 and 1."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def percent_with_interval(successes: float, trials: int) -> str:
    """``56.0% (55.0-57.0)``."""
    low, high = wilson(successes, trials)
    return f"{successes / trials:.1%} ({low:.1%}-{high:.1%})" if trials else "-"


def cpu_seconds_per_call(call: Callable[[], object], seconds: float = 0.2, batches: int = 3) -> float:
    """CPU seconds one ``call()`` takes: the fastest of ``batches`` batches, each repeating it for
    ``seconds / batches`` at least. The fastest, as ``timeit`` advises: on a shared machine a batch can
    only be slowed down (another process on the core's other thread, a cache emptied), never sped up."""
    best = math.inf
    for _ in range(batches):
        calls, start = 0, time.process_time()
        while time.process_time() - start < seconds / batches:
            call()
            calls += 1
        best = min(best, (time.process_time() - start) / calls)
    return best
