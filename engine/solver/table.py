"""The transposition table: scores of positions already searched.

Connect Four reaches the same position by many move orders, and the
null-window searches of :mod:`engine.solver.negamax` visit the same positions
again and again. The table remembers, for each position searched, what the
search proved about its score and how much work the search took, in one
``uint64`` per slot::

      63 ...................... 13 | 12..9 | 8..7  | 6..0
      check (the rest of the hash) | work  | bound | score - lowest + 1

* ``score`` is in Pons's convention; ``bound`` says what it is: an upper
  bound (``UPPER``, the search failed low), a lower bound (``LOWER``, it
  failed high) or the exact score (``EXACT``). Storing
  ``score - lowest + 1`` keeps the field positive, so a slot whose low seven
  bits are 0 is empty.
* ``work`` is about log4 of the nodes the search of the position took.

**Two slots per bucket.** A position may live in either slot of its bucket
(two neighbouring words, one cache line). The first slot keeps the result
that took the most work, the second the newest of the others: results of
long searches near the root survive the flood of small ones deep down,
which is what a long solve needs most. (A single "always replace" slot
loses them.)

**Exact keys.** The position's key (``current + mask``, unique per
position) is mixed by a multiplication by an odd constant, which is a
bijection of 64-bit words. The top ``bits - 1`` bits of the mixed value
choose the bucket and the other ``65 - bits`` bits are stored as ``check``:
bucket and check together give back the mixed value and hence the key, so
a hit is never a different position. Wide boards (two-word keys, 8x8 and larger)
fold the high word into the low one before mixing, and also store the high
word in a second array: with it the fold is undone and the key is again
exact. A wrong exact score is never returned.

**Threads.** Several threads share one table without locks. On a board of one
word a slot is one aligned 64-bit word, written and read whole: a thread sees
an entry entire or not at all. A wide board's entry is two words (the slot and
its high word), which another thread could write between our two reads, so
the high word also carries a *sequence number* (a seqlock per slot)::

      63 ............ 32 | 31 ........ 0
      sequence (odd: being written) | the key's high word

A writer claims the slot by raising the sequence to an odd number with one
compare-and-swap (if another writer holds it, the result is not stored: a lost
entry), writes the slot, then publishes the high word with the next even
number. A reader reads the high word, the slot, and the high word again, and
takes the entry only if the sequence was even and did not change: it never
pairs one position's slot with another's high word.

A lost entry only costs time, never correctness. (An empty table: engine.solver.arrays.new_table.)
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from engine.kernels.bitops import add, lowest_index
from engine.solver.settings import MIN_BITS

#: Knuth's multiplicative-hashing constant (2^64 / golden ratio), odd.
MIX = np.uint64(0x9E3779B97F4A7C15)
#: An independent odd constant that folds the high word of a wide key.
FOLD = np.uint64(0xC2B2AE3D27D4EB4F)

#: Bits below ``check``: the score, the kind of bound, the work.
DATA_BITS = 13
SCORE_MASK = 0x7F
BOUND_SHIFT = 7
#: What a stored score is (the two bits above it).
UPPER, LOWER, EXACT = 1, 2, 3
WORK_SHIFT = 9
MAX_WORK = 15
# ``check`` (65 - bits bits) must fit above the data in the smallest table.
assert MIN_BITS >= DATA_BITS + 1


# -- the key of a position, mixed -----------------------------------------------
def mixed_key(current, mask):
    """``(mixed, high)``: the position key mixed for the table, and the word to verify.

    The plain Python body is the meaning on one-word boards; numba uses the overload.
    """
    return ((current + mask) * int(MIX)) & 0xFFFF_FFFF_FFFF_FFFF, 0


@overload(mixed_key, inline="always")
def _mixed_key(current, mask):
    if not isinstance(current, types.UniTuple):

        def narrow(current, mask):
            # current + mask is unique per position (see Board.key).
            return add(current, mask) * MIX, np.uint64(0)

        return narrow

    def wide(current, mask):
        low, high = add(current, mask)
        # XOR with a multiple of the high word is undone by anyone who knows it.
        return (low ^ (high * FOLD)) * MIX, high

    return wide


# -- the memory operations two threads may race on ------------------------------------
def _element_pointer(context, builder, array_type, array, index):
    """LLVM's pointer to ``array[index]`` (a 1-d array, no bounds check)."""
    data = context.make_array(array_type)(context, builder, array).data
    return builder.gep(data, [index], inbounds=True)


