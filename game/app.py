"""The application: the window, the services every screen uses, the screens and the frame loop.

Each frame: read the input events (the top screen gets them, through the
:class:`~game.keys.KeyFilter`, after the keys of every screen of
:mod:`game.everywhere`), advance the visible screens in fixed time steps,
and draw them bottom-up - but only when something changed or moves
(:mod:`game.frames`): an input event, a new screen, a message, a screen that
says it is animating (:meth:`Scene.animating`) or asks for it
(:meth:`App.invalidate`), or news from the engine's loading thread. A screen
where nothing happens is not redrawn, and the loop sleeps between frames
instead of spinning, so an idle game costs almost nothing. Screens are
opened by name (:mod:`game.screens`) on the app's :class:`~game.stack.ScreenStack`.
Only this thread touches pygame; background work (:mod:`game.jobs`) runs on
the :class:`~game.worker.Worker` thread and in the analysis process, and the
engine is loaded and warmed up by the :class:`~game.catalog.Catalog` thread,
which starts after the first frame so that the window shows up at once (so
does the audio device).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game import drawing, screens, settings
from game.analysis_process import AnalysisProcess
from game.bindings import FORM, GLOBAL, Binding, Card, card
from game.catalog import Catalog
from game.display import Display
from game.everywhere import EveryScreen
from game.frames import FramePacer, FrameStats, Redraw, share
from game.keys import KeyFilter
from game.options import Options
from game.scene import Scene
from game.sound import Sounds
from game.stack import ScreenStack
from game.tally import Tally
from game.theme import BACKGROUND_BOTTOM, BACKGROUND_TOP, MIN_WINDOW, Theme, use_look
from game.toasts import Toasts
from game.window import desktop_size, make_icon, start_display, window_size
from game.worker import Worker

if TYPE_CHECKING:
    from engine.agents.base import Agent
    from engine.geometry import Geometry

STEP = 1 / 120  # seconds per fixed update step
MAX_FRAME_TIME = 0.25  # a longer pause (a dragged window) is not caught up step by step


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
        self.options.apply(self.settings)  # the command line's board (and --analysis) for this run
        self.headless = start_display()
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
        self.everywhere = EveryScreen(self)
        self.running = True
        self.closed = False
        self._warm_up = warm_up
        self._clock = clock
        self._pacer = FramePacer(fps) if fps else None
        self._last_time = clock()
        self._lag = 0.0
        self.stack = ScreenStack(self)
        self.toasts = Toasts()
        self._background: pygame.Surface | None = None
        self._resized = False
        self.redraw = Redraw()
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
    def _initial_size(self) -> tuple[int, int]:
        return window_size((self.settings.window_width, self.settings.window_height), desktop_size())

    def _start_scenes(self) -> None:
        self.stack.reset("menu")
        if self.options.match is not None:
            self.open("match", self.options.match)
        self._apply_transitions()

    # -- the screens, by name (see game.stack; changes take effect between phases of a frame) --------
    @property
    def scene(self) -> Scene:
        return self.stack.top

    @property
    def scenes(self) -> tuple[Scene, ...]:
        return tuple(self.stack.screens)

    def open(self, name: str, *args: Any, callback: Callable[[Any], object] | None = None, **kwargs: Any) -> None:
        """Open the screen called ``name`` (see game.screens) on top; ``callback`` gets what it is dismissed with."""
        self.stack.open(name, *args, callback=callback, **kwargs)

    def push(self, scene: Scene, callback: Callable[[Any], object] | None = None) -> None:
        """Open a screen already made (a test's or a tool's); :meth:`open` makes it by name."""
        self.stack.push(scene, callback)

    def dismiss(self, scene: Scene, result: Any = None) -> None:
        """Close ``scene`` if it is on top, then hand ``result`` to the callback it was opened with."""
        self.stack.dismiss(scene, result)

    def pop(self) -> None:
        """Back one screen: the top one closes with no result (the main menu stays)."""
        self.stack.dismiss(self.scene)

    def reset(self, *names: str) -> None:
        """Replace the whole stack by new screens of these names (the first is the bottom)."""
        self.stack.reset(*names)

    def _apply_transitions(self) -> None:
        if self.stack.apply():
            self.keys.screen_changed()
            self.redraw.whole()

    # -- services for scenes --------------------------------------------------------------------
    def notify(self, text: str, *, error: bool = False, seconds: float = 5.0) -> None:
        self.toasts.add(text, error, seconds)
        self.redraw.whole()

    def invalidate(self, area: list[pygame.Rect] | None = None) -> None:
        """Draw the next frame: a scene's state changed without an input event (a reply arrived).

        ``area``: the only parts of the window that changed; the frame then redraws
        and shows just those (unless something else asks for all of it).
        """
        if area is None:
            self.redraw.whole()
        else:
            self.redraw.add(area)

    @property
    def messages(self) -> list[str]:  # the messages on screen now
        return self.toasts.texts

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
            self.redraw.whole()  # a hover, a key, a focus change: anything may show
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
            self._engine_news = news
            self.redraw.whole()
            if self.catalog.ready and not self._settings_checked:
                self._check_settings()
        while self._lag >= STEP:
            self._lag -= STEP
            for scene in self.stack.visible():
                scene.update(STEP)
            self._apply_transitions()
            self.toasts.tick(STEP)
        if self.toasts.expire():
            self.redraw.whole()
        if self.redraw.due(now, self.stack.visible()):
            area = self.redraw.area(now, self.stack.visible(), self.screen.get_rect())
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
            self.redraw.drawn(now)
            for scene in self.stack.visible():
                scene.shown(area)
            self.frame_stats.tick(area is None, share(area, self.screen.get_size()), times)
            if self.frame_stats.frames == 1:
                self._after_first_frame()
        else:
            self.frame_stats.still()
        if self._pacer is not None:
            self._pacer.wait()

    def _check_settings(self) -> None:
        """Reset the saved choices that need the engine to check (the board, the agents) if they are wrong."""
        self._settings_checked = True
        if self.catalog.load_error:
            return
        bad = self.settings.repair(self.catalog.check)
        if bad:  # one message for the file: the loading's (if it still shows) takes these fields in
            self.notify(self.toasts.merged("Some saved settings were invalid and were reset: ", bad), error=True)

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
        return self.settings.first_players(self.catalog.resolve), self.settings.geometry()

    def _draw(self, area: list[pygame.Rect] | None = None) -> None:
        """Draw the visible scenes and the messages, all of it or only within ``area``."""
        if area is not None:  # what lies outside is still on screen from the last frame
            self.screen.set_clip(area[0].unionall(area[1:]) if area else pygame.Rect(0, 0, 0, 0))
        try:
            for scene in self.stack.visible():
                scene.draw(self.screen)
            self.toasts.draw(self.screen, self.theme, self._toast_area())
        finally:
            self.screen.set_clip(None)

    def _toast_area(self) -> pygame.Rect:
        """Where messages may go: what the screen under any overlays lets them cover."""
        return self.stack.visible()[0].toast_area(self.screen.get_size())

    def toast_rects(self) -> list[pygame.Rect]:
        """Where the messages on screen are drawn."""
        return [rect for _, _, rect in self.toasts.layout(self.theme, self._toast_area())]

    def _resize(self, size: tuple[int, int]) -> None:
        self.theme.resize(size)
        self._background = drawing.backdrop(size, BACKGROUND_TOP, BACKGROUND_BOTTOM)
        # the size to come back to (in points); a window nobody saw must not shrink the next real one
        if not self.headless and not self.fullscreen:
            self.settings.window_width, self.settings.window_height = self.display.window_size
        self.redraw.whole()
        for scene in self.stack.screens:
            scene.resize(size)

    # -- keys of every screen, the look, the window ----------------------------------------------
    def global_key(self, event: pygame.event.Event) -> bool:
        """F11, F1/?, F2 and M, whatever the screen (see game.everywhere); True if the key was used."""
        return self.everywhere.handle(event)

    def shortcuts(self) -> Card:
        """Every key of the game, as the shortcuts card shows them."""
        return card([FORM, *screens.all_bindings(), GLOBAL])

    def menu_entries(self) -> list[tuple[str, str]]:  # what the main menu opens, with a button...
        return screens.menu_entries()

    def menu_keys(self) -> list[tuple[str, Binding]]:  # ...and with a key
        return screens.menu_keys()

    def set_muted(self, muted: bool) -> None:
        self.settings.muted = self.sounds.muted = muted
        self.save_preferences()

    def save_preferences(self) -> None:
        """Remember the settings screen's choices now, and nothing the command line chose."""
        problem = settings.save_preferences(self.settings, self.settings_path, only=self.options.match is not None)
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
        self.stack.close_all()
        self.worker.close()
        self.analysis_process.close()
        self.catalog.stop()
        self.sounds.stop()
        if self.options.match is None:  # a match from the command line does not change the saved choices
            if self.options.analysis:  # --analysis is not a choice to keep: the file has the last A pressed
                self.settings.show_analysis = settings.load(self.settings_path)[0].show_analysis
            settings.save(self.settings, self.settings_path)
        pygame.quit()
        self.frame_stats.report(self.options.frame_stats, self.options.frame_log)
