"""The sizes of the solver's transposition table that commands offer.

Kept apart from the search (no numba here), so that a command can build its
options without loading the compiled solver: see :mod:`engine.solver.quick`.
"""

#: Table size of a solver made without one, in MB. Bigger tables save few nodes and lose time to
#: memory: the empty 7x6 board takes 90 M nodes with 64 MB and 87 M with 1 GB (one thread).
DEFAULT_TABLE_MB = 64
#: Table sizes a person may ask for, in MB (the largest table, 2**32 wide slots, is 64 GiB).
MIN_TABLE_MB, MAX_TABLE_MB = 0.001, 65536
