"""Inner kernels: compiled for other kernels only, and a call from Python is refused, not a crash."""

from __future__ import annotations

import pytest
from numba import njit

from engine.kernels.jit import compile_inner, inner


@inner
def _double(x):
    return 2 * x


@njit
def _quadruple(x):
    return _double(_double(x))


def test_an_inner_kernel_runs_inside_other_kernels():
    assert _quadruple(3) == 12
    assert _quadruple(2.5) == 10.0


def test_python_cannot_call_an_inner_kernel():
    _quadruple(1)  # compiled: without a Python wrapper, calling it from Python would jump nowhere
    with pytest.raises(TypeError, match="only other kernels can call it"):
        _double(3)


@inner
def _triple(x):
    return 3 * x


def test_compile_inner_compiles_for_the_types_of_its_examples_without_a_call():
    assert _triple.signatures == []
    compile_inner(_triple, 7)
    assert [tuple(str(arg) for arg in signature) for signature in _triple.signatures] == [("int64",)]


def test_every_kernel_is_cached_and_releases_the_interpreter_lock():
    """``@njit(cache=True, nogil=True)`` (or ``@inner``) on every kernel of the engine: without ``cache`` a
    fresh process compiles it again, without ``nogil`` the game's window freezes while it runs."""
    import importlib
    import pkgutil

    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    import engine

    kernels = {}
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == info.name:
                kernels[f"{info.name}.{value.py_func.__qualname__}"] = value
    assert len(kernels) > 50  # (every kernel module was seen)
    uncached = sorted(name for name, kernel in kernels.items() if isinstance(kernel._cache, NullCache))
    holding = sorted(name for name, kernel in kernels.items() if not kernel.targetoptions.get("nogil"))
    assert (uncached, holding) == ([], [])
