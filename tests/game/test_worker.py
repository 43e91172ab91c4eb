"""The worker thread on its own: only the latest request is ever answered."""

from __future__ import annotations

import threading
import time

import pytest

from game.worker import Worker


@pytest.fixture
def worker():
    worker = Worker()
    yield worker
    worker.close()


def wait_for_reply(worker: Worker, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        reply = worker.poll()
        if reply is not None:
            return reply
        time.sleep(0.005)
    raise AssertionError("no reply")


def searching_until_stopped(started: threading.Event, stopped: threading.Event, answer: str):
    """A job that runs until its stop flag is set, like a search with no limit."""

    def search(stop):
        started.set()
        while not stop.is_set():
            time.sleep(0.001)
        stopped.set()
        return answer

    return search


def test_a_reply_arrives_once(worker):
    number = worker.submit(lambda stop: 42)
    reply = wait_for_reply(worker)
    assert (reply.request, reply.value, reply.error) == (number, 42, None)
    assert worker.poll() is None and not worker.busy


def test_a_new_request_stops_the_old_one_and_its_answer_is_dropped(worker):
    started, stopped = threading.Event(), threading.Event()
    worker.submit(searching_until_stopped(started, stopped, "stale"))
    assert started.wait(5)
    second = worker.submit(lambda stop: "fresh")
    assert stopped.wait(1)
    reply = wait_for_reply(worker)
    assert (reply.request, reply.value) == (second, "fresh")


def test_cancel_means_no_reply_at_all(worker):
    started, stopped = threading.Event(), threading.Event()
    worker.submit(searching_until_stopped(started, stopped, "late"))
    assert started.wait(5)
    worker.cancel()
    assert stopped.wait(1)
    finished = threading.Event()
    worker.run_later(finished.set)  # runs after the cancelled search has returned
    assert finished.wait(5)
    assert worker.poll() is None and not worker.busy


def test_an_exception_becomes_a_one_line_error_and_the_worker_goes_on(worker):
    def broken(stop):
        raise ZeroDivisionError("division by zero")

    worker.submit(broken)
    reply = wait_for_reply(worker)
    assert reply.value is None
    assert reply.error.startswith("ZeroDivisionError: division by zero (test_worker.py, line ")
    worker.submit(lambda stop: "still working")
    assert wait_for_reply(worker).value == "still working"


def test_chores_run_in_order_with_requests(worker):
    order = []
    worker.run_later(lambda: order.append("new game"))
    worker.submit(lambda stop: order.append("search"))
    worker.run_later(lambda: order.append("close"))
    wait_for_reply(worker)
    done = threading.Event()
    worker.run_later(done.set)
    assert done.wait(5)
    assert order == ["new game", "search", "close"]


def test_a_failing_chore_does_not_stop_the_worker(worker):
    worker.run_later(lambda: 1 / 0)
    worker.submit(lambda stop: "alive")
    assert wait_for_reply(worker).value == "alive"
