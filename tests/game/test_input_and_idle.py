"""Held keys never play for you, moves wait for the falling disc, and a still screen is not redrawn."""

from __future__ import annotations

import pygame
import pytest

from game import toasts
from game.frames import IDLE_REDRAW
from game.scenes.match import MatchScene
from game.scenes.menu import MainMenu
from game.scenes.mode_select import ModeSelect
from tests.game.conftest import FRAME, SlowAgent
from tests.game.test_match import config, open_match
from tests.game.test_window import resize


def test_a_held_enter_on_the_menu_opens_one_screen(start):
    driver = start()
    driver.wait_for_catalog()
    driver.hold(pygame.K_RETURN, repeats=4)  # "Play" has the focus
    assert [type(scene) for scene in driver.app.scenes] == [MainMenu, ModeSelect]
    driver.key(pygame.K_RETURN)  # a new press acts on the new screen
    assert len(driver.app.scenes) == 3


def test_a_held_enter_on_quick_game_drops_no_disc(start):
    driver = start(mode="hotseat")
    driver.step()
    driver.app.scene.form.focus_on(driver.app.scene.quick)
    driver.hold(pygame.K_RETURN, repeats=4)
    match = driver.scene
    assert isinstance(match, MatchScene)
    assert match.turns.model.moves_played == 0
    driver.key(pygame.K_RETURN)
    assert match.turns.model.moves_played == 1


def test_held_keys_on_the_board_act_once_but_arrows_repeat(start):
    driver = start()
    match = open_match(driver, config(None, None))
    driver.hold(pygame.K_4, repeats=5)
    driver.hold(pygame.K_DOWN, repeats=5)
    assert match.turns.model.board.move_string == "44"
    start_column = match.controls.cursor
    driver.hold(pygame.K_LEFT, repeats=2)
    assert match.controls.cursor == start_column - 3


def test_fast_presses_land_the_falling_disc_first(start):
    driver = start()
    match = open_match(driver, config(None, None))
    for _ in range(7):  # seven quick presses of 4 in a two-player game, one a frame
        driver.key(pygame.K_4)
        assert len(match.turns.animations.falling) <= 1  # never two discs in the air
    assert match.turns.model.board.move_string == "444444"  # the seventh finds the column full
    assert "full" in match.turns.flashing[0]


def test_a_click_during_the_computers_falling_disc_lands_it_first(start):
    driver = start()
    match = open_match(driver, config(None, "random:seed=3"))
    driver.key(pygame.K_4)
    driver.run_until(lambda: match.turns.model.human_to_move, what="the computer's reply")
    assert not match.turns.animations.idle  # the reply is falling ...
    driver.click_column(2)  # ... when the player answers
    assert match.turns.model.moves_played == 3
    assert len(match.turns.animations.falling) == 1


def test_a_paused_spectator_game_is_not_thinking(start):
    slow = SlowAgent(seconds=30)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config("slow", "slow"))
    assert slow.started.wait(5)
    assert match.turns.thinking and match.view.status()[0].endswith("thinking…")
    driver.key(pygame.K_SPACE)
    assert slow.stopped.wait(1)  # the search stops: a pause costs no processor time
    assert match.turns.spectator.paused and not match.turns.thinking
    assert match.view.status()[0] == "Paused"
    slow.started.clear()
    driver.step(60)
    assert not slow.started.is_set() and match.turns.model.moves_played == 0
    driver.key(pygame.K_SPACE)
    assert slow.started.wait(5)  # resumed: the computer thinks again
    assert match.turns.thinking


def idle_redraws(frames: int) -> int:
    """The most frames a still screen draws in ``frames`` steps: only the occasional safety redraw."""
    return int(frames * FRAME / IDLE_REDRAW) + 1


def test_a_still_screen_is_not_redrawn(start):
    driver = start()
    driver.wait_for_catalog()
    driver.step(5)
    drawn = driver.app.frame_stats.frames
    driver.step(60)  # two seconds with nothing happening
    assert driver.app.frame_stats.frames - drawn <= idle_redraws(60)
    drawn = driver.app.frame_stats.frames
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
    driver.step()
    assert driver.app.frame_stats.frames == drawn + 1  # input is drawn at once


def test_a_match_waiting_for_the_player_goes_still_and_a_thinking_one_does_not(start):
    slow = SlowAgent(seconds=30)
    driver = start(agents={"slow": slow})
    open_match(driver, config(None, "slow"))
    driver.step(40)  # the opening settles
    drawn = driver.app.frame_stats.frames
    driver.step(60)
    assert driver.app.frame_stats.frames - drawn <= idle_redraws(60)
    driver.key(pygame.K_4)
    assert slow.started.wait(5)
    drawn = driver.app.frame_stats.frames
    driver.step(60)
    assert driver.app.frame_stats.frames == drawn + 60  # the falling disc, then the clock of the thinking computer


@pytest.mark.parametrize(("window", "scale"), [((800, 600), 100), ((640, 480), 150), ((400, 300), 100)])
def test_messages_never_cover_the_board_the_move_list_or_the_buttons_and_say_a_thing_once(start, window, scale):
    driver = start(text_scale=scale)
    resize(driver, window)
    match = open_match(driver, config(None, None, moves="4453"))
    autosave = "Your earlier unfinished game is now in Saved games as 2026-11-22 21-40-05 Ann vs Computer.json."
    driver.app.notify(autosave, seconds=8.0)
    for _ in range(4):  # Ctrl+C, again and again: one message
        driver.key(pygame.K_c, mod=pygame.KMOD_CTRL)
    assert driver.app.messages == [autosave, "Copied 4453"]
    for number in range(3):
        driver.app.notify(f"Message {number}: a long one that takes more than one line in a narrow place.")
    assert len(driver.app.messages) == toasts.MAX_SHOWN and driver.app.messages[-1].startswith("Message 2")
    for over_it in (match, None):  # the match alone, then under its result banner
        if over_it is None:
            for move in "617":  # red's four along the bottom row, and the result banner
                match.turns.drop(int(move) - 1)
                driver.settle()
            driver.run_until(lambda: driver.scene is not match, what="the result banner")
            driver.app.notify("Saved as 2026-11-22 21-40-05 Red player vs Yellow player.json in ~/games")
        driver.step()
        shown = driver.app.toast_rects()
        assert shown, f"no message shows at {window}"
        keep_clear = [match.view.board.frame, match.view.move_list.rect, *(b.rect for b in match.controls.form.widgets)]
        for toast in shown:  # (a window below 640x480 shows a canvas that large, scaled down)
            assert driver.app.screen.get_rect().contains(toast), (toast, window)
            assert toast.collidelist(keep_clear) == -1, (toast, keep_clear[toast.collidelist(keep_clear)], window)


def test_a_double_click_that_opens_a_screen_does_not_act_inside_it(start):
    driver = start(mode="hotseat")
    driver.wait_for_catalog()
    driver.step()
    quick = driver.scene.quick
    for _ in range(2):  # both presses of a double click, one frame apart, on the same spot
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=quick.rect.center, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=quick.rect.center, button=1))
        driver.step()
    assert type(driver.scene).__name__ == "MatchScene"
    assert driver.scene.turns.model.board.move_string == ""  # the second press dropped no disc
    driver.clock.time += 1.0  # a later click on the board plays as usual
    driver.click_column(3)
    driver.run_until(lambda: driver.scene.turns.model.board.move_string == "4", what="the click's move")
