"""The window's first size and its icon, and the error of a display that shows nothing.

The game opens its window at the size the player left it (in points),
within the screen; the icon is drawn, not loaded, so that it needs no file.
"""

from __future__ import annotations

import os

import pygame

from game import drawing, settings
from game.display import prepare as prepare_display
from game.model import Colour
from game.theme import DISC, MIN_WINDOW

#: SDL's video drivers that show no window: fine when asked for by name (tests, screenshots), never by chance.
HEADLESS_DRIVERS = frozenset({"dummy", "offscreen"})


class NoDisplayError(pygame.error):
    """There is no display to open the window on (a pygame error, as a failing video driver raises)."""


def start_display() -> bool:
    """Start pygame's display and fonts; True if the display shows nothing (tests, screenshots).

    Without a usable display SDL falls back to a driver that shows nothing; the game would then
    run unseen until killed. That is only right when someone asked for it by name.
    """
    prepare_display()  # draw at the screen's real resolution, never stretched (Windows and macOS)
    pygame.display.init()
    headless = pygame.display.get_driver() in HEADLESS_DRIVERS
    if headless and os.environ.get("SDL_VIDEODRIVER", "").lower() not in HEADLESS_DRIVERS:
        driver = pygame.display.get_driver()
        pygame.quit()
        raise NoDisplayError(f"no display found (SDL fell back to its {driver!r} driver, which shows nothing)")
    pygame.font.init()
    pygame.key.set_repeat(300, 45)
    return headless


def desktop_size() -> tuple[int, int] | None:
    """The size of the (first) screen, if SDL knows it."""
    try:
        return pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError):
        return None


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
    ``python -c "import pygame, game.window; pygame.image.save(game.window.make_icon(256), 'assets/icon.png')"``.
    """

    def at(value: float) -> int:
        return round(value * size / 64)

    icon = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(icon, (36, 92, 222), icon.get_rect(), border_radius=at(14))
    icon.blit(drawing.disc(DISC[Colour.RED], at(13)), (at(7), at(32)))
    icon.blit(drawing.disc(DISC[Colour.YELLOW], at(13)), (at(31), at(32)))
    icon.blit(drawing.disc(DISC[Colour.RED], at(13)), (at(31), at(7)))
    return icon
