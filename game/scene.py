"""The base class of every screen, and what a screen may ask of the app that shows it (:class:`Host`).

The app keeps a stack of scenes; the top one gets the input. Screens never
know each other: a screen asks the app to open another one *by name*, with
its arguments, and may pass a callback that gets what that screen hands back
when it closes (``app.open("result", match, callback=...)`` and, in the
result screen, ``self.dismiss("rematch")``). The names are listed once, in
:mod:`game.screens`.

A scene's life:

- :meth:`Scene.enter` when it is opened, :meth:`Scene.exit` when it is removed
  (the match screen stops its search there), :meth:`Scene.resume` when the
  scene above it goes away;
- :meth:`Scene.resize` whenever the window size changes (and before its first
  frame): the only place where layouts and cached images are rebuilt;
- :meth:`Scene.handle_event` for each input event, :meth:`Scene.update` with a
  fixed time step (animations, polling background work), :meth:`Scene.draw`
  when the app redraws. ``draw`` must not change the scene's state.

The app redraws only when something changed: after input events, screen
changes and resizes on its own; a scene whose picture changes by itself says
so, with :meth:`Scene.animating` (while something moves: every frame is
drawn) or ``app.invalidate()`` (one change, say a reply from the worker;
``app.invalidate(area)`` when only those parts changed: the frame then
redraws and shows just them). :meth:`Scene.shown` tells a scene what the
window now shows of it.

Scenes never change the stack directly while it is being walked: ``open``,
``dismiss`` and ``reset`` take effect between two phases of the frame.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from game.bindings import BACK, Bindings

if TYPE_CHECKING:
    from engine.agents.base import Agent
    from game.analysis_process import AnalysisProcess
    from game.bindings import Binding, Card
    from game.catalog import Catalog
    from game.options import Options
    from game.settings import Settings
    from game.sound import Sounds
    from game.tally import Tally
    from game.theme import Theme
    from game.worker import Worker


class Host(Protocol):
    """What a screen may use of the app: its services, and opening and closing screens by name."""

    settings: Settings
    settings_path: Path | None
    options: Options
    theme: Theme
    sounds: Sounds
    tally: Tally
    catalog: Catalog
    worker: Worker
    analysis_process: AnalysisProcess
    make_agent: Callable[[str], Agent]
    screen: pygame.Surface
    fullscreen: bool

    @property
    def scene(self) -> Scene: ...

    def open(self, name: str, *args: Any, callback: Callable[[Any], object] | None = None, **kwargs: Any) -> None:
        """Open the screen called ``name`` on top; ``callback`` gets what it is dismissed with."""

    def dismiss(self, scene: Scene, result: Any = None) -> None:
        """Close ``scene`` (the top one) and hand ``result`` to the callback it was opened with."""

    def reset(self, *names: str) -> None:
        """Replace every screen by the screens of these names (the first at the bottom)."""

    def shortcuts(self) -> Card:
        """Every key of the game, in the groups of the shortcuts card."""

    def menu_entries(self) -> list[tuple[str, str]]:
        """The screens with a button in the main menu's row: (name, button text)."""

    def menu_keys(self) -> list[tuple[str, Binding]]:
        """The screens the main menu opens with a key: (name, the key's binding)."""

    def notify(self, text: str, *, error: bool = False, seconds: float = 5.0) -> None: ...

    def invalidate(self, area: list[pygame.Rect] | None = None) -> None: ...

    def draw_background(self, surface: pygame.Surface) -> None: ...

    def save_settings(self) -> None: ...

    def settings_changed(self) -> None: ...

    def set_muted(self, muted: bool) -> None: ...

    def toggle_fullscreen(self) -> None: ...

    def quit(self) -> None: ...


class Scene:
    """One screen. Subclasses override the hooks they need."""

    #: The screen's name in :mod:`game.screens`, by which other screens open it.
    name = ""
    #: An overlay is drawn on top of the scene below it (which keeps drawing, but gets no input).
    overlay = False
    #: The screen's keys: what each does, how the shortcuts card and the footer name it (see game.bindings).
    bindings = Bindings(BACK)

    def __init__(self, app: Host) -> None:
        self.app = app

    def dismiss(self, result: Any = None) -> None:
        """Close this screen; whoever opened it gets ``result`` (the Escape key closes with None)."""
        self.app.dismiss(self, result)

    def enter(self) -> None:
        """Pushed onto the stack."""

    def exit(self) -> None:
        """Removed from the stack (also when the game quits): stop what runs in the background."""

    def resume(self) -> None:
        """On top again, after the scene above it was removed."""

    def resize(self, size: tuple[int, int]) -> None:
        """Lay out for a window of ``size``."""

    def handle_event(self, event: pygame.event.Event) -> None:
        """The screen's keys (Escape goes back one screen unless a scene says otherwise)."""
        self.bindings.dispatch(self, event)

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (always the same step)."""

    def animating(self) -> bool:
        """True while the picture changes by itself (a falling disc, a clock): every frame is then drawn."""
        return False

    def animated_area(self) -> list[pygame.Rect] | None:
        """Where the picture changes by itself while :meth:`animating` (None: anywhere).

        A frame drawn only because something animates redraws and shows just
        these parts (and those of the frame before, which may have just stopped
        moving); a frame after any other change is drawn whole.
        """
        return None

    def shown(self, area: list[pygame.Rect] | None) -> None:
        """A frame was just shown: the whole window (None) or only ``area``; what is outside stays as it was."""

    def toast_area(self, size: tuple[int, int]) -> pygame.Rect:
        """The part of the window messages may cover: here the whole width above the bottom margin (a
        screen with buttons along the bottom keeps them out; the match, its board and move list)."""
        px = self.app.theme.px
        return pygame.Rect(px(40), 0, size[0] - px(80), size[1] - px(10))

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the current state; must not change it."""