@intrinsic
def _load_acquire(typingctx, array, index):
    """``array[index]`` read whole, and no later read of this thread moves before it."""
    sig = array.dtype(array, index)

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, signature.args[0], *args)
        return builder.load_atomic(pointer, "acquire", 8)

    return sig, codegen


@intrinsic
def _store_release(typingctx, array, index, value):
    """``array[index] = value`` written whole, after every earlier write of this thread is visible."""
    sig = types.void(array, index, value)

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, signature.args[0], args[0], args[1])
        builder.store_atomic(args[2], pointer, "release", 8)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _compare_and_swap(typingctx, array, index, expected, value):
    """Atomically: if ``array[index] == expected``, set it to ``value``; whether it did."""
    sig = types.boolean(array, index, expected, value)

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, signature.args[0], args[0], args[1])
        outcome = builder.cmpxchg(pointer, args[2], args[3], "acq_rel", "acquire")
        return builder.extract_value(outcome, 1)

    return sig, codegen


#: The high word's sequence number starts at bit 32; odd while a writer holds the slot.
SEQUENCE_SHIFT = np.uint64(32)
HIGH_MASK = np.uint64(0xFFFF_FFFF)
ONE_WRITE = np.uint64(1) << SEQUENCE_SHIFT


# -- probing and storing -----------------------------------------------------------
@intrinsic
def _prefetch(typingctx, array, index):
    """Start loading ``array[index]`` into the cache, and go on at once (LLVM's prefetch hint)."""
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        pointer = builder.gep(data, [args[1]], inbounds=True)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32])
        prefetch = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # A read, to be kept in every cache level, of data (not instructions).
        builder.call(prefetch, [pointer, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, nogil=True, inline="always")
def prefetch(table, current, mask):
    """Start loading this position's bucket: a :func:`probe` soon after waits less for memory."""
    slots = table[0]
    index, _ = _bucket(slots, mixed_key(current, mask)[0])
    _prefetch(slots, index)


@njit(cache=True, nogil=True, inline="always")
def _bucket(slots, mixed):
    """``(first slot, check)``: the bucket the top bits of ``mixed`` choose, and the rest of them."""
    # The table has a power-of-two length: its log2 is the index of its one bit.
    bucket_bits = lowest_index(np.uint64(len(slots))) - 1
    rest = np.uint64(64 - bucket_bits)
    return np.int64(mixed >> rest) * 2, mixed & ((np.uint64(1) << rest) - np.uint64(1))


@njit(cache=True, nogil=True, inline="always")
def probe(table, current, mask):
    """The word stored for this very position, else 0."""
    slots, high_words = table
    mixed, high = mixed_key(current, mask)
    index, check = _bucket(slots, mixed)
    return _read(slots, high_words, index, check, high, current)


def _read(slots, high_words, index, check, high, current):
    """The word of the bucket at ``index`` whose check (and high word) match, else 0.

    Chosen by the board's type when numba compiles (see the overload): the atomic reads of a
    wide board would slow down every search if they were compiled into a narrow one's too.
    """
    for i in (index, index + 1):
        if slots[i] >> DATA_BITS == check:
            return slots[i]
    return 0


@overload(_read)
def _read_typed(slots, high_words, index, check, high, current):
    if not isinstance(current, types.UniTuple):

        def narrow(slots, high_words, index, check, high, current):
            # (Written out rather than a loop: this is the hottest code of the search.)
            word = slots[index]
            if word >> np.uint64(DATA_BITS) == check:
                return word
            word = slots[index + 1]
            if word >> np.uint64(DATA_BITS) == check:
                return word
            return np.uint64(0)

        return narrow

    def wide(slots, high_words, index, check, high, current):
        # Each slot read between two reads of its sequence number (see "Threads" above).
        for i in range(index, index + 2):
            before = _load_acquire(high_words, i)
            word = _load_acquire(slots, i)
            after = _load_acquire(high_words, i)
            if (
                before == after
                and (before >> SEQUENCE_SHIFT) & np.uint64(1) == 0  # (no writer held the slot)
                and before & HIGH_MASK == high
                and word >> np.uint64(DATA_BITS) == check
            ):
                return word
        return np.uint64(0)

    return wide


@njit(cache=True, nogil=True, inline="always")
def store(table, current, mask, data):
    """Remember ``data`` (see :func:`pack`) for this position.

    It goes to the first slot of the bucket if that holds the same position
    or a result of no more work, else to the second.
    """
    slots, high_words = table
    mixed, high = mixed_key(current, mask)
    index, check = _bucket(slots, mixed)
    first = slots[index]
    # (On a wide board these two reads may be torn: they only choose the slot, never what is read back.)
    same = first >> np.uint64(DATA_BITS) == check and (len(high_words) == 1 or high_words[index] & HIGH_MASK == high)
    work = (np.uint64(data) >> np.uint64(WORK_SHIFT)) & np.uint64(MAX_WORK)
    if not same and (first >> np.uint64(WORK_SHIFT)) & np.uint64(MAX_WORK) > work:
        index += 1
    _write(slots, high_words, index, (check << np.uint64(DATA_BITS)) | np.uint64(data), high, current)


def _write(slots, high_words, index, word, high, current):
    """Write ``word`` (and the high word) to slot ``index``; chosen by the board's type, as :func:`_read`."""
    slots[index] = word


@overload(_write)
def _write_typed(slots, high_words, index, word, high, current):
    if not isinstance(current, types.UniTuple):

        def narrow(slots, high_words, index, word, high, current):
            slots[index] = word

        return narrow

    def wide(slots, high_words, index, word, high, current):
        seen = _load_acquire(high_words, index)
        sequence = seen & ~HIGH_MASK
        if (seen >> SEQUENCE_SHIFT) & np.uint64(1) or not _compare_and_swap(
            high_words, index, seen, sequence + ONE_WRITE
        ):
            return  # another thread is writing this slot: this result is lost, which only costs time
        slots[index] = word
        # (The sequence wraps around after 2**32 writes to one slot: no reader is that slow.)
        _store_release(high_words, index, (sequence + ONE_WRITE + ONE_WRITE) | high)

    return wide


# -- the data fields ------------------------------------------------------------------
@njit(cache=True, nogil=True, inline="always")
def work_of(nodes):
    """About log4 of a node count, at most ``MAX_WORK``: how costly a result was to find."""
    work = 0
    while nodes > 1 and work < MAX_WORK:
        nodes >>= 2
        work += 1
    return work


@njit(cache=True, nogil=True, inline="always")
def pack(score, bound, lowest, work):
    """The data bits for a ``bound`` (UPPER, LOWER or EXACT) ``score`` and a ``work`` (0..15)."""
    return (score - lowest + 1) | (bound << BOUND_SHIFT) | (work << WORK_SHIFT)


@njit(cache=True, nogil=True, inline="always")
def entry_score(word, lowest):
    return np.int64(word & np.uint64(SCORE_MASK)) - 1 + lowest


@njit(cache=True, nogil=True, inline="always")
def entry_bound(word):
    """UPPER, LOWER or EXACT (0 for an empty word)."""
    return np.int64((word >> np.uint64(BOUND_SHIFT)) & np.uint64(3))
