"""Memory the game no longer uses goes back to the system (Linux, whose C library is glibc).

A match's agents hold tables of 16 to 64 MB (numpy arrays); when the match
closes they are freed, but glibc keeps freed memory for the next allocation:
a large block is returned only when it was mapped on its own, and after the
first such block is freed glibc raises that limit (up to 32 MB), so that the
next tables come from the heap, which is never returned and whose reused
blocks ``calloc`` must clear page by page. So the game fixes the limit at
1 MiB (:func:`keep_large_blocks_apart`: a table is then always mapped on its
own, untouched pages cost nothing, and it goes back whole when freed; the
analysis process gets the same through :data:`CHILD_ENVIRONMENT`), and hands
what the heap holds free back when a match closes (:func:`give_back`).
Elsewhere both do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

#: Blocks this large or larger get a mapping of their own (glibc's M_MMAP_THRESHOLD, fixed).
LARGE_BLOCK = 1 << 20
#: The same for a child process, through glibc's environment variable.
CHILD_ENVIRONMENT = {"MALLOC_MMAP_THRESHOLD_": str(LARGE_BLOCK)} if sys.platform.startswith("linux") else {}
_M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None  # (musl has neither)


def keep_large_blocks_apart() -> bool:
    """Map every block of :data:`LARGE_BLOCK` or more on its own, for good; True where it was done."""
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(_M_MMAP_THRESHOLD, LARGE_BLOCK))


def give_back() -> bool:
    """Return the heap's free pages to the system now (a few milliseconds); True if any went back."""
    libc = _glibc()
    return libc is not None and bool(libc.malloc_trim(0))
