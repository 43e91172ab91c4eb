"""Inner kernels: compiled for other kernels only, and a call from Python is refused, not a crash."""

from __future__ import annotations

import pytest
from numba import njit

from engine.kernels.jit import inner


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
