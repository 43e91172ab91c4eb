"""The base class of every screen.

The :class:`~game.app.App` keeps a stack of scenes; the top one gets the
input. A scene's life:

- :meth:`Scene.enter` when it is pushed, :meth:`Scene.exit` when it is removed
  (the match screen stops its search there), :meth:`Scene.resume` when the
  scene above it goes away;
- :meth:`Scene.resize` whenever the window size changes (and before its first
  frame): the only place where layouts and cached images are rebuilt;
- :meth:`Scene.handle_event` for each input event, :meth:`Scene.update` with a
  fixed time step (animations, polling the worker), :meth:`Scene.draw` when
  the app redraws. ``draw`` must not change the scene's state.

The app redraws only when something changed: after input events, screen
changes and resizes on its own; a scene whose picture changes by itself says
so, with :meth:`Scene.animating` (while something moves: every frame is
drawn) or ``app.invalidate()`` (one change, say a reply from the worker;
``app.invalidate(area)`` when only those parts changed: the frame then
redraws and shows just them). :meth:`Scene.shown` tells a scene what the
window now shows of it.

Scenes never change the stack directly while it is being walked: they call
``app.push`` / ``app.pop`` / ``app.reset``, which take effect between two
phases of the frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from game.app import App


class Scene:
    """One screen. Subclasses override the hooks they need."""

    #: An overlay is drawn on top of the scene below it (which keeps drawing, but gets no input).
    overlay = False

    def __init__(self, app: App) -> None:
        self.app = app

    def enter(self) -> None:
        """Pushed onto the stack."""

    def exit(self) -> None:
        """Removed from the stack (also when the game quits): stop what runs in the background."""

    def resume(self) -> None:
        """On top again, after the scene above it was removed."""

    def resize(self, size: tuple[int, int]) -> None:
        """Lay out for a window of ``size``."""

    def handle_event(self, event: pygame.event.Event) -> None:
        """Escape goes back one screen unless a scene says otherwise."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

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

    def toast_floor(self, height: int) -> int:
        """The lowest y that messages over the screen may cover (a screen with buttons along the bottom
        returns their top)."""
        return height

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the current state; must not change it."""
