"""Frames: what the next one draws (the whole window, or only what changed), their pace, and their statistics.

The app draws a frame only when something changed or moves, and then only
the parts that changed when it can (:class:`Redraw`); it shows frames on a
fixed schedule (:class:`FramePacer`) and counts them for ``--frame-stats``
and ``--frame-log`` (:class:`FrameStats`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from game.scene import Scene

#: A still screen is redrawn this often anyway (seconds), in case a change was not announced.
IDLE_REDRAW = 1.0


class Redraw:
    """What the next frame must draw: announced by ``whole()`` and ``add(area)``, asked by the frame loop."""

    def __init__(self) -> None:
        self.dirty = True  # the next frame must be drawn whole
        self.parts: list[pygame.Rect] = []  # parts that changed since the last frame (see App.invalidate)
        self._animated_before: list[pygame.Rect] | None = None  # what animated at the last frame (None: anything)
        self._drawn_at = -IDLE_REDRAW

    def whole(self) -> None:
        self.dirty = True

    def add(self, area: list[pygame.Rect]) -> None:
        self.parts += area

    def due(self, now: float, scenes: Sequence[Scene]) -> bool:
        """Whether a frame is to be drawn now: something changed, moves, or the screen was still too long."""
        return (
            self.dirty
            or bool(self.parts)
            or now - self._drawn_at >= IDLE_REDRAW
            or any(scene.animating() for scene in scenes)
        )

    def area(self, now: float, scenes: Sequence[Scene], window: pygame.Rect) -> list[pygame.Rect] | None:
        """The parts of the window that may differ from the last frame, or None for all of it.

        A frame is partial when nothing but animations and announced parts
        (:meth:`add`) changed: the scenes' animated parts now and at the last
        frame (a disc that just landed is shown where it stopped), and the
        announced parts.
        """
        area: list[pygame.Rect] | None = []
        for scene in scenes:
            if scene.animating():
                parts = scene.animated_area()
                area = None if parts is None or area is None else area + parts
        before, self._animated_before = self._animated_before, area
        if area is None or before is None or self.dirty or now - self._drawn_at >= IDLE_REDRAW:
            return None
        return distinct(area + before + self.parts, window)

    def drawn(self, now: float) -> None:
        """A frame was shown: nothing is announced any more."""
        self.dirty, self.parts, self._drawn_at = False, [], now


def share(area: list[pygame.Rect] | None, size: tuple[int, int]) -> float:
    """About how much of a window of ``size`` ``area`` (within it) covers: overlaps count twice, at most 1."""
    if area is None:
        return 1.0
    width, height = size
    return min(1.0, sum(rect.width * rect.height for rect in area) / max(1, width * height))


def distinct(area: list[pygame.Rect], window: pygame.Rect) -> list[pygame.Rect]:
    """``area`` within the window, without empty rectangles or those inside another (each is shown once)."""
    rects = [clipped for clipped in (rect.clip(window) for rect in area) if clipped.width and clipped.height]
    return [
        rect
        for index, rect in enumerate(rects)  # of equal rectangles the first is kept
        if not any(other.contains(rect) and (other != rect or j < index) for j, other in enumerate(rects) if j != index)
    ]


@dataclass(frozen=True)
class FrameRecord:
    """One frame, as ``--frame-log`` writes it: what was shown and where its time went (milliseconds)."""

    interval_ms: float | None  # since the previous frame was shown (None: the screen was still before it)
    whole: bool  # the whole window was shown (else only the parts that changed)
    shown: float  # the share of the window's pixels drawn and shown, 0 to 1
    work_ms: float  # input and updates, before drawing
    draw_ms: float
    show_ms: float  # handing the picture to the display (flip or update)

    HEADER = "interval_ms,kind,shown,work_ms,draw_ms,show_ms"

    def csv(self) -> str:
        interval = "" if self.interval_ms is None else f"{self.interval_ms:.2f}"
        kind = "whole" if self.whole else "partial"
        return f"{interval},{kind},{self.shown:.3f},{self.work_ms:.2f},{self.draw_ms:.2f},{self.show_ms:.2f}"


class FrameStats:
    """Time between consecutive frames, as ``--frame-stats`` reports it; every frame's record for ``--frame-log``."""

    def __init__(self) -> None:
        self.frames = 0
        self.intervals_ms: list[float] = []
        self.records: list[FrameRecord] = []
        self._last: float | None = None

    def tick(self, whole: bool = True, shown: float = 1.0, times: tuple[float, float, float] = (0, 0, 0)) -> None:
        """A frame was shown; ``times``: how long its work, drawing and showing took (seconds)."""
        self.frames += 1
        now = time.perf_counter()
        interval = None if self._last is None else (now - self._last) * 1000.0
        if interval is not None:
            self.intervals_ms.append(interval)
        self._last = now
        work, draw, show = (seconds * 1000.0 for seconds in times)
        self.records.append(FrameRecord(interval, whole, shown, work, draw, show))

    def write_log(self, path: Path) -> None:
        """Every frame's record as CSV, for finding where late frames come from."""
        lines = [FrameRecord.HEADER, *(record.csv() for record in self.records)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def report(self, summary: bool, log: Path | None) -> None:
        """At exit: the summary line on standard output (``--frame-stats``), every frame to ``log``."""
        if summary:
            print(self.summary(), flush=True)
        if log is not None:
            try:
                self.write_log(log)
            except OSError as exc:
                print(f"error: could not write the frame log: {exc}", file=sys.stderr, flush=True)

    def still(self) -> None:
        """A frame was not drawn (nothing changed): the wait until the next one is not a frame time."""
        self._last = None

    def summary(self) -> str:
        times = sorted(self.intervals_ms)
        if not times:
            return f"frames {self.frames}, median 0.0 ms, p99 0.0 ms"
        median = times[len(times) // 2] if len(times) % 2 else (times[len(times) // 2 - 1] + times[len(times) // 2]) / 2
        p99 = times[min(len(times) - 1, max(0, round(0.99 * len(times)) - 1))]
        return f"frames {self.frames}, median {median:.1f} ms, p99 {p99:.1f} ms"


class FramePacer:
    """Waits for the next frame on a fixed schedule (60 per second).

    Each frame is due one period after the previous *due time*, not after the
    previous wake-up, so a late frame is made up by a shorter wait and the
    rate does not drift. It sleeps: polling the clock for the last moment
    would buy little precision on a busy machine and cost a core on an idle one.
    """

    #: How long after its due time a frame is shown: drawing takes 1 to 8 ms depending on what
    #: changed, and showing each frame when it is drawn would pass that unevenness on to the eye.
    PRESENT_DELAY = 0.008

    def __init__(self, fps: int) -> None:
        self.period = 1.0 / fps
        self.due = time.perf_counter() + self.period
        self._started = time.perf_counter()  # the due time of the frame being made

    def wait(self) -> None:
        """Sleep until the next frame is due."""
        remaining = self.due - time.perf_counter()
        if remaining > 0:
            time.sleep(remaining)
        now = time.perf_counter()
        self._started = self.due
        self.due += self.period
        if self.due < now:  # more than a frame behind: start afresh rather than rush to catch up
            self._started, self.due = now, now + self.period

    def wait_to_present(self) -> None:
        """Sleep until this frame's moment to be shown, a fixed delay after it was due.

        Like a display's vertical sync: frames appear at an even pace whether
        they took 1 or 7 ms to draw (one that took longer is shown at once).
        """
        remaining = self._started + self.PRESENT_DELAY - time.perf_counter()
        if remaining > 0:
            time.sleep(remaining)
