"""What the machine can hold and run: refuse a too-large allocation before making it; count the cores.

A transposition table of 1e12 MB would otherwise be capped to the largest
table the solver knows (32 GiB) and allocated, which swaps the machine to a
halt or ends in a MemoryError deep inside numpy. Asking first gives one clear
message instead.
"""

from __future__ import annotations

import os

from engine.errors import ResourceError


def physical_memory() -> int | None:
    """The machine's RAM in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # not a POSIX system
        return None


def check_allocation(size: int, what: str) -> None:
    """Raise :class:`ResourceError` if ``size`` bytes exceed the machine's memory."""
    total = physical_memory()
    if total is not None and size > total:
        raise ResourceError(f"{what} needs {size / 2**30:.1f} GiB, more than this machine's {total / 2**30:.1f} GiB")


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else the machine's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # (macOS and Windows have no sched_getaffinity)
        return max(1, os.cpu_count() or 1)


def cores_beside_a_window() -> int:
    """The threads a background search of the game may take: every core but one, left to the window."""
    return max(1, available_cores() - 1)
