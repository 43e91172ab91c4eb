"""Time limits: a search sees its own deadline, with no timer thread that has to wait for a core to set the flag."""

from __future__ import annotations

import sys
import time

import pytest

from engine.agents.registry import create_agent
from engine.board import Board
from engine.kernels.stop import monotonic_ns, stop_requested
from engine.stop import StopFlag
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kernels read the clock on Linux only")


class _IdleTimer:
    """A timer thread that never gets a core: it never fires."""

    daemon = False

    def __init__(self, *args, **kwargs) -> None:
        pass

    def start(self) -> None:
        pass

    def cancel(self) -> None:
        pass


def test_the_kernels_clock_is_pythons_monotonic_clock() -> None:
    before = time.monotonic_ns()
    kernel = monotonic_ns()
    assert before <= kernel <= time.monotonic_ns()


def test_a_child_deadline_is_seen_by_kernels_and_never_outlives_its_parent() -> None:
    parent = StopFlag()
    with parent.deadline(0.01) as short, short.deadline(60) as inner:
        assert inner.deadline_ns == short.deadline_ns
        wait_until(lambda: stop_requested(inner.array), 5, "the kernels to see the deadline pass")
        assert inner.is_set()
    assert not stop_requested(parent.array) and not parent.is_set()


@pytest.mark.parametrize("spec", ["alphabeta:depth=81,seconds=0.2", "mcts:seconds=0.2", "montecarlo:seconds=0.2"])
def test_a_search_stops_at_its_deadline_without_the_timer_thread(spec: str, monkeypatch) -> None:
    agent = create_agent(spec, seed=1)
    board = Board.from_moves("4453")
    agent.prepare(board.geometry)
    monkeypatch.setattr("engine.stop.threading.Timer", _IdleTimer)
    started = time.perf_counter()
    agent.choose(board)
    assert time.perf_counter() - started < 5  # without the deadline in the flag it would search on for minutes
