"""The window: resized by the player, full screen with F11, and a board that fits at every size."""

from __future__ import annotations

import json

import pygame
import pytest

from engine.geometry import Geometry
from game.scenes.shortcuts import ShortcutsOverlay
from game.theme import MIN_WINDOW
from game.window import window_size
from tests.game.test_match import config, open_match

#: Two small windows run by default; the large ones (slow to draw) with -m slow.
WINDOWS = [
    MIN_WINDOW,
    (800, 600),
    pytest.param((900, 1000), marks=pytest.mark.slow),
    pytest.param((1366, 768), marks=pytest.mark.slow),
    pytest.param((1920, 1080), marks=pytest.mark.slow),
]


def resize(driver, size: tuple[int, int]) -> None:
    """What the system does when the player drags the window's edge."""
    pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    driver.step()


@pytest.mark.parametrize("window", WINDOWS)
def test_every_board_size_fits_between_the_panels_and_the_buttons(start, window):
    driver = start()
    match = open_match(driver, config(None, None))
    resize(driver, window)
    screen = pygame.Rect((0, 0), window)
    for cols in range(4, 10):
        for rows in range(4, 10):
            match.view.board.geometry = Geometry(cols, rows, 4)
            match.resize(window)
            match.update(0.0)  # the buttons are placed by the turn loop
            frame, view = match.view.board.frame, match.view.board
            assert screen.contains(frame), (cols, rows)
            panels_bottom = max(panel.bottom for panel in match.view.panels.values())
            hand_top = view.cell_centre(0, view.hand_row)[1] - view.cell * 0.4
            assert hand_top >= panels_bottom - 2, (cols, rows)  # the disc in hand stays clear of the panels
            assert frame.bottom <= min(widget.rect.top for widget in match.controls.form.widgets), (cols, rows)
            assert view.cell >= 24, (cols, rows)  # a disc big enough to aim at


def test_the_layout_follows_the_window(start, settings_file):
    driver = start()
    driver.app.headless = False  # as in a window someone sees: its size is remembered
    match = open_match(driver, config(None, None))
    small = match.view.board.cell
    resize(driver, (1600, 1000))
    assert driver.app.screen.get_size() == (1600, 1000)
    assert match.view.board.cell > small
    assert all(widget.rect.bottom <= 1000 for widget in match.controls.form.widgets)
    driver.app.close()
    assert json.loads(settings_file.read_text(encoding="utf-8"))["window_width"] == 1600


def test_f11_goes_full_screen_and_back_to_the_same_window(start, settings_file):
    driver = start()
    driver.app.headless = False  # as in a window someone sees: its size is remembered
    match = open_match(driver, config(None, None))
    driver.key(pygame.K_F11)
    assert driver.app.fullscreen and pygame.display.is_fullscreen()
    full = driver.app.screen.get_size()
    assert full == pygame.display.get_desktop_sizes()[0]
    assert match.view.board.frame.bottom <= full[1]  # laid out for the whole screen
    driver.key(pygame.K_F1)  # F11 works under the shortcuts card too
    assert isinstance(driver.scene, ShortcutsOverlay)
    driver.key(pygame.K_F11)
    assert not driver.app.fullscreen and driver.app.screen.get_size() == (800, 600)
    driver.app.close()
    saved = json.loads(settings_file.read_text(encoding="utf-8"))
    assert (saved["window_width"], saved["window_height"]) == (800, 600)  # not the full screen's size


def test_the_first_window_grows_on_a_high_resolution_screen():
    assert window_size((1024, 720), (1920, 1080)) == (1024, 720)
    assert window_size((1024, 720), (3840, 2160)) == (2048, 1440)  # the same share of a 4K screen
    assert window_size((1200, 800), (3840, 2160)) == (1200, 800)  # a size the player chose stays
    assert window_size((3000, 2000), (1366, 768)) == (1326, 688)  # never larger than the screen
    assert window_size((100, 100), None) == MIN_WINDOW


def test_a_window_the_system_lets_shrink_below_the_minimum_shows_every_screen_whole_scaled_down(start):
    """The minimum size is a request: a smaller window shows the smallest layout (a canvas of its shape at
    least 640x480), scaled down to fit, whole; the mouse is scaled back."""
    driver = start()
    driver.wait_for_catalog()
    app = driver.app
    names = ["menu", "mode_select", "agent_select", "board_setup", "shortcuts", *(n for n, _ in app.menu_entries())]
    canvases = {
        (400, 300): (640, 480),
        (120, 90): (640, 480),
        (60, 40): (720, 480),
        (20, 20): (640, 640),
        (1, 1): (640, 640),
    }
    for name in names:
        if name != "menu":
            app.open(name)
        for size, canvas in canvases.items():
            resize(driver, size)
            driver.step(2)
            assert app.screen.get_size() == canvas and pygame.display.get_surface().get_size() == size, name
        resize(driver, (640, 480))
        assert app.screen.get_size() == (640, 480)
        app.reset("menu")
        driver.step()
    match = open_match(driver, config(None, None))
    resize(driver, (400, 300))
    x, y = match.view.board.cell_centre(3, match.view.board.hand_row)  # on the canvas...
    driver.click((x * 400 / 640, y * 300 / 480))  # ...and where the window shows it: the move lands there
    driver.step(2)
    assert match.turns.model.played_moves == "4"
    app._draw()
    app.display.flip()
    shown = pygame.image.tobytes(pygame.display.get_surface(), "RGB")
    assert shown == pygame.image.tobytes(pygame.transform.smoothscale(app.screen, (400, 300)), "RGB")
