"""A small seeded random generator for the kernels.

Kernels cannot use a Python ``random.Random``, and numba's own ``np.random`` is
one hidden global state per thread, which would make games depend on what else
ran before. Instead every caller owns an explicit state (a one-element
``uint64`` array) made from a seed with :func:`make_rng`, so a game or an
experiment replays exactly from its seed. The generator is xorshift64*
(Vigna, 2016): three shifts and a multiply, good enough for playouts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = 0x9E3779B97F4A7C15


def make_rng(seed: int) -> np.ndarray:
    """A generator state from any integer seed (the state is never zero)."""
    # SplitMix64-style scrambling so that nearby seeds give unrelated streams.
    z = (seed * _GOLDEN + _GOLDEN) & 0xFFFF_FFFF_FFFF_FFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFF_FFFF_FFFF_FFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFF_FFFF_FFFF_FFFF
    z ^= z >> 31
    return np.array([z or _GOLDEN], dtype=np.uint64)


@njit(cache=True, nogil=True)
def next_u64(rng):
    """Advance the state and return 64 random bits."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, nogil=True)
def next_below(rng, n):
    """A random integer in ``0 .. n-1`` (multiply-shift, no modulo bias to speak of)."""
    return np.int64((next_u64(rng) >> np.uint64(32)) * np.uint64(n) >> np.uint64(32))
