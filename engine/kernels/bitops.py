"""Bit operations that work on one-word and two-word bitboards alike.

A bitboard in the kernels is either a ``uint64`` (boards of up to 64 bits) or a
``(low, high)`` tuple of two ``uint64`` (wider boards such as 8x8 or 9x9, see
:mod:`engine.geometry`). Each operation here is declared once as a plain
function and given two numba implementations with ``@overload``; numba picks
one by the argument's type when it compiles a kernel. So the rules, the search
and the solver are written once, and on 7x6 they compile to the same machine
code as if they used ``&`` and ``<<`` directly.

The plain Python bodies are the reference meaning of each operation on Python
ints; numba never runs them.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic, overload

_U64_MASK = (1 << 64) - 1


# -- hardware bit counting, exposed to numba ---------------------------------
@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count (one POPCNT instruction on x86-64)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    """LLVM's count-trailing-zeros: the index of the lowest set bit."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


def _is_wide(bits) -> bool:
    return isinstance(bits, types.UniTuple)


# -- the operations ------------------------------------------------------------
def shl(bits, n):
    """``bits << n`` (bits shifted past the top are lost)."""
    return bits << n


@overload(shl)
def _shl(bits, n):
    if not _is_wide(bits):
        return lambda bits, n: bits << np.uint64(n)

    def wide(bits, n):
        low, high = bits
        if n == 0:
            return bits
        if n >= 64:
            return (np.uint64(0), low << np.uint64(n - 64))
        # The high word takes the bits that overflow the low word.
        return (low << np.uint64(n), (high << np.uint64(n)) | (low >> np.uint64(64 - n)))

    return wide


def shr(bits, n):
    """``bits >> n``."""
    return bits >> n


@overload(shr)
def _shr(bits, n):
    if not _is_wide(bits):
        return lambda bits, n: bits >> np.uint64(n)

    def wide(bits, n):
        low, high = bits
        if n == 0:
            return bits
        if n >= 64:
            return (high >> np.uint64(n - 64), np.uint64(0))
        # The low word takes the bits that fall out of the high word.
        return ((low >> np.uint64(n)) | (high << np.uint64(64 - n)), high >> np.uint64(n))

    return wide


def band(a, b):
    """``a & b``."""
    return a & b


@overload(band)
def _band(a, b):
    if not _is_wide(a):
        return lambda a, b: a & b
    return lambda a, b: (a[0] & b[0], a[1] & b[1])


def bor(a, b):
    """``a | b``."""
    return a | b


@overload(bor)
def _bor(a, b):
    if not _is_wide(a):
        return lambda a, b: a | b
    return lambda a, b: (a[0] | b[0], a[1] | b[1])


def bxor(a, b):
    """``a ^ b``."""
    return a ^ b


@overload(bxor)
def _bxor(a, b):
    if not _is_wide(a):
        return lambda a, b: a ^ b
    return lambda a, b: (a[0] ^ b[0], a[1] ^ b[1])


def andnot(a, b):
    """``a & ~b``: the bits of ``a`` that are not in ``b``."""
    return a & ~b


@overload(andnot)
def _andnot(a, b):
    if not _is_wide(a):
        return lambda a, b: a & ~b
    return lambda a, b: (a[0] & ~b[0], a[1] & ~b[1])


def add(a, b):
    """``a + b`` modulo the word width (used for ``mask + bottom``)."""
    return a + b


@overload(add)
def _add(a, b):
    if not _is_wide(a):
        return lambda a, b: a + b

    def wide(a, b):
        low = a[0] + b[0]
        # An unsigned sum that wrapped is smaller than either operand: carry one.
        carry = np.uint64(1) if low < a[0] else np.uint64(0)
        return (low, a[1] + b[1] + carry)

    return wide


def sub(a, b):
    """``a - b`` modulo the word width (used to isolate the lowest bit)."""
    return a - b


@overload(sub)
def _sub(a, b):
    if not _is_wide(a):
        return lambda a, b: a - b

    def wide(a, b):
        borrow = np.uint64(1) if a[0] < b[0] else np.uint64(0)
        return (a[0] - b[0], a[1] - b[1] - borrow)

    return wide


def is_zero(bits) -> bool:
    return bits == 0


@overload(is_zero)
def _is_zero(bits):
    if not _is_wide(bits):
        return lambda bits: bits == 0
    return lambda bits: (bits[0] | bits[1]) == 0


def popcount(bits) -> int:
    """How many bits are set."""
    return bin(bits).count("1")


@overload(popcount)
def _popcount(bits):
    if not _is_wide(bits):
        return lambda bits: np.int64(_ctpop(bits))
    return lambda bits: np.int64(_ctpop(bits[0]) + _ctpop(bits[1]))


def lowest_index(bits) -> int:
    """Index of the lowest set bit (``bits`` must not be zero)."""
    return (bits & -bits).bit_length() - 1


@overload(lowest_index)
def _lowest_index(bits):
    if not _is_wide(bits):
        return lambda bits: np.int64(_cttz(bits))

    def wide(bits):
        if bits[0] != 0:
            return np.int64(_cttz(bits[0]))
        return np.int64(_cttz(bits[1])) + 64

    return wide


def hash64(bits) -> int:
    """A 64-bit hash of a bitboard, for transposition tables."""
    return bits & _U64_MASK


@overload(hash64)
def _hash64(bits):
    if not _is_wide(bits):
        return lambda bits: bits

    def wide(bits):
        # Multiply the high word by an odd constant so that (low, high) and
        # (high, low) hash differently, then fold it into the low word.
        return bits[0] ^ (bits[1] * np.uint64(0x9E3779B97F4A7C15))

    return wide


def load(array, index):
    """Bitboard ``index`` of an array made by :func:`engine.geometry.Geometry.empty_array`."""
    return array[index]


@overload(load)
def _load(array, index):
    if array.ndim == 1:
        return lambda array, index: array[index]
    return lambda array, index: (array[index, 0], array[index, 1])


def store(array, index, bits):
    """Write a bitboard into slot ``index`` of such an array."""
    array[index] = bits


@overload(store)
def _store(array, index, bits):
    if not _is_wide(bits):

        def narrow(array, index, bits):
            array[index] = bits

        return narrow

    def wide(array, index, bits):
        array[index, 0] = bits[0]
        array[index, 1] = bits[1]

    return wide
