"""The settings screen, the looks (high contrast, disc shapes, text size), the shortcuts card, the keyboard."""

from __future__ import annotations

import colorsys
import json

import pygame
import pytest

from engine.geometry import Geometry
from game import drawing, theme
from game.model import AnimationSpeed, Colour, Look
from game.scenes.menu import MainMenu
from game.scenes.settings_screen import SettingsScene
from game.scenes.shortcuts import ShortcutsOverlay
from tests.game.test_match import config, open_match
from tests.game.test_window import resize


@pytest.fixture(autouse=True)
def standard_look():
    """The look is global to the game: every test starts and ends with the standard one."""
    theme.use_look(Look.STANDARD, False)
    yield
    theme.use_look(Look.STANDARD, False)


def saved(settings_file) -> dict:
    return json.loads(settings_file.read_text(encoding="utf-8"))


def test_settings_screen_by_keyboard_alone_changes_and_remembers(start, settings_file):
    driver = start()
    driver.wait_for_catalog()
    driver.step()
    for _ in range(3):  # Play, Quick game, How to play, then Settings
        driver.key(pygame.K_DOWN)
    driver.key(pygame.K_RETURN)
    screen = driver.scene
    assert isinstance(screen, SettingsScene)
    driver.key(pygame.K_DOWN)  # volume
    driver.key(pygame.K_LEFT)
    assert driver.app.sounds.volume == 60 and saved(settings_file)["volume"] == 60
    driver.key(pygame.K_DOWN)  # colours
    driver.key(pygame.K_RIGHT)
    assert tuple(theme.TEXT) == (255, 255, 255) and tuple(theme.BACKGROUND_TOP) == (0, 0, 0)
    assert saved(settings_file)["look"] == "high_contrast"
    driver.key(pygame.K_DOWN)  # disc shapes
    driver.key(pygame.K_RETURN)
    assert driver.app.settings.colour_blind and theme.disc_symbol(theme.DISC[Colour.RED]) == "cross"
    driver.key(pygame.K_DOWN)  # text size
    before = driver.app.theme.font_px(15)
    driver.key(pygame.K_RIGHT)
    assert driver.app.theme.font_px(15) > before and saved(settings_file)["text_scale"] == 125
    driver.key(pygame.K_DOWN)  # animation
    driver.key(pygame.K_RIGHT)
    assert driver.app.settings.animation is AnimationSpeed.FAST
    driver.key(pygame.K_ESCAPE)
    assert isinstance(driver.scene, MainMenu)
    driver.app.close()

    theme.use_look(Look.STANDARD, False)
    again = start(**{key: value for key, value in saved(settings_file).items() if key not in ("window_width",)})
    assert tuple(theme.TEXT) == (255, 255, 255)  # the new game starts in high contrast
    assert again.app.theme.text_scale == 1.25 and again.app.settings.animation is AnimationSpeed.FAST


def test_colour_blind_discs_carry_shapes_that_differ(start):
    plain = {colour: pygame.image.tobytes(drawing.disc(theme.DISC[colour], 30), "RGBA") for colour in Colour}
    theme.use_look(Look.STANDARD, True)
    marked = {colour: drawing.disc(theme.DISC[colour], 30) for colour in Colour}
    for colour in Colour:
        assert pygame.image.tobytes(marked[colour], "RGBA") != plain[colour]
    # the red disc has its cross through the centre, the yellow disc a ring with an untouched centre
    red, yellow = marked[Colour.RED], marked[Colour.YELLOW]
    assert sum(red.get_at((30, 30))[:3]) < sum(theme.DISC[Colour.RED]) * 0.6
    assert sum(yellow.get_at((30, 30))[:3]) > sum(yellow.get_at((30 + 11, 30))[:3]) * 1.5


@pytest.mark.parametrize("look", list(Look))
def test_the_discs_outside_the_winning_line_step_back_but_stay_red_and_yellow(start, look):
    theme.use_look(look, False)
    radius, face = 30, (39, 39)  # a point of the face clear of the highlight

    def hsv(image: pygame.Surface) -> tuple[float, float, float]:
        red, green, blue = (channel / 255 for channel in image.get_at(face)[:3])
        hue, saturation, value = colorsys.rgb_to_hsv(red, green, blue)
        return hue * 360, saturation, value

    # (hues, least brightness): the old dimming, a plain darkening, gave an olive yellow of brightness 0.51
    for colour, (hues, least) in ((Colour.RED, ((-15, 12), 0.62)), (Colour.YELLOW, ((38, 60), 0.7))):
        full = hsv(drawing.disc(theme.DISC[colour], radius))
        hue, saturation, value = hsv(drawing.dimmed_disc(theme.DISC[colour], radius))
        hue = hue - 360 if hue > 180 else hue
        assert value < full[2] * 0.92, (colour, look)  # visibly darker than a winning disc
        assert hues[0] <= hue <= hues[1] and saturation > 0.7 and value > least, (colour, look, hue, value)
    theme.use_look(look, True)  # in colour-blind mode the dimmed discs keep their shapes
    plain = drawing.dimmed_disc(theme.DISC[Colour.RED], radius)
    assert plain.get_at((radius, radius))[0] < theme.DIMMED[Colour.RED][0] * 0.6  # the cross through the centre


