"""The background-work API on the worker thread: numbered jobs, the newest cancels the older, stale answers dropped."""

from __future__ import annotations

import threading
import time

import pytest

from game.jobs import Job, JobState, Kind, Lane
from game.worker import Worker
from tests.waiting import wait_until


@pytest.fixture
def worker():
    worker = Worker()
    yield worker
    worker.close()


@pytest.fixture
def lane(worker):
    return Lane(worker)


def wait_for_answer(lane: Lane, timeout: float = 5.0) -> Job:
    return wait_until(lane.poll, timeout, "an answer", every=0.005)


def searching_until_stopped(started: threading.Event, stopped: threading.Event, answer: str):
    """Work that runs until its job's stop flag is set, like a search with no limit."""

    def search(job):
        started.set()
        while not job.stop.is_set():
            time.sleep(0.001)
        stopped.set()
        return answer

    return search


def test_an_answer_is_handed_over_once(lane):
    asked = lane.submit(lambda job: 42, kind="move")
    job = wait_for_answer(lane)
    assert job is asked and (job.value, job.error, job.kind) == (42, None, "move")
    assert lane.poll() is None and lane.current is None


def test_every_job_has_its_own_number(lane, worker):
    other = Lane(worker)
    numbers = [lane.submit(lambda job: 1).number, other.submit(lambda job: 2).number, lane.submit(lambda job: 3).number]
    assert len(set(numbers)) == 3 and numbers == sorted(numbers)


def test_a_new_request_stops_the_old_one_and_its_answer_is_dropped(lane):
    started, stopped = threading.Event(), threading.Event()
    old = lane.submit(searching_until_stopped(started, stopped, "stale"))
    assert started.wait(5)
    second = lane.submit(lambda job: "fresh")
    assert stopped.wait(1) and old.cancelled
    job = wait_for_answer(lane)
    assert job is second and job.value == "fresh"
    wait_until(lambda: old.finished, 5, "the stale search to end", every=0.005)
    assert old.value == "stale" and lane.poll() is None  # it ended, but nobody is handed the stale answer


def test_cancel_means_no_answer_at_all(lane, worker):
    started, stopped = threading.Event(), threading.Event()
    lane.submit(searching_until_stopped(started, stopped, "late"))
    assert started.wait(5)
    lane.cancel()
    assert stopped.wait(1)
    finished = threading.Event()
    worker.run_later(finished.set)  # runs after the cancelled search has returned
    assert finished.wait(5)
    assert lane.poll() is None and lane.current is None


def test_a_job_cancelled_while_queued_never_runs(lane, worker):
    gate, ran = threading.Event(), []
    worker.run_later(gate.wait)  # the thread is busy until the gate opens
    first = lane.submit(lambda job: ran.append("first"))
    lane.submit(lambda job: ran.append("second"))
    assert first.cancelled
    gate.set()
    wait_for_answer(lane)
    assert ran == ["second"]


def test_work_reports_what_it_finds_on_the_way(lane):
    go_on = threading.Event()

    def work(job):
        job.report("preparing")
        go_on.wait(5)
        job.report("searching")
        return "column 4"

    job = lane.submit(work, items=("asked",))
    wait_until(lambda: job.latest == "preparing", 5, "the first report", every=0.005)
    assert job.items == ["asked", "preparing"] and not job.finished
    go_on.set()
    assert wait_for_answer(lane).items == ["asked", "preparing", "searching"]


def test_an_exception_becomes_a_one_line_error_and_the_worker_goes_on(lane):
    def broken(job):
        raise ZeroDivisionError("division by zero")

    lane.submit(broken)
    job = wait_for_answer(lane)
    assert job.value is None
    assert job.error.startswith("ZeroDivisionError: division by zero (test_worker.py, line ")
    lane.submit(lambda job: "still working")
    assert wait_for_answer(lane).value == "still working"


def test_chores_run_in_order_with_jobs(lane, worker):
    order = []
    worker.run_later(lambda: order.append("new game"))
    lane.submit(lambda job: order.append("search"))
    worker.run_later(lambda: order.append("close"))
    wait_for_answer(lane)
    done = threading.Event()
    worker.run_later(done.set)
    assert done.wait(5)
    assert order == ["new game", "search", "close"]


def test_a_failing_chore_does_not_stop_the_worker(lane, worker):
    worker.run_later(lambda: 1 / 0)
    lane.submit(lambda job: "alive")
    assert wait_for_answer(lane).value == "alive"


def test_closing_stops_what_runs(worker):
    started, stopped = threading.Event(), threading.Event()
    job = Lane(worker).submit(searching_until_stopped(started, stopped, "never read"))
    assert started.wait(5)
    worker.close()
    assert stopped.wait(1) and job.cancelled


def test_a_job_is_in_one_state_at_a_time(lane):
    """Pending, then running, then an answer or an error; a cancelled one is cancelling until its work ends."""
    go_on, started = threading.Event(), threading.Event()

    def work(job):
        started.set()
        go_on.wait(5)
        return "column 4"

    job = lane.submit(work)
    assert job.state in (JobState.PENDING, JobState.RUNNING)
    assert started.wait(5) and job.state is JobState.RUNNING
    go_on.set()
    assert wait_for_answer(lane) is job and job.state is JobState.SUCCESS and job.finished

    failing = lane.submit(lambda job: 1 // 0)
    assert wait_for_answer(lane) is failing and failing.state is JobState.ERROR and "ZeroDivisionError" in failing.error

    started.clear()
    stopped = threading.Event()
    running = lane.submit(searching_until_stopped(started, stopped, "late"))
    assert started.wait(5)
    lane.cancel()
    assert running.cancelled and running.state in (JobState.CANCELLING, JobState.CANCELLED)
    wait_until(lambda: running.finished, 5, "the cancelled search to end")
    assert running.state is JobState.CANCELLED and running.value == "late"


def test_a_move_waiting_for_its_kernels_is_preparing_until_its_search_starts(lane):
    kernels = threading.Event()

    def move(job):
        kernels.wait(5)
        job.prepared()
        return "column 4"

    job = lane.submit(move, kind=Kind.MOVE, preparing=True)
    wait_until(lambda: job.state is JobState.PREPARING, 5, "the move to wait")  # (the worker leaves it so)
    kernels.set()
    assert wait_for_answer(lane) is job and job.state is JobState.SUCCESS
