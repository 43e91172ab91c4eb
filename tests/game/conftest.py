"""Headless game tests: real scenes and real posted pygame events, with a clock the test moves.

Every test gets its own settings file (never the player's) and a
:class:`Driver` that posts events and advances the game frame by frame. The
game's time is a manual clock, so animations and pacing take the same number
of frames on every machine; agents still run on the real worker thread.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import create_agent
from engine.board import Board
from engine.stop import StopFlag
from game.app import App
from game.display import Display
from game.keys import DOUBLE_CLICK_SECONDS
from game.options import Options
from tests.waiting import wait_until

FRAME = 1 / 30  # game seconds per test frame


class ManualClock:
    def __init__(self) -> None:
        self.time = 0.0

    def __call__(self) -> float:
        return self.time


class Driver:
    """Plays the app like a person: posts events, then lets a frame run."""

    def __init__(self, app: App, clock: ManualClock) -> None:
        self.app, self.clock = app, clock
        self._last_click: tuple[float, tuple[int, int]] | None = None

    @property
    def scene(self):
        return self.app.scene

    def step(self, frames: int = 1) -> None:
        for _ in range(frames):
            self.clock.time += FRAME
            self.app.step()

    def run_until(self, condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
        """Run frames until ``condition()`` (real-time ``timeout``: agents think in real time); between two
        frames the worker thread gets the processor."""
        wait_until(condition, timeout, what, every=0.001, step=self.step)

    def key(self, key: int, mod: int = 0, unicode: str = "") -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=unicode, scancode=0))
        self.step()

    def hold(self, key: int, repeats: int = 3) -> None:
        """Hold a key down long enough for the keyboard to repeat it ``repeats`` times, one a frame."""
        for _ in range(repeats + 1):  # pygame repeats a held key as more KEYDOWNs before the one KEYUP
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
            self.step()
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))
        self.step()

    def text(self, text: str) -> None:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
        self.step()

    def click(self, pos: tuple[float, float]) -> None:
        """A single click: a second one on the same spot comes after a double click's interval."""
        pos = (round(pos[0]), round(pos[1]))
        if self._last_click is not None and self._last_click[1] == pos:
            self.clock.time = max(self.clock.time, self._last_click[0] + DOUBLE_CLICK_SECONDS)
        self._last_click = (self.clock.time, pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        self.step()

    def press(self, widget) -> None:
        """Click the middle of a control."""
        self.click(widget.rect.center)

    def focus(self, widget) -> None:
        """Click a control's label (left edge): it takes the keyboard focus and changes nothing."""
        self.click((widget.rect.x + 3, widget.rect.centery))

    def click_column(self, column: int) -> None:
        """Click the space above a column of the board on the match screen."""
        self.click(self.scene.view.board.cell_centre(column, self.scene.view.board.hand_row))

    def wait_for_catalog(self) -> None:
        self.step()
        assert self.app.catalog.wait(30), "the engine did not load"

    def settle(self) -> None:
        """Let falling discs land."""
        self.run_until(lambda: self.scene_of_type("MatchScene").turns.animations.idle, what="discs to land")

    def scene_of_type(self, name: str):
        return next(scene for scene in reversed(self.app.scenes) if type(scene).__name__ == name)


# -- agents for the tests ---------------------------------------------------------------------
@dataclass
class SlowAgent(Agent):
    """Thinks until stopped (or ``seconds``), then plays its first legal column; records what happened."""

    seconds: float = 30.0
    started: threading.Event = field(default_factory=threading.Event, compare=False)
    stopped: threading.Event = field(default_factory=threading.Event, compare=False)
    calls: int = 0

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        self.calls += 1
        self.started.set()
        end = time.monotonic() + self.seconds
        while time.monotonic() < end:
            if stop.is_set():
                self.stopped.set()
                break
            time.sleep(0.002)
        return SearchResult(column=board.legal_columns()[0], nodes=1)


@dataclass
class FailingAgent(Agent):
    """An agent with a bug."""

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        raise RuntimeError("boom")


@dataclass
class WrongColumnAgent(Agent):
    """An agent that answers a column that is not on the board."""

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        return SearchResult(column=99)


def factory(agents: dict[str, Agent]) -> Callable[[str], Agent]:
    """``make_agent`` for the app: the given test agents by name, the engine's agents otherwise."""
    return lambda spec: agents[spec] if spec in agents else create_agent(spec)


@pytest.fixture
def settings_file(tmp_path, monkeypatch):
    path = tmp_path / "config" / "settings.json"
    monkeypatch.setenv("CONNECT_FOUR_SETTINGS", str(path))
    monkeypatch.setenv("CONNECT_FOUR_GAMES", str(tmp_path / "games"))  # saved games stay in the test's folder
    return path


@pytest.fixture
def start(settings_file):
    """``start(options=None, agents=None, display=None, **settings) -> Driver``: a small window, settings as given."""
    apps: list[App] = []

    def make(
        options: Options | None = None, agents: dict[str, Agent] | None = None, display: Display | None = None, **values
    ) -> Driver:
        settings_file.parent.mkdir(parents=True, exist_ok=True)
        data = {"window_width": 800, "window_height": 600, **values}
        settings_file.write_text(json.dumps(data), encoding="utf-8")
        clock = ManualClock()
        app = App(
            options,
            settings_path=settings_file,
            agent_factory=factory(agents or {}),
            clock=clock,
            fps=0,
            warm_up=False,
            display=display,
        )
        apps.append(app)
        return Driver(app, clock)

    yield make
    for app in apps:
        app.close()
