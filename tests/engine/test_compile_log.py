"""The compile log: each kernel compiled, once, with only its own time."""

from __future__ import annotations

import time

from numba import njit

from engine.startup.compile_log import CompileLog


def test_each_compiled_kernel_is_named_once_with_its_own_time():
    @njit
    def add_one(x):
        return x + 1

    @njit
    def twice_plus_two(x):
        return add_one(x) * 2

    log = CompileLog()
    begun = time.thread_time()
    with log.recording():
        assert twice_plus_two(3) == 8
        assert twice_plus_two(4) == 10  # compiled already: not logged again
    spent = time.thread_time() - begun
    # The callee finishes compiling first; the caller's time leaves it out, so the sum is no more than the whole.
    assert [name.rsplit(".", 1)[-1] for name in log.names()] == ["add_one", "twice_plus_two"]
    assert all(item.signature == "(int64)" and item.seconds >= 0 for item in log.compiled)
    assert 0 < log.seconds <= spent
    assert log.table().splitlines()[-1].endswith("in all, 2 compiles")


def test_nothing_is_logged_outside_the_recording():
    @njit
    def three():
        return 3

    log = CompileLog()
    with log.recording():
        pass
    assert three() == 3 and log.compiled == []