def test_high_contrast_reaches_cached_pictures(start):
    driver = start()
    driver.step()
    before = drawing.board_frame(4, 4, 40, 8, 16).get_at((4, 30))
    theme.use_look(Look.HIGH_CONTRAST, False)
    after = drawing.board_frame(4, 4, 40, 8, 16).get_at((4, 30))
    assert before != after  # the board was redrawn in the new colours, not taken from the cache


def test_shortcuts_card_opens_on_question_mark_and_f1_and_blocks_the_board(start):
    driver = start()
    match = open_match(driver, config(None, None))
    driver.key(pygame.K_SLASH, pygame.KMOD_SHIFT, unicode="?")
    assert isinstance(driver.scene, ShortcutsOverlay)
    driver.key(pygame.K_4, unicode="4")
    assert match.turns.model.moves_played == 0  # the board behind the card takes no input
    driver.key(pygame.K_F1)
    assert driver.scene is match
    driver.key(pygame.K_F1)
    assert isinstance(driver.scene, ShortcutsOverlay)
    driver.click((5, 5))
    assert driver.scene is match


@pytest.mark.parametrize(("window", "scale"), [((640, 480), 150), ((640, 480), 100), ((1280, 800), 150)])
def test_every_shortcut_shows_in_full_on_some_page_of_the_card(start, window, scale):
    driver = start(text_scale=scale)
    resize(driver, window)
    driver.key(pygame.K_F1)
    card = driver.scene
    theme = driver.app.theme
    assert pygame.Rect((0, 0), window).contains(card.card)
    seen = []
    for page in range(len(card.pages)):
        assert card.page == page
        column_width = (card.card.width - theme.px(48)) // card.columns
        for column in card.pages[page]:
            for _, entries in column:
                for keys, meaning in entries:
                    seen.append((keys, meaning))
                    width = min(column_width * 2 // 5, card.keys_width) + theme.font(15).size(meaning)[0]
                    assert width + theme.px(16) <= column_width, f"{meaning!r} is cut at {window}, {scale}%"
        driver.key(pygame.K_RIGHT)  # the next page (the last one stays)
    assert seen == [entry for _, group in card.shortcuts for entry in group]  # all of them, once, in order
    if len(card.pages) > 1:
        driver.key(pygame.K_LEFT)
        assert card.page == len(card.pages) - 2
    driver.key(pygame.K_ESCAPE)
    assert not isinstance(driver.scene, ShortcutsOverlay)


def test_f2_opens_the_settings_over_a_game_and_instant_animation_applies_on_return(start):
    driver = start()
    match = open_match(driver, config(None, None, Geometry(4, 4, 3)))
    driver.key(pygame.K_F2)
    assert isinstance(driver.scene, SettingsScene)
    driver.scene.animation.set_index(3)  # instant
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is match
    driver.key(pygame.K_1, unicode="1")
    assert match.turns.model.moves_played == 1 and match.turns.animations.idle  # no disc in flight
    driver.step()
    assert list(driver.app.sounds.played)[-1] == "land:0"  # still heard landing


def test_typing_m_or_question_mark_in_a_text_field_is_text(start):
    from game.inputs import TextField

    driver = start()
    driver.step()
    field = TextField("Name", "", lambda text: None)
    driver.scene.form.set_widgets([field], focus=field)
    driver.key(pygame.K_m, unicode="m")
    driver.key(pygame.K_SLASH, pygame.KMOD_SHIFT, unicode="?")
    assert not driver.app.settings.muted and isinstance(driver.scene, MainMenu)


def test_the_result_panel_comes_back_from_the_keyboard(start):
    from game.scenes.result import ResultOverlay

    driver = start()
    match = open_match(driver, config(None, None, Geometry(4, 4, 3)))
    for column in (0, 1, 0, 1, 0):
        driver.key(pygame.K_1 + column, unicode=str(column + 1))
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result panel")
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is match
    driver.key(pygame.K_RETURN)
    assert isinstance(driver.scene, ResultOverlay)
