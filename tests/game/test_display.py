"""High-DPI windows: drawn at the window's real pixels, with the mouse and the saved size in points.

No test machine has a Retina screen, so :class:`DoubledDisplay` plays one: a
window of twice the pixels that says it is half as large in points, as macOS
does. The real high-DPI window (a ``pygame.Window`` asking for
``allow_high_dpi``) opens on the dummy driver too, where its ratio is 1.
"""

from __future__ import annotations

import pygame

from game.display import Display
from game.scenes.help import HelpScene
from game.scenes.menu import MainMenu


class DoubledDisplay(Display):
    """A window with two pixels per point, like a Retina screen's."""

    def __init__(self) -> None:
        super().__init__(high_dpi=False)

    def open(self, size, *, fullscreen=False):
        return super().open((size[0] * 2, size[1] * 2), fullscreen=fullscreen)

    @property
    def window_size(self):
        width, height = pygame.display.get_window_size()
        return width // 2, height // 2


def test_a_pixel_ratio_of_two_draws_twice_the_pixels_and_clicks_land_right(start, settings_file):
    plain = start()
    plain_help = plain.scene.screens["help"].rect.copy()
    plain_scale = plain.app.theme.scale
    plain.app.close()

    driver = start(display=DoubledDisplay())
    app = driver.app
    assert app.screen.get_size() == (1600, 1200) and app.display.pixel_ratio == 2
    menu = driver.scene
    assert isinstance(menu, MainMenu)
    help_button = menu.screens["help"]
    doubled = [2 * value for value in plain_help]  # the same layout, twice as fine (give or take rounding)
    # (Text at twice the size is not exactly twice as wide: across a row of four buttons sized to
    # their labels the rounding adds up to a few pixels of the 1600.)
    assert all(abs(got - want) <= 12 for got, want in zip(help_button.rect, doubled, strict=True)), help_button.rect
    assert app.theme.scale == 2 * plain_scale  # every size, text too, for the real pixels
    point = (help_button.rect.centerx // 2, help_button.rect.centery // 2)  # where the mouse is, in points
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=point, rel=(3, 4), buttons=(0, 0, 0)))
    driver.step()
    assert menu.form.focused is help_button  # the pointer is over the button it is over on screen
    driver.click(point)
    assert isinstance(driver.scene, HelpScene)


def test_the_window_size_is_remembered_in_points(start, settings_file):
    driver = start(display=DoubledDisplay())
    driver.app.headless = False  # as in a window someone sees: its size is remembered
    pygame.display.set_mode((1400, 1000), pygame.RESIZABLE)  # the player makes it 700x500 points
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(700, 500), w=700, h=500))
    driver.step()
    assert driver.app.screen.get_size() == (1400, 1000)
    assert (driver.app.settings.window_width, driver.app.settings.window_height) == (700, 500)


def test_the_high_dpi_window_opens_draws_and_goes_full_screen(start):
    driver = start(display=Display(high_dpi=True))
    app = driver.app
    assert app.display.window is not None and app.display.pixel_ratio == 1  # no Retina on the dummy driver
    assert app.screen.get_size() == app.display.window_size == (800, 600)
    driver.press(driver.scene.screens["help"])
    assert isinstance(driver.scene, HelpScene)
    driver.key(pygame.K_F11)
    driver.key(pygame.K_F11)
    assert app.screen.get_size() == (800, 600) and not app.fullscreen
