"""The frame pacer: frames due on a fixed schedule, each shown a fixed delay after it was due."""

from __future__ import annotations

import itertools

import pytest

from game import frames as frames_module
from game.frames import FramePacer


class FakeTime:
    """perf_counter and sleep on a clock that only moves when slept on or told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(frames_module, "time", fake)
    return fake


def test_frames_are_shown_at_an_even_pace_however_long_they_took_to_draw(clock):
    pacer = FramePacer(60)
    shown = []
    for drawing in (0.001, 0.007, 0.002, 0.006, 0.001):
        pacer.wait()
        due = clock.now
        clock.now += drawing  # drawing the frame
        pacer.wait_to_present()
        shown.append(clock.now)
        assert clock.now == pytest.approx(due + FramePacer.PRESENT_DELAY)
    intervals = [later - earlier for earlier, later in itertools.pairwise(shown)]
    assert intervals == pytest.approx([1 / 60] * 4)


def test_a_frame_that_took_longer_than_the_delay_is_shown_at_once(clock):
    pacer = FramePacer(60)
    pacer.wait()
    clock.now += FramePacer.PRESENT_DELAY + 0.004
    before = clock.now
    pacer.wait_to_present()
    assert clock.now == before
