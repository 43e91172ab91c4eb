"""Colours, fonts and sizes: the look of the game in one place.

Sizes are written for a 1024x720 window and scaled with the window
(:meth:`Theme.px`), so every screen stays in proportion when it is resized.
Text has its own scale on top of that (the player's text size). Rendered
text is cached, because drawing the same labels 60 times a second would
otherwise be the most expensive part of a frame. The palette has five looks
(standard, high contrast, dark, light, colour-blind safe), switched in place
by :func:`use_look`; disc shapes go with any of them.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import pygame

from game.model import Colour, Look

ASSETS = Path(__file__).resolve().parent.parent / "assets"
FONT_FILES = {False: ASSETS / "fonts" / "DejaVuSans.ttf", True: ASSETS / "fonts" / "DejaVuSans-Bold.ttf"}
DESIGN_SIZE = (1024, 720)
MIN_WINDOW = (640, 480)

RGB = tuple[int, int, int]


class Ink(Sequence[int]):
    """A palette colour that changes in place when the player picks another look.

    Every module imports the palette by name (``from game.theme import TEXT``),
    so switching to the high-contrast look updates these objects rather than
    rebinding the names. pygame takes an Ink wherever it takes ``(r, g, b)``.
    Images drawn from inks must be cached with :func:`look_cache`, which is
    emptied on a change of look.
    """

    __slots__ = ("_rgb",)

    def __init__(self, rgb: RGB) -> None:
        self._rgb = rgb

    def set(self, rgb: RGB) -> None:
        self._rgb = rgb

    def __getitem__(self, index):
        return self._rgb[index]

    def __len__(self) -> int:
        return 3

    def __iter__(self):
        return iter(self._rgb)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (tuple, Ink)) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(self._rgb)

    def __repr__(self) -> str:
        return f"Ink{self._rgb}"


#: What drawing functions take: a plain ``(r, g, b)`` or a palette :class:`Ink`.
Paint = RGB | Ink


#: The looks (standard and high contrast here, the others below). Contrast ratios (WCAG) on PANEL:
#: standard TEXT 12.7, MUTED 5.7, ACCENT 4.6, FAINT 2.9 (disabled controls); high contrast TEXT 21,
#: MUTED 17.6, ACCENT 13.8, FAINT 11.3, white on the ACCENT_DARK buttons 7.8, ON_ACCENT on ACCENT 13.8.
#: tests/game/test_looks.py checks the ratios every look must reach.
PALETTES: dict[Look, dict[str, RGB]] = {
    Look.STANDARD: {
        "BACKGROUND_TOP": (22, 34, 66),
        "BACKGROUND_BOTTOM": (9, 14, 30),
        "PANEL": (27, 41, 78),
        "PANEL_LIGHT": (37, 55, 102),
        "PANEL_BORDER": (52, 74, 130),
        "TEXT": (238, 242, 255),
        "MUTED": (150, 164, 200),
        "FAINT": (98, 112, 150),
        "ACCENT": (92, 142, 255),
        "ACCENT_DARK": (58, 100, 220),
        "FOCUS": (150, 185, 255),
        "ON_ACCENT": (238, 242, 255),
        "SUCCESS": (80, 210, 130),
        "DANGER": (255, 107, 107),
        "BOARD": (36, 92, 222),
        "BOARD_DARK": (22, 62, 168),
        "HOLE_RIM": (18, 48, 138),
        "RED": (234, 56, 68),
        "YELLOW": (250, 200, 52),
        "RED_DIM": (180, 45, 55),
        "YELLOW_DIM": (200, 150, 40),
    },
    Look.HIGH_CONTRAST: {
        "BACKGROUND_TOP": (0, 0, 0),
        "BACKGROUND_BOTTOM": (0, 0, 0),
        "PANEL": (0, 0, 0),
        "PANEL_LIGHT": (34, 34, 34),
        "PANEL_BORDER": (255, 255, 255),
        "TEXT": (255, 255, 255),
        "MUTED": (235, 235, 235),
        "FAINT": (190, 190, 190),
        "ACCENT": (0, 230, 255),
        "ACCENT_DARK": (0, 84, 150),
        "FOCUS": (255, 255, 0),
        "ON_ACCENT": (0, 0, 0),
        "SUCCESS": (0, 255, 120),
        "DANGER": (255, 96, 96),
        "BOARD": (10, 70, 235),
        "BOARD_DARK": (0, 40, 170),
        "HOLE_RIM": (0, 0, 0),
        "RED": (255, 40, 40),
        "YELLOW": (255, 236, 0),
        "RED_DIM": (200, 25, 25),
        "YELLOW_DIM": (225, 180, 0),
    },
}
#: The error box's fill and the second line of a primary button (both under TEXT-coloured words).
PALETTES[Look.STANDARD] |= {"ALERT": (90, 30, 40), "PRIMARY_DETAIL": (210, 220, 245)}
PALETTES[Look.HIGH_CONTRAST] |= {"ALERT": (90, 0, 0), "PRIMARY_DETAIL": (235, 235, 235)}
#: Dark: charcoal panels and a slate board, for a dim room (TEXT on PANEL 13.0, MUTED 6.4, ACCENT 5.7).
PALETTES[Look.DARK] = PALETTES[Look.STANDARD] | {
    "BACKGROUND_TOP": (34, 35, 40),
    "BACKGROUND_BOTTOM": (14, 14, 17),
    "PANEL": (40, 41, 48),
    "PANEL_LIGHT": (56, 58, 67),
    "PANEL_BORDER": (84, 87, 100),
    "MUTED": (170, 172, 184),
    "FAINT": (112, 114, 128),
    "ACCENT": (122, 160, 255),
    "ACCENT_DARK": (62, 88, 170),
    "ON_ACCENT": (16, 18, 24),
    "BOARD": (78, 84, 100),
    "BOARD_DARK": (46, 50, 62),
    "HOLE_RIM": (26, 27, 32),
    "ALERT": (96, 32, 40),
}
#: Light: white panels, dark words and a pale blue board, for a bright room (TEXT on PANEL 16.7,
#: MUTED 7.0, ACCENT 6.1; TEXT on the ACCENT_DARK of a primary button 10.5).
PALETTES[Look.LIGHT] = {
    "BACKGROUND_TOP": (236, 240, 247),
    "BACKGROUND_BOTTOM": (206, 214, 228),
    "PANEL": (252, 253, 255),
    "PANEL_LIGHT": (226, 233, 245),
    "PANEL_BORDER": (160, 172, 196),
    "TEXT": (22, 28, 44),
    "MUTED": (78, 88, 112),
    "FAINT": (150, 158, 176),
    "ACCENT": (38, 88, 206),
    "ACCENT_DARK": (178, 204, 252),
    "FOCUS": (20, 80, 220),
    "ON_ACCENT": (255, 255, 255),
    "SUCCESS": (18, 128, 64),
    "DANGER": (196, 32, 44),
    "BOARD": (122, 168, 240),
    "BOARD_DARK": (86, 130, 214),
    "HOLE_RIM": (62, 100, 180),
    "RED": (226, 44, 56),
    "YELLOW": (246, 196, 28),
    "RED_DIM": (176, 36, 46),
    "YELLOW_DIM": (198, 148, 22),
    "ALERT": (255, 222, 224),
    "PRIMARY_DETAIL": (40, 56, 100),
}
#: Colour-blind safe: a vermilion and a light yellow on a navy board, apart in lightness as well as in
#: hue, so that the discs differ from each other (contrast 3 or more) and from the board (1.8 or more)
#: in protanopia, deuteranopia and tritanopia alike (tests/game/test_looks.py simulates them).
PALETTES[Look.COLOUR_BLIND] = PALETTES[Look.STANDARD] | {
    "BOARD": (22, 38, 88),
    "BOARD_DARK": (14, 26, 64),
    "HOLE_RIM": (8, 16, 44),
    "RED": (214, 52, 20),
    "YELLOW": (255, 234, 80),
    "RED_DIM": (168, 40, 16),
    "YELLOW_DIM": (212, 178, 40),
}

# -- palette (see PALETTES) ----------------------------------------------------------
_STANDARD = PALETTES[Look.STANDARD]
BACKGROUND_TOP = Ink(_STANDARD["BACKGROUND_TOP"])
BACKGROUND_BOTTOM = Ink(_STANDARD["BACKGROUND_BOTTOM"])
PANEL = Ink(_STANDARD["PANEL"])
PANEL_LIGHT = Ink(_STANDARD["PANEL_LIGHT"])
PANEL_BORDER = Ink(_STANDARD["PANEL_BORDER"])
TEXT = Ink(_STANDARD["TEXT"])
MUTED = Ink(_STANDARD["MUTED"])
FAINT = Ink(_STANDARD["FAINT"])
ACCENT = Ink(_STANDARD["ACCENT"])
ACCENT_DARK = Ink(_STANDARD["ACCENT_DARK"])
FOCUS = Ink(_STANDARD["FOCUS"])  # the outline of the control with the keyboard focus
ON_ACCENT = Ink(_STANDARD["ON_ACCENT"])  # text on an ACCENT fill
SUCCESS = Ink(_STANDARD["SUCCESS"])
DANGER = Ink(_STANDARD["DANGER"])
BOARD = Ink(_STANDARD["BOARD"])
BOARD_DARK = Ink(_STANDARD["BOARD_DARK"])
HOLE_RIM = Ink(_STANDARD["HOLE_RIM"])
ALERT = Ink(_STANDARD["ALERT"])  # the fill of the box that says what went wrong
PRIMARY_DETAIL = Ink(_STANDARD["PRIMARY_DETAIL"])  # the second line of a primary button
DISC: dict[Colour, Ink] = {Colour.RED: Ink(_STANDARD["RED"]), Colour.YELLOW: Ink(_STANDARD["YELLOW"])}
#: The discs outside the winning line at the end of a game: darker, but still clearly red and yellow
#: (a yellow simply darkened turns olive, so the dimmed yellow leans towards gold instead).
DIMMED: dict[Colour, Ink] = {Colour.RED: Ink(_STANDARD["RED_DIM"]), Colour.YELLOW: Ink(_STANDARD["YELLOW_DIM"])}
#: In colour-blind mode every disc carries its colour's shape as well (see drawing.disc).
SYMBOL: dict[Colour, str] = {Colour.RED: "cross", Colour.YELLOW: "ring"}


class _Current:
    """The look in use: which palette, and whether discs carry shapes."""

    look = Look.STANDARD
    colour_blind = False


CURRENT = _Current()
_LOOK_CACHES: list = []


def look_cache(maxsize: int):
    """``functools.lru_cache`` for images drawn from the palette: emptied when the look changes."""

    def decorate(function):
        cached = functools.lru_cache(maxsize=maxsize)(function)
        _LOOK_CACHES.append(cached)
        return cached

    return decorate


def use_look(look: Look, colour_blind: bool) -> bool:
    """Switch the palette and the disc shapes; True if anything changed (then cached images are gone)."""
    if (look, colour_blind) == (CURRENT.look, CURRENT.colour_blind):
        return False
    CURRENT.look, CURRENT.colour_blind = look, colour_blind
    palette, inks = PALETTES[look], globals()
    for name, rgb in palette.items():
        if name in ("RED", "YELLOW"):
            DISC[Colour[name]].set(rgb)
        elif name in ("RED_DIM", "YELLOW_DIM"):
            DIMMED[Colour[name.removesuffix("_DIM")]].set(rgb)
        else:
            inks[name].set(rgb)
    for cached in _LOOK_CACHES:
        cached.cache_clear()
    return True


def disc_symbol(colour: Paint) -> str | None:
    """The shape a disc of this colour carries now (None unless colour-blind mode is on)."""
    if not CURRENT.colour_blind:
        return None
    return next((SYMBOL[side] for side, ink in DISC.items() if ink == colour), None)


def shade(colour: Paint, factor: float) -> RGB:
    """Darker (factor < 1) or lighter towards white (factor > 1)."""
    if factor <= 1:
        return tuple(round(c * factor) for c in colour)  # type: ignore[return-value]
    return tuple(round(c + (255 - c) * (factor - 1)) for c in colour)  # type: ignore[return-value]


class Theme:
    """Fonts and pixel sizes for the current window, with a cache of rendered text."""

    TEXT_CACHE_SIZE = 400

    TEXT_SCALES = (100, 125, 150)  # percent, as the settings screen offers them

    def __init__(self) -> None:
        self.scale = 1.0
        self.text_scale = 1.0
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._texts: OrderedDict[tuple, pygame.Surface] = OrderedDict()

    def resize(self, size: tuple[int, int]) -> None:
        scale = max(0.55, min(size[0] / DESIGN_SIZE[0], size[1] / DESIGN_SIZE[1]))
        if abs(scale - self.scale) > 1e-3:
            self.scale = scale
            self._texts.clear()

    def set_text_scale(self, percent: int) -> None:
        """Text ``percent`` of its design size (a saved value out of range takes the nearest offered)."""
        percent = min(self.TEXT_SCALES, key=lambda offered: abs(offered - percent))
        if abs(percent / 100 - self.text_scale) > 1e-3:
            self.text_scale = percent / 100
            self._texts.clear()

    def clear(self) -> None:
        """Forget the rendered text (its colours changed)."""
        self._texts.clear()

    def px(self, value: float) -> int:
        """A design size in pixels at the current scale (at least 1)."""
        return max(1, round(value * self.scale))

    def font_px(self, size: float) -> int:
        """The pixel size of text of design size ``size``, with the player's text scale."""
        return max(1, round(size * self.scale * self.text_scale))

    def font(self, size: float, bold: bool = False) -> pygame.font.Font:
        key = (self.font_px(size), bold)
        font = self._fonts.get(key)
        if font is None:
            path = FONT_FILES[bold]
            font = pygame.font.Font(path if path.is_file() else None, key[0])
            self._fonts[key] = font
        return font

    def text(
        self, text: str, size: float, colour: Paint = TEXT, bold: bool = False, wrap: int = 0, centred: bool = False
    ) -> pygame.Surface:
        """``text`` rendered (and cached); ``wrap`` > 0 breaks lines at that many pixels."""
        key = (text, self.font_px(size), tuple(colour), bold, wrap, centred)
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
        colour: Paint = TEXT,
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
