"""Every screen, reached with the mouse or the keyboard, and Escape back one screen at a time."""

from __future__ import annotations

import json

import pygame
import pytest

from game.model import Colour, Mode
from game.options import Options
from game.scenes.agent_select import AgentSelect
from game.scenes.board_setup import BoardSetup
from game.scenes.help import HelpScene
from game.scenes.match import MatchScene
from game.scenes.menu import MainMenu
from game.scenes.mode_select import ModeSelect
from game.scenes.result import ResultOverlay


def scene_types(driver) -> list[type]:
    return [type(scene) for scene in driver.app.scenes]


def test_keyboard_through_every_set_up_screen_and_escape_back(start):
    driver = start()
    driver.wait_for_catalog()
    driver.step()
    assert scene_types(driver) == [MainMenu]
    driver.key(pygame.K_RETURN)  # "Play" has the focus
    assert isinstance(driver.scene, ModeSelect)
    driver.key(pygame.K_RETURN)  # the chosen mode (you vs computer) again: next
    assert isinstance(driver.scene, AgentSelect)
    driver.step()
    driver.press(driver.scene.next)
    assert isinstance(driver.scene, BoardSetup)
    driver.press(driver.scene.start)
    assert scene_types(driver) == [MainMenu, ModeSelect, AgentSelect, BoardSetup, MatchScene]
    for expected in (
        [MainMenu, ModeSelect, AgentSelect, BoardSetup],
        [MainMenu, ModeSelect, AgentSelect],
        [MainMenu, ModeSelect],
        [MainMenu],
        [MainMenu],
    ):
        driver.key(pygame.K_ESCAPE)
        assert scene_types(driver) == expected
    assert driver.app.running  # Escape on the menu does not quit; it points at Quit
    assert driver.scene.form.focused is driver.scene.leave


@pytest.mark.parametrize("leave", ["escape", "button"])
def test_escape_after_a_finished_game_goes_to_the_menu_and_the_back_button_too(start, leave):
    """It went back to the board set-up, which was for the game that had just ended."""
    driver = start(mode="hotseat")
    driver.step()
    driver.press(driver.scene.play)
    driver.press(driver.scene.next)
    driver.press(driver.scene.start)
    match = driver.scene
    assert scene_types(driver) == [MainMenu, ModeSelect, BoardSetup, MatchScene]
    for column in (0, 1, 0, 1, 0, 1, 0):  # red's four up the first column
        driver.click_column(column)
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result banner")
    driver.key(pygame.K_ESCAPE)  # the banner closes: the final position stays to be looked at
    assert driver.scene is match
    if leave == "escape":
        driver.key(pygame.K_ESCAPE)
    else:
        driver.press(match.controls.back_button)
    assert scene_types(driver) == [MainMenu]


def test_escape_during_a_game_goes_back_to_the_set_up(start):
    driver = start(mode="hotseat")
    driver.step()
    driver.press(driver.scene.play)
    driver.press(driver.scene.next)
    driver.press(driver.scene.start)
    driver.click_column(3)
    driver.key(pygame.K_ESCAPE)  # unfinished: back to change something (the game is kept for Resume)
    assert scene_types(driver) == [MainMenu, ModeSelect, BoardSetup]


def test_help_screen_and_back(start):
    driver = start()
    driver.step()
    driver.press(driver.scene.screens["help"])
    assert isinstance(driver.scene, HelpScene)
    driver.press(driver.scene.back)
    assert isinstance(driver.scene, MainMenu)


