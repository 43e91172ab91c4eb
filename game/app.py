"""The application: the window, the stack of scenes and the frame loop.

Each frame: read the input events (the top scene gets them, through the
:class:`~game.keys.KeyFilter`), advance the visible scenes in fixed time
steps, and draw them bottom-up - but only when something changed or moves:
an input event, a new screen, a toast, a scene that says it is animating
(:meth:`Scene.animating`) or asks for it (:meth:`App.invalidate`), or news
from the engine's loading thread. A screen where nothing happens is not
redrawn, and the loop sleeps between frames instead of spinning, so an idle
game costs almost nothing. Only this thread touches pygame; agents run on the
:class:`~game.worker.Worker` thread and the engine is loaded and warmed up by
the :class:`~game.catalog.Catalog` thread, which starts after the first frame
so that the window shows up at once (so does the audio device).

A few keys work on every screen (:meth:`App.global_key`): F11 full screen,
F1 or ? the shortcuts, F2 the settings, M the sound on and off.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game import drawing, screens, settings
from game.analysis_process import AnalysisProcess
from game.bindings import CTRL, FORM, GLOBAL, Card, card
from game.catalog import Catalog
from game.display import Display
from game.display import prepare as prepare_display
from game.keys import KeyFilter
from game.model import Colour
from game.options import Options
from game.scene import Scene
from game.sound import Sounds
from game.tally import Tally
from game.theme import (
    BACKGROUND_BOTTOM,
    BACKGROUND_TOP,
    DANGER,
    DISC,
    MIN_WINDOW,
    PANEL_LIGHT,
    TEXT,
    Theme,
    use_look,
)
from game.widgets import TextField
from game.worker import Worker

if TYPE_CHECKING:
    from engine.agents.base import Agent
    from engine.geometry import Geometry

STEP = 1 / 120  # seconds per fixed update step
MAX_FRAME_TIME = 0.25  # a longer pause (a dragged window) is not caught up step by step
#: A still screen is redrawn this often anyway (seconds), in case a change was not announced.
IDLE_REDRAW = 1.0
#: SDL's video drivers that show no window: fine when asked for by name (tests, screenshots), never by chance.
HEADLESS_DRIVERS = frozenset({"dummy", "offscreen"})


class NoDisplayError(pygame.error):
    """There is no display to open the window on (a pygame error, as a failing video driver raises)."""


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


class Toast:
    """A short message over every screen (a settings problem, a failed save)."""

    def __init__(self, text: str, error: bool, seconds: float) -> None:
        self.text, self.error, self.remaining = text, error, seconds


class App:
    """The window and its scenes; :meth:`run` is the game."""

    def __init__(
        self,
        options: Options | None = None,
        *,
        settings_path: Path | None = None,
        agent_factory: Callable[[str], Agent] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        fps: int = 60,
        warm_up: bool = True,
        display: Display | None = None,
    ) -> None:
        # A search written in plain Python holds the interpreter lock; asking it to hand the lock
        # over every millisecond (instead of every 5) keeps the frames coming while it thinks.
        sys.setswitchinterval(0.001)
        self.options = options or Options()
        self.settings_path = settings_path
        self.settings, problem = settings.load(settings_path)
        self._apply_command_line()
        # draw at the screen's real resolution, never stretched (Windows and macOS: see game.display)
        prepare_display()
        pygame.display.init()
        # Without a usable display SDL falls back to a driver that shows nothing; the game would then
        # run unseen until killed. That is only right when someone asked for it (tests, screenshots).
        self.headless = pygame.display.get_driver() in HEADLESS_DRIVERS
        if self.headless and os.environ.get("SDL_VIDEODRIVER", "").lower() not in HEADLESS_DRIVERS:
            driver = pygame.display.get_driver()
            pygame.quit()
            raise NoDisplayError(f"no display found (SDL fell back to its {driver!r} driver, which shows nothing)")
        pygame.font.init()
        pygame.key.set_repeat(300, 45)
        self.display = display or Display()
        self.screen = self.display.open(self._initial_size())
        self.display.set_title("Connect Four", make_icon())
        self.display.set_minimum_size(MIN_WINDOW)
        self.fullscreen = False
        self.theme = Theme()
        self.sounds = Sounds(self.settings.volume, self.settings.muted)
        self._apply_look()
        self.worker = Worker()
        # The live analysis and the game review: a child process below the players' priority, started
        # when first needed, so that its Python work never holds up a frame (see game.analysis_process).
        self.analysis_process = AnalysisProcess()
        self.catalog = Catalog()
        self.make_agent: Callable[[str], Agent] = agent_factory or self.catalog.create
        self.frame_stats = FrameStats()
        # the score between the current players, kept across matches and restarts
        restored = Tally.from_json(self.settings.tally)
        self.tally = restored or Tally()
        self.tally.listener = self._save_tally
        self.keys = KeyFilter()
        self.running = True
        self.closed = False
        self._warm_up = warm_up
        self._clock = clock
        self._pacer = FramePacer(fps) if fps else None
        self._last_time = clock()
        self._lag = 0.0
        self._stack: list[Scene] = []
        self._callbacks: dict[Scene, Callable[[Any], object]] = {}
        self._transitions: list[Callable[[], None]] = []
        self._toasts: list[Toast] = []
        self._background: pygame.Surface | None = None
        self._resized = False
        self._dirty = True  # the next frame must be drawn whole
        self._parts: list[pygame.Rect] = []  # parts that changed since the last frame (see invalidate)
        self._animated_before: list[pygame.Rect] | None = None  # what animated at the last frame (None: anything)
        self._drawn_at = -IDLE_REDRAW
        self._engine_news: tuple[object, ...] = ()
        self._settings_checked = False
        self._resize(self.screen.get_size())
        score = "The saved score was damaged: it starts again from zero." if restored is None else None
        for note in filter(None, (problem, score, *self.options.notes)):  # notes: a saved game's student seats
            self.notify(note, error=True)
        self._start_scenes()
        match = self.options.match
        if warm_up and match is not None:  # its players are known without the engine: their compiling starts now
            self.catalog.prepare_now()
            self.catalog.warm([player.spec for player in (match.red, match.yellow) if player.spec], match.geometry)

    # -- set-up -----------------------------------------------------------------------
    def _apply_command_line(self) -> None:
        for name in ("cols", "rows", "connect"):
            value = getattr(self.options, name)
            if value is not None:
                setattr(self.settings, name, value)

    def _initial_size(self) -> tuple[int, int]:
        size = self.settings.window_width, self.settings.window_height
        try:
            desktop = pygame.display.get_desktop_sizes()[0]
        except (pygame.error, IndexError):
            desktop = None
        return window_size(size, desktop)

    def _start_scenes(self) -> None:
        self._stack = [screens.make("menu", self)]
        self._stack[0].resize(self.screen.get_size())
        self._stack[0].enter()
        if self.options.match is not None:
            self.open("match", self.options.match)
            self._apply_transitions()

    # -- the screens, by name (changes take effect between phases of a frame) ----------------
    @property
    def scene(self) -> Scene:
        return self._stack[-1]

    @property
    def scenes(self) -> tuple[Scene, ...]:
        return tuple(self._stack)

    def open(self, name: str, *args: Any, callback: Callable[[Any], object] | None = None, **kwargs: Any) -> None:
        """Open the screen called ``name`` (see game.screens) on top, made with these arguments after the
        app; ``callback`` gets what it is dismissed with, once it has closed."""

        def apply() -> None:
            self._show(screens.make(name, self, *args, **kwargs), callback)

        self._transitions.append(apply)

    def push(self, scene: Scene, callback: Callable[[Any], object] | None = None) -> None:
        """Open a screen already made (a test's or a tool's); :meth:`open` makes it by name."""
        self._transitions.append(lambda: self._show(scene, callback))

    def _show(self, scene: Scene, callback: Callable[[Any], object] | None) -> None:
        self._stack.append(scene)
        if callback is not None:
            self._callbacks[scene] = callback
        scene.resize(self.screen.get_size())
        scene.enter()

    def dismiss(self, scene: Scene, result: Any = None) -> None:
        """Close ``scene`` if it is on top, then hand ``result`` to the callback it was opened with
        (the main menu has nothing below it, so it stays)."""

        def apply() -> None:
            if len(self._stack) > 1 and self._stack[-1] is scene:
                self._stack.pop().exit()
                self._stack[-1].resume()
                callback = self._callbacks.pop(scene, None)
                if callback is not None:
                    callback(result)

        self._transitions.append(apply)

    def pop(self) -> None:
        """Back one screen: the top one closes with no result."""
        self.dismiss(self.scene)

    def reset(self, *names: str) -> None:
        """Replace the whole stack by new screens of these names (the first is the bottom)."""

        def apply() -> None:
            while self._stack:
                self._stack.pop().exit()
            self._callbacks.clear()
            for name in names:
                self._show(screens.make(name, self), None)

        self._transitions.append(apply)

    def _apply_transitions(self) -> None:
        if not self._transitions:
            return
        while self._transitions:
            self._transitions.pop(0)()
        self.keys.screen_changed()
        self._dirty = True

    # -- services for scenes --------------------------------------------------------------------
    def notify(self, text: str, *, error: bool = False, seconds: float = 5.0) -> None:
        self._toasts.append(Toast(text, error, seconds))
        self._dirty = True

    def invalidate(self, area: list[pygame.Rect] | None = None) -> None:
        """Draw the next frame: a scene's state changed without an input event (a reply arrived).

        ``area``: the only parts of the window that changed; the frame then redraws
        and shows just those (unless something else asks for all of it).
        """
        if area is None:
            self._dirty = True
        else:
            self._parts += area

    @property
    def messages(self) -> list[str]:
        """The messages on screen now."""
        return [toast.text for toast in self._toasts]

    def save_settings(self) -> None:
        problem = settings.save(self.settings, self.settings_path)
        if problem:
            self.notify(problem, error=True)

    def _save_tally(self, tally: Tally) -> None:
        """Remember the score at once (only it: a match from the command line changes no other choice)."""
        self.settings.tally = tally.to_json()
        problem = settings.remember(self.settings_path, tally=self.settings.tally)
        if problem:
            self.notify(problem, error=True)

    def draw_background(self, surface: pygame.Surface) -> None:
        assert self._background is not None  # made with the window, before any drawing
        surface.blit(self._background, (0, 0))

    def quit(self) -> None:
        self.running = False

    # -- the frame loop -----------------------------------------------------------------------
    def run(self) -> int:
        """Play until the window is closed; returns the exit status."""
        try:
            while self.running:
                self.step()
        finally:
            self.close()
        return 0

    def step(self) -> None:
        """One frame: input, fixed-step updates, drawing if anything changed, then the wait."""
        began = time.perf_counter()
        now = self._clock()
        self._lag += min(now - self._last_time, MAX_FRAME_TIME)
        self._last_time = now
        for event in map(self.display.to_pixels, pygame.event.get()):  # the mouse in the surface's pixels
            if event.type == pygame.QUIT:
                self.running = False  # closing the window quits at once
                return
            self._dirty = True  # a hover, a key, a focus change: anything may show
            if event.type == pygame.VIDEORESIZE:
                self._resized = True  # laid out once, after all the events of this frame
                continue
            if self.keys.accept(event, now):
                if event.type == pygame.KEYDOWN and self.global_key(event):
                    self._apply_transitions()
                    continue
                self.scene.handle_event(event)
                self._apply_transitions()
        if self._resized:
            self.screen = self.display.surface
            self._resize(self.screen.get_size())
            self._resized = False
        news = self.catalog.news()  # read before the updates, which may act on it: no change is missed
        if news != self._engine_news:
            self._engine_news, self._dirty = news, True
            if self.catalog.ready and not self._settings_checked:
                self._check_settings()
        while self._lag >= STEP:
            self._lag -= STEP
            for scene in self._visible_scenes():
                scene.update(STEP)
            self._apply_transitions()
            for toast in self._toasts:
                toast.remaining -= STEP
        if any(toast.remaining <= 0 for toast in self._toasts):
            self._toasts = [toast for toast in self._toasts if toast.remaining > 0]
            self._dirty = True
        if self._must_draw(now):
            area = self._changed_area(now)
            drawing_began = time.perf_counter()
            self._draw(area)
            drawn = time.perf_counter()
            if self._pacer is not None:
                self._pacer.wait_to_present()
            showing_began = time.perf_counter()
            if area is None:
                self.display.flip()
            else:
                self.display.update(area)  # on a real display, showing less of the window costs less
            times = (drawing_began - began, drawn - drawing_began, time.perf_counter() - showing_began)
            self._dirty, self._parts, self._drawn_at = False, [], now
            for scene in self._visible_scenes():
                scene.shown(area)
            self.frame_stats.tick(area is None, self._share(area), times)
            if self.frame_stats.frames == 1:
                self._after_first_frame()
        else:
            self.frame_stats.still()
        if self._pacer is not None:
            self._pacer.wait()

    def _must_draw(self, now: float) -> bool:
        return (
            self._dirty
            or bool(self._parts)
            or now - self._drawn_at >= IDLE_REDRAW
            or any(scene.animating() for scene in self._visible_scenes())
        )

    def _check_settings(self) -> None:
        """Reset the saved choices that need the engine to check (the board, the agents) if they are wrong."""
        self._settings_checked = True
        if self.catalog.load_error:
            return
        bad = self.settings.repair_board() + self.settings.drop_file_agents()  # a student's file: data, never run
        for colour in Colour:
            spec = self.settings.agent(colour)
            if spec and self.catalog.check(spec) is not None:
                self.settings.set_agent(colour, "")
                bad.append(f"{colour.value}_agent")
        if bad:
            self.notify(f"Some saved settings were invalid and were reset: {', '.join(bad)}.", error=True)

    def _after_first_frame(self) -> None:
        if self.options.quit_after_first_frame:
            self.running = False
            return
        self.catalog.start(self._first_agents, warm=self._warm_up)
        self.sounds.start()

    def _first_agents(self) -> tuple[list[str], Geometry | None]:
        """The agents most likely to play first (warmed up first) and their board (None: nobody to guess)."""
        if self.options.match is not None:
            return [], None  # its players were asked for when the window opened
        settings, resolve = self.settings, self.catalog.resolve  # the players "Quick game" would start
        colours = (settings.first, settings.first.other)
        specs = [resolve(settings.agent(colour)) for colour in colours if not settings.is_human(colour)]
        return specs, settings.geometry()

    def _visible_scenes(self) -> list[Scene]:
        """The top scene and, under overlays, the scenes that still show."""
        start = len(self._stack) - 1
        while start > 0 and self._stack[start].overlay:
            start -= 1
        return self._stack[start:]

    def _changed_area(self, now: float) -> list[pygame.Rect] | None:
        """The parts of the window that may differ from the last frame, or None for all of it.

        A frame is partial when nothing but animations and announced parts
        (:meth:`invalidate` with an area) changed: the scenes' animated parts
        now and at the last frame (a disc that just landed is shown where it
        stopped), and the announced parts.
        """
        area: list[pygame.Rect] | None = []
        for scene in self._visible_scenes():
            if scene.animating():
                parts = scene.animated_area()
                area = None if parts is None or area is None else area + parts
        before, self._animated_before = self._animated_before, area
        if area is None or before is None or self._dirty or now - self._drawn_at >= IDLE_REDRAW:
            return None
        return distinct(area + before + self._parts, self.screen.get_rect())

    def _share(self, area: list[pygame.Rect] | None) -> float:
        """About how much of the window ``area`` (within it) covers: overlaps count twice, at most 1."""
        if area is None:
            return 1.0
        width, height = self.screen.get_size()
        return min(1.0, sum(rect.width * rect.height for rect in area) / max(1, width * height))

    def _draw(self, area: list[pygame.Rect] | None = None) -> None:
        """Draw the visible scenes and the messages, all of it or only within ``area``."""
        if area is not None:  # what lies outside is still on screen from the last frame
            self.screen.set_clip(area[0].unionall(area[1:]) if area else pygame.Rect(0, 0, 0, 0))
        try:
            for scene in self._visible_scenes():
                scene.draw(self.screen)
            self._draw_toasts()
        finally:
            self.screen.set_clip(None)

    def _draw_toasts(self) -> None:
        for toast, text, rect in self._toast_layout():
            drawing.panel(self.screen, rect, self.theme.px(10), PANEL_LIGHT, DANGER if toast.error else None, 2)
            self.screen.blit(text, text.get_rect(center=rect.center))

    def toast_rects(self) -> list[pygame.Rect]:
        """Where the messages on screen are drawn."""
        return [rect for _, _, rect in self._toast_layout()]

    def _toast_layout(self) -> list[tuple[Toast, pygame.Surface, pygame.Rect]]:
        """The newest message lowest, above what the scene keeps free (its buttons), older ones above it."""
        theme, (width, height) = self.theme, self.screen.get_size()
        y = min(height - theme.px(18), self.scene.toast_floor(height) - theme.px(8))
        placed = []
        for toast in reversed(self._toasts):
            text = theme.text(toast.text, 15, TEXT, wrap=min(width - theme.px(80), theme.px(760)))
            rect = text.get_rect().inflate(theme.px(36), theme.px(20))
            rect.midbottom = (width // 2, y)
            placed.append((toast, text, rect))
            y = rect.top - theme.px(8)
        return placed

    def _resize(self, size: tuple[int, int]) -> None:
        self.theme.resize(size)
        self._background = drawing.backdrop(size, BACKGROUND_TOP, BACKGROUND_BOTTOM)
        # the size to come back to (in points); a window nobody saw must not shrink the next real one
        if not self.headless and not self.fullscreen:
            self.settings.window_width, self.settings.window_height = self.display.window_size
        self._dirty = True
        for scene in self._stack:
            scene.resize(size)

    # -- keys of every screen, the look, the window ----------------------------------------------
    def global_key(self, event: pygame.event.Event) -> bool:
        """F11, F1/?, F2 and M, whatever the screen (see game.bindings.GLOBAL); True if the key was used."""
        return GLOBAL.dispatch(self, event)

    def shortcuts(self) -> Card:
        """Every key of the game, as the shortcuts card shows them."""
        return card([FORM, *screens.all_bindings(), GLOBAL])

    def menu_entries(self) -> list[tuple[str, str]]:
        """The screens with a button in the main menu's row: (name, button text)."""
        return screens.menu_entries()

    def show_shortcuts(self) -> None:
        self.open("shortcuts")

    def show_settings(self) -> None:
        self.open("settings")

    def toggle_mute(self) -> None:
        self.set_muted(not self.settings.muted)
        self.notify("Sound off (M turns it on)" if self.settings.muted else "Sound on", seconds=1.5)

    def shortcuts_closed(self, event: pygame.event.Event) -> bool:
        """The shortcuts card is not up (it closes on its keys itself)."""
        return self.scene.name != "shortcuts"

    def settings_closed(self, event: pygame.event.Event) -> bool:
        return self.shortcuts_closed(event) and self.scene.name != "settings"

    def not_typing(self, event: pygame.event.Event) -> bool:
        """No text field has the keyboard: a letter is a command."""
        typing = isinstance(getattr(getattr(self.scene, "form", None), "focused", None), TextField)
        return self.shortcuts_closed(event) and not typing

    def not_typing_a_command(self, event: pygame.event.Event) -> bool:
        return self.not_typing(event) and not event.mod & CTRL

    def set_muted(self, muted: bool) -> None:
        self.settings.muted = self.sounds.muted = muted
        self.save_preferences()

    def save_preferences(self) -> None:
        """Remember the settings screen's choices now, and nothing the command line chose."""
        if self.options.match is None:
            self.save_settings()
            return
        saved, _ = settings.load(self.settings_path)
        for name in settings.PREFERENCES:
            setattr(saved, name, getattr(self.settings, name))
        problem = settings.save(saved, self.settings_path)
        if problem:
            self.notify(problem, error=True)

    def settings_changed(self) -> None:
        """The settings screen changed something: apply it to the whole game now and remember it."""
        self.sounds.muted = self.settings.muted
        self.sounds.set_volume(self.settings.volume)
        self._apply_look()
        self._resize(self.screen.get_size())
        self.save_preferences()

    def _apply_look(self) -> None:
        use_look(self.settings.look, self.settings.colour_blind)
        self.theme.set_text_scale(self.settings.text_scale)

    def toggle_fullscreen(self) -> None:
        """Between the window (at its last size) and the whole screen."""
        self.fullscreen = not self.fullscreen
        self.screen = self.display.open(self._initial_size(), fullscreen=self.fullscreen)
        if not self.fullscreen:
            self.display.set_minimum_size(MIN_WINDOW)
        self._resize(self.screen.get_size())

    # -- the end ---------------------------------------------------------------------------
    def save_screenshot(self, path: Path) -> None:
        """Save the current state as a PNG (drawn afresh: a script may have changed it without input)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self._draw()
        pygame.image.save(self.screen, str(path))

    def close(self) -> None:
        """Stop every background search and leave; never waits more than a moment."""
        if self.closed:
            return
        self.closed = True
        if self.options.screenshot is not None:
            self.save_screenshot(self.options.screenshot)
        while self._stack:
            self._stack.pop().exit()
        self.worker.close()
        self.analysis_process.close()
        self.catalog.stop()
        self.sounds.stop()
        if self.options.match is None:  # a match from the command line does not change the saved choices
            settings.save(self.settings, self.settings_path)
        pygame.quit()
        if self.options.frame_stats:
            print(self.frame_stats.summary(), flush=True)
        if self.options.frame_log is not None:
            try:
                self.frame_stats.write_log(self.options.frame_log)
            except OSError as exc:
                print(f"error: could not write the frame log: {exc}", file=sys.stderr, flush=True)


def distinct(area: list[pygame.Rect], window: pygame.Rect) -> list[pygame.Rect]:
    """``area`` within the window, without empty rectangles or those inside another (each is shown once)."""
    rects = [clipped for clipped in (rect.clip(window) for rect in area) if clipped.width and clipped.height]
    return [
        rect
        for index, rect in enumerate(rects)  # of equal rectangles the first is kept
        if not any(other.contains(rect) and (other != rect or j < index) for j, other in enumerate(rects) if j != index)
    ]


def window_size(saved: tuple[int, int], desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The window to open: the saved size, within the screen and at least the smallest usable one.

    The default size (never changed by the player) grows on a high-resolution screen, so that a
    first start on a 4K monitor (whose pixels the game draws at full resolution) does not open a
    window a quarter of the usual apparent size.
    """
    width, height = saved
    if desktop is not None:
        default = (settings.Settings.window_width, settings.Settings.window_height)
        if saved == default and desktop[1] > 1200:
            factor = desktop[1] / 1080
            width, height = round(width * factor), round(height * factor)
        width, height = min(width, desktop[0] - 40), min(height, desktop[1] - 80)
    return max(MIN_WINDOW[0], width), max(MIN_WINDOW[1], height)


def make_icon(size: int = 64) -> pygame.Surface:
    """The window icon: a red and a yellow disc on a piece of blue board.

    ``assets/icon.png`` (the icon of the Linux .desktop file) is ``make_icon(256)``, saved with
    ``python -c "import pygame, game.app; pygame.image.save(game.app.make_icon(256), 'assets/icon.png')"``.
    """

    def at(value: float) -> int:
        return round(value * size / 64)

    icon = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(icon, (36, 92, 222), icon.get_rect(), border_radius=at(14))
    icon.blit(drawing.disc(DISC[Colour.RED], at(13)), (at(7), at(32)))
    icon.blit(drawing.disc(DISC[Colour.YELLOW], at(13)), (at(31), at(32)))
    icon.blit(drawing.disc(DISC[Colour.RED], at(13)), (at(31), at(7)))
    return icon
