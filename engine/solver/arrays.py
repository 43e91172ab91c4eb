"""The arrays the search kernels work in, made without numba.

The transposition table (layout: :mod:`engine.solver.table`), the scratch
rows where a node keeps its children (:func:`~engine.solver.negamax.negamax`)
and the :class:`SolveContext` that hands them to a kernel with the search's
counters (:mod:`engine.stats`). Kept apart from the kernels, so that the search
built ahead of time (:mod:`engine.solver.aot`) gets them without loading numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from engine.errors import ResourceError
from engine.solver.settings import MAX_BITS, MIN_BITS

if TYPE_CHECKING:
    from engine.geometry import Geometry


class SolveContext(NamedTuple):
    """What a solver kernel works in, in one argument, as the agents' kernels take their SearchContext.

    numba passes a tuple's arrays as separate arguments: the search's machine code is the same.
    """

    stats: np.ndarray  # engine.stats: nodes, node limit, aborted, random state (negamax.JITTER)
    flag: np.ndarray  # the StopFlag's array
    table: tuple[np.ndarray, np.ndarray]  # new_table's (slots, high_words)
    scratch: tuple[np.ndarray, np.ndarray, np.ndarray]  # new_scratch's (info, currents, masks)


#: Fields of a child's row in the scratch ``info`` array (named in engine.solver.negamax).
CHILD_FIELDS = 6


def new_table(bits: int, wide: bool) -> tuple[np.ndarray, np.ndarray]:
    """An empty table of ``2**bits`` slots, as the kernels take it.

    It is a pair ``(slots, high_words)``; ``high_words`` is a one-element
    dummy on boards of one word.
    """
    if not MIN_BITS <= bits <= MAX_BITS:
        raise ResourceError(f"table bits must be from {MIN_BITS} to {MAX_BITS}, not {bits}")
    slots = np.zeros(1 << bits, dtype=np.uint64)
    high = np.zeros((1 << bits) if wide else 1, dtype=np.uint64)
    return slots, high


def new_scratch(geometry: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Room for the settled children of a node at every ply, as negamax keeps them.

    ``(info, currents, masks)``: row ``ply * cols + k`` holds the ``k``-th child of the node
    at ``ply``. Each ply has its own rows, so the recursion never overwrites its callers'
    children.
    """
    rows = (geometry.cells + 1) * geometry.cols
    return np.zeros((rows, CHILD_FIELDS), dtype=np.int64), geometry.empty_array(rows), geometry.empty_array(rows)
