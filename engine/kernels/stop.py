"""Reading the stop flag from inside a kernel.

A search polls ``StopFlag.array`` (one byte that another thread may set). A
plain ``flag[0]`` read inside a loop that never writes the flag may be hoisted
out of the loop by the optimiser, and the search would never see the stop. An
atomic load tells the compiler that the byte can change under its feet.

A time limit is also written into the flag's array, as a deadline
(:data:`engine.stop.DEADLINE`) the search checks against the clock itself: a
timer thread that sets the byte must first start and then get a core, on a
busy machine tens or hundreds of milliseconds late, while the searching
thread runs anyway. The clock is the C library's
``clock_gettime(CLOCK_MONOTONIC)``, the one Python's ``time.monotonic_ns()``
reads on Linux; on other systems kernels read no clock (it gives 0, so no
deadline passes for them) and a timer thread sets the flag.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.stats import NODE_LIMIT, NODES
from engine.stop import DEADLINE, KERNEL_CLOCK

#: Where the deadline is in a flag's array (an int64 of nanoseconds, little-endian; 0: none).
DEADLINE_START, DEADLINE_END = DEADLINE.start, DEADLINE.stop
#: CLOCK_MONOTONIC's number in Linux's C library.
_CLOCK_MONOTONIC = 1


@intrinsic
def _atomic_load_u8(typingctx, array):
    """``array[0]`` of a uint8 array, read with an atomic (monotonic) load."""
    sig = types.uint8(array)

    def codegen(context, builder, signature, args):
        arr = context.make_array(signature.args[0])(context, builder, args[0])
        pointer = cgutils.gep_inbounds(builder, arr.data, 0)
        return builder.load_atomic(pointer, "monotonic", 1)

    return sig, codegen


@intrinsic
def _monotonic_ns(typingctx):
    """``clock_gettime(CLOCK_MONOTONIC)`` in nanoseconds, called by name in the C library (0 without
    :data:`KERNEL_CLOCK`)."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        if not KERNEL_CLOCK:
            return ir.Constant(i64, 0)
        timespec = ir.LiteralStructType([i64, i64])  # tv_sec, tv_nsec: two 64-bit longs
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        spec = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [ir.Constant(ir.IntType(32), _CLOCK_MONOTONIC), spec])
        seconds = builder.load(cgutils.gep_inbounds(builder, spec, 0, 0))
        nanoseconds = builder.load(cgutils.gep_inbounds(builder, spec, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanoseconds)

    return sig, codegen


@njit(cache=True, nogil=True)
def monotonic_ns():
    """The kernels' clock (for tests: it must agree with ``time.monotonic_ns()``)."""
    return _monotonic_ns()


@njit(cache=True, nogil=True)
def deadline_passed(flag):
    """Has the deadline written in ``flag`` (if its array has room for one) passed?"""
    if flag.shape[0] < DEADLINE_END:
        return False
    deadline = np.int64(0)
    for i in range(DEADLINE_END - 1, DEADLINE_START - 1, -1):  # little-endian bytes, highest first
        deadline = (deadline << 8) | np.int64(flag[i])
    return deadline > 0 and _monotonic_ns() >= deadline


@njit(cache=True, nogil=True)
def stop_requested(flag):
    """True once the :class:`~engine.stop.StopFlag` owning ``flag`` is set, or its deadline has passed."""
    return _atomic_load_u8(flag) != 0 or deadline_passed(flag)


@njit(cache=True, nogil=True, inline="always")
def must_stop(ctx, read_flag):
    """Out of budget (``NODES`` reached ``NODE_LIMIT``, see :mod:`engine.stats`) or, if ``read_flag``, asked to stop.

    The one check of every search kernel; ``ctx`` is its context (any tuple with ``stats`` and
    ``flag``). The budget is a compare; the flag an atomic load and maybe a clock read, so
    callers read it only every so many nodes.
    """
    stats = ctx.stats
    return stats[NODES] >= stats[NODE_LIMIT] or (read_flag and stop_requested(ctx.flag))
