"""The ``stats`` array every search kernel counts in: one layout, one rule for "no limit".

Both families of kernels (the agents' :mod:`engine.kernels.search`, the
solver's :mod:`engine.solver.negamax`) take it in their context (its
``stats`` field) and stop on :func:`engine.kernels.stop.must_stop`. It is
made here, without numba, so that the search built ahead of time
(:mod:`engine.solver.aot`) gets it before numba is loaded.
"""

from __future__ import annotations

import numpy as np

NODES = 0  # positions searched so far
NODE_LIMIT = 1  # the search stops once NODES reaches it
ABORTED = 2  # set when the search must unwind (node limit or stop flag): its result means nothing
RANDOM = 3  # a random state (xorshift: never 0), for the solver's jitter
#: The slots every stats array has; a family's own slots (the agents' CUT, ...) come after them.
SLOTS = 4
#: The node limit of a search without one: never reached, so that the check needs no second test.
NO_LIMIT = np.iinfo(np.int64).max // 2


#: Unused slots on each side of a stats array: one cache line (64 bytes). A search writes NODES at
#: every node; two threads' arrays in one line would make that line shuttle between their cores at
#: every node (measured on 2 cores: two solves with their arrays in one line 8-10 % slower).
PAD = 8


def new_stats(node_limit: int = NO_LIMIT, seed: int = 0, extra: int = 0) -> np.ndarray:
    """A fresh ``stats`` array with ``extra`` slots after :data:`SLOTS`; ``seed`` starts the random state.

    It is a view into a larger block (see :data:`PAD`), so no other array's data shares its cache lines.
    """
    stats = np.zeros(PAD + SLOTS + extra + PAD, dtype=np.int64)[PAD:-PAD]
    stats[NODE_LIMIT] = node_limit
    stats[RANDOM] = seed * 2 + 1  # (xorshift needs a state that is not 0)
    return stats
