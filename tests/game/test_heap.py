"""Memory a match's tables held goes back to the system once they are freed (Linux with glibc)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game import heap

MB = 1 << 20

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator, read from /proc")


def resident_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MB


#: Run in a fresh interpreter, as the test below: in a long test process what earlier tests left in the heap
#: decides where a new table comes from (seen in CI: a 2 MB table added nothing resident).
FREED_TABLES = """
import os
from pathlib import Path
import numpy as np
from game import heap
MB = 1 << 20
def resident_mb():
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MB
assert heap.keep_large_blocks_apart()
for megabytes in (24, 16, 20, 2):
    before = resident_mb()
    table = np.ones(megabytes * MB, dtype=np.uint8)  # written: all of it resident
    assert resident_mb() > before + megabytes * 0.8, (megabytes, resident_mb() - before)
    del table
    assert resident_mb() < before + 1, f"{megabytes} MB freed, still resident"
"""


def test_a_freed_table_goes_back_to_the_system_whatever_its_size_and_order():
    """glibc would keep the second table (smaller than the first, freed one) in its heap, for good."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", FREED_TABLES], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_an_untouched_table_costs_nothing():
    heap.keep_large_blocks_apart()
    before = resident_mb()
    tables = [np.zeros(16 * MB, dtype=np.uint8) for _ in range(4)]  # a match's tables before its search fills them
    assert resident_mb() < before + 4
    del tables


#: Run in a fresh interpreter: in a long test process the heap's state (what earlier tests left free and where)
#: decides whether glibc keeps the freed blocks at all, and this is about the blocks it keeps.
BETWEEN_BLOCKS = """
import os
from pathlib import Path
from game import heap
MB = 1 << 20
def resident_mb():
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MB
before = resident_mb()
freed, kept = [], []
for _ in range(400):  # 25 MB of blocks below the limit (the heap's), each followed by a small one kept
    freed.append(bytearray(b"x" * (64 * 1024)))
    kept.append(bytearray(b"y" * 2048))
grown = resident_mb() - before
assert grown > 20, grown
del freed
assert resident_mb() - before > grown - 4, "free, but between blocks in use: glibc keeps them"
assert heap.give_back()
assert resident_mb() - before < 4 + 400 * 2048 / MB, resident_mb() - before
"""


def test_the_heap_gives_back_the_free_pages_between_blocks_still_in_use():
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", BETWEEN_BLOCKS], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
