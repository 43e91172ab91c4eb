"""The analysis process from the game's side: a child at the lowest priority, restarted if it dies, ended on close."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from engine.board import Board
from game.analysis_process import AnalysisProcess
from game.feed import Box, Feed


def wait_until(condition, timeout: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


@pytest.fixture
def service():
    service = AnalysisProcess()
    yield service
    service.close()


def test_the_analysis_runs_in_a_child_process_below_the_game(service):
    feed: Feed = Feed(service, "analyse")
    assert service.pid is None  # nothing started before the first job
    feed.start("4444", Board.from_moves("4444"))
    wait_until(lambda: feed.box.finished, what="the analysis")
    assert feed.box.error is None and feed.box.latest.finished
    assert service.pid not in (None, os.getpid())
    if sys.platform.startswith("linux"):
        assert os.getpriority(os.PRIO_PROCESS, service.pid) == 19


def test_a_new_job_stops_the_old_one_and_only_its_items_count(service):
    feed: Feed = Feed(service, "analyse")
    feed.start("1", Board.from_moves("1"))
    old = feed.box
    wait_until(lambda: old.latest is not None and old.latest.stage == "solve", what="the solver at work")
    feed.start("14", Board.from_moves("14"))
    wait_until(lambda: old.finished, timeout=10, what="the old job to stop")
    count = len(old.items)
    assert not old.latest.finished and feed.box is not old
    wait_until(lambda: feed.box.latest is not None, what="the new job")
    time.sleep(0.2)
    assert len(old.items) == count  # nothing more arrives for the stopped job
    feed.stop()
    assert feed.box is None


def test_a_child_that_dies_is_reported_and_replaced(service):
    feed: Feed = Feed(service, "analyse")
    feed.start("1", Board.from_moves("1"))
    box = feed.box
    wait_until(lambda: service.pid is not None and box.latest is not None, what="the first snapshot")
    os.kill(service.pid, signal.SIGKILL)
    wait_until(lambda: box.finished, timeout=10, what="the end to be noticed")
    assert "analysis process ended" in box.error
    feed.start("4444", Board.from_moves("4444"))  # the next job starts a new child
    wait_until(lambda: feed.box.finished, what="the new child's answer")
    assert feed.box.error is None and feed.box.latest.finished


def test_close_ends_the_child_and_refuses_later_jobs():
    service = AnalysisProcess()
    box: Box = Box("4444")
    service.submit("analyse", Board.from_moves("4444"), box)
    pid = service.pid
    service.close()
    assert service.pid is None
    wait_until(lambda: box.finished, timeout=10, what="the job to end with its process")
    later: Box = Box("44")
    service.submit("analyse", Board.from_moves("44"), later)
    assert later.finished and later.error == "the game is closing"

    def gone() -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False

    wait_until(gone, timeout=10, what="the child to be gone")
