"""On the first start of a version the kernels are compiled in a child process, and moves wait for it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from engine.stop import StopFlag
from game.catalog import Catalog, compile_elsewhere, first_start, mark_compiled


def test_the_first_start_is_over_once_marked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert first_start()
    mark_compiled()
    assert not first_start()


def test_a_child_compiles_and_reports_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert compile_elsewhere(["random"], StopFlag())
    assert not compile_elsewhere(["no-such-agent"], StopFlag())


def test_a_stopped_compile_ends_at_once() -> None:
    stop = StopFlag()
    stop.set()
    assert not compile_elsewhere(["perfect"], stop)


def test_a_move_waits_for_the_compiling_child_but_not_past_a_stop() -> None:
    catalog = Catalog()
    catalog._not_compiling.clear()  # as while the child compiles
    stop, done = StopFlag(), threading.Event()
    waiter = threading.Thread(target=lambda: (catalog.wait_until_compiled(stop), done.set()))
    waiter.start()
    assert not done.wait(0.2)
    stop.set()
    assert done.wait(2)
    waiter.join()
    catalog.stop()  # leaving the game ends every wait
    catalog.wait_until_compiled(StopFlag())
