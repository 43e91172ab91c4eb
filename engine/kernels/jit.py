"""Kernels that only other kernels call: compiled without the code that lets Python call them.

numba gives every ``@njit`` function two *wrappers*: machine code that turns
Python objects into the kernel's argument types and back (so that Python can
call it), and a C-callable one. A kernel that only other kernels call never
uses them, but they are compiled all the same, and for a kernel that takes
the search tree (a tuple of eight arrays, each unpacked from Python) the
Python wrapper is bigger than the kernel. In the first-move compile of Monte
Carlo tree search on a fresh install, the wrappers of the tree's helpers took
a quarter of the compiler's time. ``@inner`` compiles a kernel without them:
same cache, same ``nogil``, same machine code where kernels call it.

Only kernels call an inner kernel; a call from Python raises ``TypeError``
(without the wrapper there is nothing to call). Kernels that Python calls
(tests, agents, benchmarks) keep ``@njit(cache=True, nogil=True)``.

**No reference counts.** numba counts the references to every array a kernel
is handed: an atomic increment on entry and a decrement on exit, per array.
With it the solver's recursive search (a dozen arrays a node) takes 17 % longer
(the weak solve of the empty board). A kernel that allocates nothing needs none of it:
``@njit(..., **NO_REFCOUNTS)`` (or ``inner(f, refcounts=False)``) compiles it
without numba's runtime. Every kernel it calls that is not inlined must then be
compiled the same way or be plain (no arrays), or numba cannot link them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from numba import typeof
from numba.core import config
from numba.core.registry import CPUDispatcher

_OPTIONS = {
    "nopython": True,
    "boundscheck": None,
    "nogil": True,
    "no_cpython_wrapper": True,
    "no_cfunc_wrapper": True,
}


class InnerDispatcher(CPUDispatcher):
    """A numba dispatcher whose compiled versions have no Python wrapper, so Python must not call them."""

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"{self.py_func.__qualname__} is an inner kernel: only other kernels can call it")


#: Options of a kernel that allocates nothing: no reference counting of its arrays (see the module).
NO_REFCOUNTS: dict[str, Any] = {"_nrt": False}


def inner(func: Callable[..., Any], refcounts: bool = True) -> Any:
    """``@njit(cache=True, nogil=True)`` for a kernel only other kernels call (see the module docstring)."""
    if config.DISABLE_JIT:  # type: ignore[attr-defined]  # set from the environment; plain Python then
        return func
    options = dict(_OPTIONS) if refcounts else {**_OPTIONS, **NO_REFCOUNTS}
    dispatcher = InnerDispatcher(py_func=func, locals={}, targetoptions=options)
    dispatcher.enable_caching()
    return dispatcher


def compile_inner(kernel: Any, *examples: Any) -> None:
    """Compile (or load from the cache) ``kernel`` for the types of ``examples``, without calling it.

    The way to prepare an inner kernel ahead of the kernels that call it
    (Python cannot call it to trigger its compiling), e.g. in a process of
    its own on a first start. Under ``NUMBA_DISABLE_JIT`` there is nothing to do.
    """
    if not config.DISABLE_JIT:  # type: ignore[attr-defined]
        kernel.compile(tuple(typeof(example) for example in examples))
