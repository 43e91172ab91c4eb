"""Reading the stop flag from inside a kernel.

A search polls ``StopFlag.array`` (one byte that another thread may set). A
plain ``flag[0]`` read inside a loop that never writes the flag may be hoisted
out of the loop by the optimiser, and the search would never see the stop. An
atomic load tells the compiler that the byte can change under its feet.
"""

from __future__ import annotations

from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def _atomic_load_u8(typingctx, array):
    """``array[0]`` of a uint8 array, read with an atomic (monotonic) load."""
    sig = types.uint8(array)

    def codegen(context, builder, signature, args):
        arr = context.make_array(signature.args[0])(context, builder, args[0])
        pointer = cgutils.gep_inbounds(builder, arr.data, 0)
        return builder.load_atomic(pointer, "monotonic", 1)

    return sig, codegen


@njit(cache=True, nogil=True)
def stop_requested(flag):
    """True once the :class:`~engine.stop.StopFlag` owning ``flag`` is set."""
    return _atomic_load_u8(flag) != 0
