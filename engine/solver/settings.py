"""The solver's settings: the weights of its move order, the sizes of its transposition table.

Kept apart from the search (no numba here), so that a command can check its
options, and the plain-Python solver order its moves, without loading the
compiled solver: see :mod:`engine.solver.quick`.
"""

from __future__ import annotations

from engine.resources import check_allocation
from engine.validate import finite_float

#: Weights of engine.solver.moves.move_promise: our threats on a playable cell, one and two cells
#: above one, and any (tuned on the Pons sets).
PROMISE_NOW, PROMISE_SOON, PROMISE_LATER, PROMISE_ANY = 6, 12, 5, 3

#: Table size of a solver made without one, in MB. Bigger tables save few nodes and lose time to
#: memory: the empty 7x6 board takes 90 M nodes with 64 MB and 87 M with 1 GB (one thread).
DEFAULT_TABLE_MB = 64
#: Table sizes a person may ask for, in MB (the largest table, 2**32 wide slots, is 64 GiB).
MIN_TABLE_MB, MAX_TABLE_MB = 0.001, 65536
#: The most threads one solve may share its work between (each keeps a scratch buffer of a few KB).
MAX_THREADS = 1024
#: log2 of the slots of the smallest and the largest table (see engine.solver.table).
MIN_BITS, MAX_BITS = 14, 32


def _slot_bytes(wide: bool) -> int:
    return 16 if wide else 8  # a wide board also keeps the key's high word


def table_bits_for(megabytes: float, wide: bool) -> int:
    """The largest table (as log2 of its slots) that fits in ``megabytes``."""
    slots = max(1, int(megabytes * 2**20) // _slot_bytes(wide))
    return max(MIN_BITS, min(MAX_BITS, slots.bit_length() - 1))


def table_bytes(bits: int, wide: bool) -> int:
    """The memory a table of ``2**bits`` slots takes."""
    return (1 << bits) * _slot_bytes(wide)


def checked_table_bits(megabytes: float, wide: bool) -> int:
    """:func:`table_bits_for` a size that is a number in range and fits this machine's memory.

    Raises :class:`~engine.errors.EngineError` with one clear line otherwise.
    """
    megabytes = finite_float(megabytes, "the table size in MB", MIN_TABLE_MB, MAX_TABLE_MB)
    bits = table_bits_for(megabytes, wide)
    check_allocation(table_bytes(bits, wide), f"a transposition table of {megabytes:g} MB")
    return bits