def test_spectator_set_up_with_a_custom_agent_by_mouse(start, settings_file):
    driver = start(red_agent="beginner")  # a quick red player: the match starts thinking at once

    driver.wait_for_catalog()
    driver.press(driver.scene.play)
    modes = driver.scene
    driver.press(modes.cards[Mode.SPECTATOR])
    assert driver.app.settings.mode is Mode.SPECTATOR
    driver.press(modes.first_colour)  # a click on the left half: red
    driver.press(modes.next)
    agents = driver.scene
    assert isinstance(agents, AgentSelect)
    driver.step()
    assert agents.tabs is not None  # two computers: one tab each
    driver.click((agents.tabs.rect.right - 5, agents.tabs.rect.centery))
    assert agents.current is Colour.YELLOW
    driver.press(agents.custom_card)
    driver.focus(agents.editors[0])  # the engine: step through the registered agents to random
    for _ in range(len(agents.editors[0].options)):
        if agents.editors[0].value == "random":
            break
        driver.key(pygame.K_RIGHT)
    assert agents.editors[0].value == "random"
    seed = next(editor for editor in agents.editors if editor.label == "Seed")

    driver.focus(seed)

    driver.text("42")
    driver.press(agents.next)
    assert isinstance(driver.scene, BoardSetup)
    assert driver.app.settings.yellow_agent == "random:seed=42"
    board = driver.scene
    driver.focus(board.cols)
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_RIGHT)
    assert driver.app.settings.cols == 9
    driver.press(board.start)
    match = driver.scene
    assert isinstance(match, MatchScene)
    assert match.turns.config.mode is Mode.SPECTATOR
    assert match.turns.config.yellow.spec == "random:seed=42"
    assert match.turns.config.geometry.cols == 9
    saved = json.loads(settings_file.read_text(encoding="utf-8"))
    assert saved["mode"] == "spectator" and saved["cols"] == 9 and saved["yellow_agent"] == "random:seed=42"


def test_board_setup_refuses_a_line_longer_than_the_board(start):
    driver = start(mode="hotseat")
    driver.step()
    driver.app.push(BoardSetup(driver.app))
    driver.step()
    board = driver.scene
    for stepper, presses in ((board.cols, 3), (board.rows, 2), (board.connect, -2)):
        driver.focus(stepper)
        for _ in range(abs(presses)):
            driver.key(pygame.K_LEFT if presses > 0 else pygame.K_RIGHT)
    assert (board.cols.value, board.rows.value, board.connect.value) == (4, 4, 6)
    assert not board.start.enabled and "connect 6 cannot fit" in board.error.lower()

    driver.press(board.start)
    assert driver.scene is board


def test_hotseat_skips_the_agent_screen(start):
    driver = start(mode="hotseat")
    driver.step()
    driver.press(driver.scene.play)
    driver.press(driver.scene.next)
    assert isinstance(driver.scene, BoardSetup)


def resize_window(driver, size: tuple[int, int]) -> None:
    pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    driver.step()


def test_window_resize_lays_the_board_out_again(start):
    driver = start(mode="hotseat")
    driver.step()
    driver.press(driver.scene.quick)
    match = driver.scene
    small = match.view.board.cell
    driver.app.headless = False  # as in a real window, whose size is remembered
    resize_window(driver, (1200, 900))
    assert match.view.board.cell > small
    assert (driver.app.settings.window_width, driver.app.settings.window_height) == (1200, 900)


def test_the_size_of_a_window_nobody_saw_is_not_remembered(start, settings_file):
    driver = start(mode="hotseat")
    assert driver.app.headless  # the tests' dummy video driver shows nothing
    resize_window(driver, (1200, 900))
    driver.app.close()
    saved = json.loads(settings_file.read_text(encoding="utf-8"))
    assert (saved["window_width"], saved["window_height"]) == (800, 600)


def test_closing_the_window_quits_at_once(start):
    driver = start()
    driver.step()
    driver.press(driver.scene.play)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert driver.app.run() == 0
    assert not driver.app.running and driver.app.closed


def test_quit_button(start):
    driver = start()
    driver.step()
    driver.press(driver.scene.leave)
    assert not driver.app.running


def test_quick_game_from_a_start_position_or_a_message_why_not(start):
    driver = start(Options(moves="4453"), mode="hotseat")
    driver.step()
    driver.press(driver.scene.quick)
    assert isinstance(driver.scene, MatchScene) and driver.scene.turns.model.board.ply == 4
    driver.app.close()
    driver = start(Options(moves="1111111"), mode="hotseat")  # a seventh disc in a six-row column
    driver.step()
    driver.press(driver.scene.quick)
    assert isinstance(driver.scene, MainMenu)
    assert any("column 1 is full" in message for message in driver.app.messages)
