"""The analysis process from the game's side: a child at the lowest priority, restarted if it dies, ended on close."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from engine.board import Board
from engine.geometry import Geometry
from game.analysis_process import AnalysisProcess
from game.jobs import Job, Lane
from tests.waiting import wait_until


@pytest.fixture
def service():
    service = AnalysisProcess()
    yield service
    service.close()


def test_the_analysis_runs_in_a_child_process_below_the_game(service):
    lane: Lane = Lane(service)
    assert service.pid is None  # nothing started before the first job
    job = lane.keep("4444", Board.from_moves("4444"), kind="analyze")
    wait_until(lambda: job.finished, what="the analysis")
    assert job.error is None and job.latest.finished
    assert service.pid not in (None, os.getpid())
    if sys.platform.startswith("linux"):
        assert os.getpriority(os.PRIO_PROCESS, service.pid) == 19


def test_a_new_job_stops_the_old_one_and_only_its_items_count(service):
    lane: Lane = Lane(service)
    old = lane.keep("74677651", Board.from_moves("74677651"), kind="analyze")  # off the book: seconds of solving
    assert lane.keep("74677651", Board.from_moves("74677651"), kind="analyze") is old  # the same position: the same job
    wait_until(lambda: old.latest is not None and old.latest.stage == "solve", what="the solver at work")
    new = lane.keep("14", Board.from_moves("14"), kind="analyze")
    assert old.cancelled and new.number > old.number
    wait_until(lambda: old.finished, timeout=10, what="the old job to stop")
    count = len(old.items)
    assert not old.latest.finished and lane.current is new
    wait_until(lambda: new.latest is not None, what="the new job")
    # (The child answers in order, one job at a time: whatever the old job sent came before this.)
    assert len(old.items) == count  # nothing more arrived for the stopped job
    lane.cancel()
    assert lane.current is None


def test_a_child_that_dies_is_reported_and_replaced(service):
    lane: Lane = Lane(service)
    job = lane.keep("74677651", Board.from_moves("74677651"), kind="analyze")  # seconds of solving: killed midway
    wait_until(lambda: service.pid is not None and job.latest is not None, what="the first snapshot")
    os.kill(service.pid, signal.SIGKILL)
    wait_until(lambda: job.finished, timeout=10, what="the end to be noticed")
    assert "analysis process ended" in job.error
    again = lane.keep("4444", Board.from_moves("4444"), kind="analyze")  # the next job starts a new child
    wait_until(lambda: again.finished, what="the new child's answer")
    assert again.error is None and again.latest.finished


def test_close_ends_the_child_and_refuses_later_jobs():
    service = AnalysisProcess()
    box: Job = Job("analyze", "4444")
    service.start(box, Board.from_moves("4444"))
    pid = service.pid
    service.close()
    assert service.pid is None
    wait_until(lambda: box.finished, timeout=10, what="the job to end with its process")
    later: Job = Job("analyze", "44")
    service.start(later, Board.from_moves("44"))
    assert later.finished and later.error == "the game is closing"

    def gone() -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False

    wait_until(gone, timeout=10, what="the child to be gone")


@pytest.mark.slow  # two children start (7 s on a loaded 2-core machine); the fast sample is the next test
def test_an_idle_child_ends_and_the_next_job_starts_another(service):
    """Its memory (200 MB and more) goes back to the system when nobody asked for a while."""
    service.idle_seconds = 0.5
    service.solve_seconds = 3.0  # a column of the solve stage takes 1 s at most, twice the idle time
    lane: Lane = Lane(service)
    job = lane.keep("4444", Board.from_moves("4444"), kind="analyze")
    wait_until(lambda: job.finished and service.pid is not None, what="the analysis")
    first = service.pid
    # A long job: no column of the empty 8x8 board is solved in a second, so each takes its whole second.
    busy = lane.keep("8x8", Board(Geometry(8, 8, 4)), kind="analyze")
    solving = lambda: [item for item in busy.items if item.stage == "solve"]  # noqa: E731
    wait_until(lambda: len(solving()) >= 2 or busy.finished, 120, "the solve stage's second column")
    assert service.pid == first and not busy.finished  # a second of work under way: the child stayed
    lane.cancel()  # stopped: now it has nothing to do
    wait_until(lambda: service.pid is None, timeout=10, what="the idle child to end")
    if sys.platform.startswith("linux"):
        wait_until(lambda: not os.path.exists(f"/proc/{first}"), timeout=10, what="the process to be gone")
    assert busy.finished and busy.error is None  # (ended before the child did: nothing reported as a failure)
    again = lane.keep("4444", Board.from_moves("4444"), kind="analyze")
    wait_until(lambda: again.finished, what="the new child's answer")
    assert again.error is None and again.latest.finished and service.pid not in (None, first)


def test_jobs_skipped_for_a_newer_one_do_not_keep_the_idle_child_alive(service):
    """The child skips the jobs a newer one replaced before they began (it says nothing of them): they must
    not count as under way, or the child would never be idle."""
    service.idle_seconds = 0.5
    lane: Lane = Lane(service)
    jobs = [lane.keep(moves, Board.from_moves(moves), kind="analyze") for moves in ("1", "12", "123", "1234", "4444")]
    wait_until(lambda: jobs[-1].finished, what="the newest job")
    assert jobs[-1].error is None and jobs[-1].latest.finished
    assert all(job.finished for job in jobs)  # the skipped ones too (nobody reads them: they were cancelled)
    wait_until(lambda: service.pid is None, timeout=10, what="the idle child to end")
