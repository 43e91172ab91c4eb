"""The game's window and the surface it draws on, crisp on high-DPI screens.

Two kinds of screens need care:

- **Windows** scales a window that does not say it is DPI-aware, which blurs it.
  The ``SDL_WINDOWS_DPI_AWARENESS`` hint (set before the display starts) makes
  window sizes, the surface and the mouse all real pixels, so nothing else changes.
- **macOS** (Retina) measures windows and the mouse in *points*, two (or more)
  pixels each. A window opened by ``pygame.display.set_mode`` gets a surface of
  one pixel per point, which the system then stretches: blurry. pygame-ce
  documents one way to ask for the real pixels: a :class:`pygame.Window` made
  with ``allow_high_dpi=True`` (SDL's ``SDL_WINDOW_ALLOW_HIGHDPI``), whose
  :meth:`~pygame.Window.get_surface` is as large as the window is in pixels
  (SDL sizes a window's surface by ``SDL_GetWindowSizeInPixels``) and follows
  its size. On macOS the game therefore opens that kind of window. (macOS
  gives the pixels only to an application that declares
  ``NSHighResolutionCapable``; python.org's and Homebrew's Python run inside a
  ``Python.app`` that does. Where it is not declared the window simply gets a
  pixel ratio of 1, as before: nothing here assumes a ratio, it is measured.)

Either way the game draws on :attr:`Display.surface` at its real pixel size:
the layout is proportional to it (see :class:`~game.theme.Theme`), so a Retina
window lays out like a normal one of the same size in points, with fonts and
discs rendered at twice the resolution. Only three things are in points - the
window size the player sees (and the game remembers), the smallest window, and
the mouse - so :meth:`Display.to_pixels` turns the mouse's positions into
surface pixels before any screen sees them. Linux and Windows keep the display
module's window, whose pixel ratio is 1.

The screens are laid out for :data:`SMALLEST` and up (``tests/game/test_layout.py``
checks every one there, at every text size). The smallest window size is only a
request, which some window managers ignore: a smaller window gets the screens
laid out on a canvas at least that large, shown scaled down to fit, whole (at
400x300 everything is smaller, and nothing is cut or overlaps), and the mouse
is scaled back to the canvas.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings

import pygame

#: The smallest surface the screens are laid out on, in pixels (the window's minimum size, theme.MIN_WINDOW).
#: Where the system lets a window shrink below it, the game draws on a canvas of the window's shape at
#: least this large and shows it scaled down to the window.
SMALLEST = (640, 480)
#: Mouse events whose position (and motion) are in window points.
POINTER_EVENTS = frozenset({pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP})


def prepare() -> None:
    """Before the display starts: ask Windows for per-monitor DPI awareness (a no-op elsewhere)."""
    os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")


class Display:
    """The window: the display module's, or (``high_dpi``, by default on macOS) a high-DPI :class:`pygame.Window`."""

    def __init__(self, high_dpi: bool | None = None) -> None:
        self.high_dpi = sys.platform == "darwin" if high_dpi is None else high_dpi
        self.window: pygame.Window | None = None  # the high-DPI window, once open
        self._surface: pygame.Surface | None = None
        self._canvas: pygame.Surface | None = None  # drawn on instead while the window is too small

    # -- opening and changing the window ----------------------------------------------------------
    def open(self, size: tuple[int, int], *, fullscreen: bool = False) -> pygame.Surface:
        """Open (or change) the window: ``size`` in points, ignored in full screen. Returns :attr:`surface`."""
        if not self.high_dpi:
            flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
            self._surface = pygame.display.set_mode((0, 0) if fullscreen else size, flags)
            return self.surface
        if self.window is None:
            self.window = pygame.Window("Connect Four", size, resizable=True, allow_high_dpi=True)
        if fullscreen:
            self.window.set_fullscreen(desktop=True)
        else:
            self.window.set_windowed()
            self.window.size = size
        self._surface = self.window.get_surface()
        return self.surface

    @property
    def surface(self) -> pygame.Surface:
        """Where the game draws: the window's real pixels (below :data:`SMALLEST`, a canvas scaled down to them)."""
        real = self._pixels()
        shrink = self._shrink(real.get_size())
        if shrink == 1.0:
            self._canvas = None
            return real
        size = (max(SMALLEST[0], round(real.get_width() / shrink)), max(SMALLEST[1], round(real.get_height() / shrink)))
        if self._canvas is None or self._canvas.get_size() != size:
            self._canvas = pygame.Surface(size)
        return self._canvas

    @staticmethod
    def _shrink(size: tuple[int, int]) -> float:
        """How much smaller than the canvas a window of ``size`` pixels shows it (1: not at all)."""
        return min(1.0, max(1, size[0]) / SMALLEST[0], max(1, size[1]) / SMALLEST[1])

    def _pixels(self) -> pygame.Surface:
        """The window's own surface."""
        if self.window is not None:  # fetched again: the window may have been resized
            self._surface = self.window.get_surface()
        assert self._surface is not None, "the window is not open"
        return self._surface

    def _show_canvas(self) -> bool:
        """Scale the canvas down into the window, if there is one; True if so (the whole window changed)."""
        if self._canvas is None:
            return False
        real = self._pixels()
        if real.get_width() and real.get_height():
            try:
                pygame.transform.smoothscale(self._canvas, real.get_size(), real)
            except ValueError:  # smoothing needs 24 or 32 bits a pixel: a window of fewer is scaled plainly
                pygame.transform.scale(self._canvas, real.get_size(), real)
        return True

    def flip(self) -> None:
        """Show what was drawn."""
        self._show_canvas()
        if self.window is not None:
            self.window.flip()
        else:
            pygame.display.flip()

    def update(self, area: list[pygame.Rect]) -> None:
        """Show what was drawn within ``area`` (the rest of the window is as it was)."""
        scaled = self._show_canvas()
        if self.window is not None:  # the high-DPI window shows its surface only whole
            self.window.flip()
        elif scaled:
            pygame.display.flip()
        else:
            pygame.display.update(area)

    def set_title(self, title: str, icon: pygame.Surface) -> None:
        if self.window is not None:
            self.window.title = title
            self.window.set_icon(icon)
        else:
            pygame.display.set_caption(title)
            pygame.display.set_icon(icon)

    def set_minimum_size(self, size: tuple[int, int]) -> None:
        """The smallest the player may make the window (points); where the system cannot, nothing happens."""
        if self.window is not None:
            self.window.minimum_size = size
            return
        # pygame-ce has no other way to set this for a pygame.display window, and warns that
        # from_display_module is meant for code moving to its Window API.
        with warnings.catch_warnings(), contextlib.suppress(AttributeError, pygame.error):
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = size

    # -- points and pixels ------------------------------------------------------------------------
    @property
    def window_size(self) -> tuple[int, int]:
        """The window's size in points, as the system and the player measure it."""
        if self.window is not None:
            return self.window.size
        return pygame.display.get_window_size()

    @property
    def pixel_ratio(self) -> float:
        """Surface pixels per window point: 2 on a Retina screen, 1 elsewhere."""
        width = self.window_size[0]
        return self._pixels().get_width() / width if width > 0 else 1.0

    def to_pixels(self, event: pygame.event.Event) -> pygame.event.Event:
        """``event`` with its mouse position and motion in surface pixels (the same event when they agree)."""
        ratio = self.pixel_ratio / self._shrink(self._pixels().get_size())
        if event.type not in POINTER_EVENTS or ratio == 1.0:
            return event
        values = dict(event.dict)
        values["pos"] = (int(event.pos[0] * ratio), int(event.pos[1] * ratio))
        if "rel" in values:
            values["rel"] = (round(event.rel[0] * ratio), round(event.rel[1] * ratio))
        return pygame.event.Event(event.type, values)
