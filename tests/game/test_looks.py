"""The looks: five palettes (standard, high contrast, dark, light, colour-blind safe), each readable, each
chosen on the settings screen and remembered, the disc shapes on top of any; the colour-blind look's discs
stay apart in simulated protanopia, deuteranopia and tritanopia."""

from __future__ import annotations

import json

import numpy as np
import pygame
import pytest

from game import drawing, theme
from game.model import Colour, Look
from game.scenes.settings_screen import SettingsScene

#: Colour-vision deficiency at full severity (Machado, Oliveira and Fernandes 2009), on linear RGB.
SIMULATIONS = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
    "normal vision": np.eye(3).tolist(),
}


def linear(rgb) -> np.ndarray:
    c = np.array(rgb, dtype=float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def contrast(a, b, seen=None) -> float:
    """The WCAG contrast ratio of two colours, as an eye with the matrix ``seen`` sees them (None: normal)."""
    eye = np.eye(3) if seen is None else np.array(seen)
    lightness = [float(np.clip(eye @ linear(c), 0, 1) @ [0.2126, 0.7152, 0.0722]) for c in (a, b)]
    darker, lighter = sorted(lightness)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.fixture(autouse=True)
def standard_afterwards():
    yield
    theme.use_look(Look.STANDARD, False)


def test_there_are_five_looks_each_with_every_colour():
    assert [look.label for look in Look] == ["Standard", "High contrast", "Dark", "Light", "Colour-blind safe"]
    names = set(theme.PALETTES[Look.STANDARD])
    assert all(set(theme.PALETTES[look]) == names for look in Look)


@pytest.mark.parametrize("look", list(Look))
def test_every_look_is_readable(look):
    p = theme.PALETTES[look]
    assert contrast(p["TEXT"], p["PANEL"]) >= 7 and contrast(p["TEXT"], p["PANEL_LIGHT"]) >= 7
    for words in ("MUTED", "ACCENT", "DANGER", "SUCCESS"):
        assert contrast(p[words], p["PANEL"]) >= 4.5, words
    assert contrast(p["TEXT"], p["ALERT"]) >= 7  # the failure box
    for backdrop in ("BACKGROUND_TOP", "BACKGROUND_BOTTOM"):  # words on the screens' backdrop: subtitles, footers
        assert contrast(p["MUTED"], p[backdrop]) >= 4.5, backdrop
    assert contrast(p["TEXT"], p["ACCENT_DARK"]) >= 4.5 and contrast(p["PRIMARY_DETAIL"], p["ACCENT_DARK"]) >= 3


@pytest.mark.parametrize("vision", list(SIMULATIONS))
def test_the_colour_blind_looks_discs_stay_apart_for_every_eye(vision):
    p, seen = theme.PALETTES[Look.COLOUR_BLIND], SIMULATIONS[vision]
    assert contrast(p["RED"], p["YELLOW"], seen) >= 3
    assert contrast(p["RED"], p["BOARD"], seen) >= 1.8 and contrast(p["YELLOW"], p["BOARD"], seen) >= 1.8
    # the standard look does not promise this: its red disc all but vanishes into the board for a protanope
    standard = theme.PALETTES[Look.STANDARD]
    if vision == "protanopia":
        assert contrast(standard["RED"], standard["BOARD"], seen) < 1.8


def test_each_look_is_chosen_on_the_settings_screen_remembered_and_drawn(start, settings_file):
    driver = start()
    driver.app.open("settings")
    driver.step()
    screen = driver.scene
    assert isinstance(screen, SettingsScene)
    driver.focus(screen.look)
    seen = set()
    for look in list(Look)[1:]:
        driver.key(pygame.K_RIGHT)
        assert driver.app.settings.look is look
        assert json.loads(settings_file.read_text(encoding="utf-8"))["look"] == look.value
        assert tuple(theme.BOARD) == theme.PALETTES[look]["BOARD"] and tuple(theme.TEXT) == theme.PALETTES[look]["TEXT"]
        pixels = pygame.image.tobytes(drawing.board_frame(4, 4, 40, 8, 16), "RGBA")
        assert pixels not in seen  # a board of its own colours, not one from the cache
        seen.add(pixels)
    driver.focus(screen.shapes)
    driver.key(pygame.K_RIGHT)  # cross and ring, on the colour-blind look
    assert driver.app.settings.colour_blind and theme.disc_symbol(theme.DISC[Colour.RED]) == "cross"
    assert tuple(theme.DISC[Colour.RED]) == theme.PALETTES[Look.COLOUR_BLIND]["RED"]


def footer_contrast(app, name: str) -> float:
    """The contrast of the footer's words (``F1 all keys``) with the background they are drawn on, as the
    screen ``name`` draws them: the most of any of its pixels against the backdrop's pixel there."""
    if name != "menu":
        app.open(name)
    app.step()
    app._draw()
    scene, sizes = app.scene, app.theme
    width, height = app.screen.get_size()
    words = sizes.text(scene.bindings.footer(), 13, (255, 255, 255))  # (only its size counts)
    box = words.get_rect(midbottom=(width // 2, height - sizes.px(18)))
    drawn = pygame.surfarray.pixels3d(app.screen)[box.left : box.right, box.top : box.bottom].reshape(-1, 3)
    behind = pygame.surfarray.pixels3d(app._background)[box.left : box.right, box.top : box.bottom].reshape(-1, 3)
    best = max(range(len(drawn)), key=lambda i: float(np.abs(drawn[i].astype(int) - behind[i].astype(int)).sum()))
    return contrast(tuple(drawn[best]), tuple(behind[best]))


@pytest.mark.parametrize("look", list(Look))
def test_the_footer_hints_reach_wcag_aa_on_every_look(start, look):
    """The light look's footer hints were very faint (1.8:1): they are words to read, so AA (4.5:1) holds."""
    driver = start(look=look.value)
    driver.wait_for_catalog()
    for name in ("menu", "settings", "records"):
        ratio = footer_contrast(driver.app, name)
        assert ratio >= 4.5, f"{look.label}, {name}: the footer's contrast is {ratio:.2f}"
        driver.app.reset("menu")
