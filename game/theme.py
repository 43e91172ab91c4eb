"""Colours, fonts and sizes: the look of the game in one place.

Sizes are written for a 1024x720 window and scaled with the window
(:meth:`Theme.px`), so every screen stays in proportion when it is resized.
Rendered text is cached, because drawing the same labels 60 times a second
would otherwise be the most expensive part of a frame.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pygame

from game.settings import Colour

ASSETS = Path(__file__).resolve().parent.parent / "assets"
FONT_FILES = {False: ASSETS / "fonts" / "DejaVuSans.ttf", True: ASSETS / "fonts" / "DejaVuSans-Bold.ttf"}
DESIGN_SIZE = (1024, 720)
MIN_WINDOW = (640, 480)

RGB = tuple[int, int, int]

# -- palette -------------------------------------------------------------------------
BACKGROUND_TOP: RGB = (22, 34, 66)
BACKGROUND_BOTTOM: RGB = (9, 14, 30)
PANEL: RGB = (27, 41, 78)
PANEL_LIGHT: RGB = (37, 55, 102)
PANEL_BORDER: RGB = (52, 74, 130)
TEXT: RGB = (238, 242, 255)
MUTED: RGB = (150, 164, 200)
FAINT: RGB = (98, 112, 150)
ACCENT: RGB = (92, 142, 255)
ACCENT_DARK: RGB = (58, 100, 220)
SUCCESS: RGB = (80, 210, 130)
DANGER: RGB = (255, 107, 107)
BOARD: RGB = (36, 92, 222)
BOARD_DARK: RGB = (22, 62, 168)
HOLE_RIM: RGB = (18, 48, 138)
DISC: dict[Colour, RGB] = {Colour.RED: (234, 56, 68), Colour.YELLOW: (250, 200, 52)}


def shade(colour: RGB, factor: float) -> RGB:
    """Darker (factor < 1) or lighter towards white (factor > 1)."""
    if factor <= 1:
        return tuple(round(c * factor) for c in colour)  # type: ignore[return-value]
    return tuple(round(c + (255 - c) * (factor - 1)) for c in colour)  # type: ignore[return-value]


class Theme:
    """Fonts and pixel sizes for the current window, with a cache of rendered text."""

    TEXT_CACHE_SIZE = 400

    def __init__(self) -> None:
        self.scale = 1.0
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._texts: OrderedDict[tuple, pygame.Surface] = OrderedDict()

    def resize(self, size: tuple[int, int]) -> None:
        scale = max(0.55, min(size[0] / DESIGN_SIZE[0], size[1] / DESIGN_SIZE[1]))
        if abs(scale - self.scale) > 1e-3:
            self.scale = scale
            self._texts.clear()

    def px(self, value: float) -> int:
        """A design size in pixels at the current scale (at least 1)."""
        return max(1, round(value * self.scale))

    def font(self, size: float, bold: bool = False) -> pygame.font.Font:
        key = (self.px(size), bold)
        font = self._fonts.get(key)
        if font is None:
            path = FONT_FILES[bold]
            font = pygame.font.Font(path if path.is_file() else None, key[0])
            self._fonts[key] = font
        return font

    def text(
        self, text: str, size: float, colour: RGB = TEXT, bold: bool = False, wrap: int = 0, centred: bool = False
    ) -> pygame.Surface:
        """``text`` rendered (and cached); ``wrap`` > 0 breaks lines at that many pixels."""
        key = (text, self.px(size), colour, bold, wrap, centred)
        surface = self._texts.get(key)
        if surface is None:
            font = self.font(size, bold)
            font.align = pygame.FONT_CENTER if centred else pygame.FONT_LEFT
            surface = font.render(text, True, colour, wraplength=wrap)
            self._texts[key] = surface
            if len(self._texts) > self.TEXT_CACHE_SIZE:
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(key)
        return surface

    def draw_text(
        self,
        surface: pygame.Surface,
        text: str,
        size: float,
        pos: tuple[float, float],
        colour: RGB = TEXT,
        *,
        bold: bool = False,
        anchor: str = "topleft",
        wrap: int = 0,
    ) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` (a pygame.Rect attribute name) at ``pos``.

        Wrapped lines are centred when the anchor is a centre or a middle of the top or bottom edge.
        """
        image = self.text(text, size, colour, bold, wrap, centred=anchor in ("center", "midtop", "midbottom"))
        rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
        surface.blit(image, rect)
        return rect

    def fit_text(self, text: str, size: float, width: int, bold: bool = False) -> str:
        """``text``, shortened with an ellipsis so that it fits in ``width`` pixels."""
        font = self.font(size, bold)
        if font.size(text)[0] <= width:
            return text
        while text and font.size(text + "…")[0] > width:
            text = text[:-1]
        return text + "…"
