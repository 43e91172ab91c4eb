"""The unfinished game: kept after every move, offered by the menu's Resume (also after a restart), asked
about before N throws it away, dropped once the game ends; its file is untrusted data (a damaged one is
set aside with a message, a student's seat comes back as a person and its file never runs)."""

from __future__ import annotations

import json

import pygame
import pytest

from engine.geometry import Geometry
from game import autosave
from game.scenes.confirm import Confirm
from game.scenes.match import MatchScene
from game.scenes.menu import MainMenu
from tests.game.test_layout import LAYOUTS, check
from tests.game.test_match import config, open_match
from tests.game.test_window import resize
from tests.game.untrusted_files import STUDENT_SOURCE

SMALL = Geometry(4, 4, 3)


def kept(settings_file) -> dict | None:
    """The unfinished game's file as JSON (None: none), once the keeper has written it."""
    assert autosave.KEEPER.flush(5)
    path = autosave.path_for(settings_file)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def menu_of(driver) -> MainMenu:
    driver.run_until(lambda: isinstance(driver.scene, MainMenu) and driver.scene._looked, what="the menu's look")
    return driver.scene


def test_leaving_keeps_the_game_and_the_menu_resumes_it(start, settings_file):
    driver = start()
    match = open_match(driver, config(None, None))
    for column in (3, 3, 4):
        driver.click_column(column)
    assert kept(settings_file)["moves"] == "445"
    driver.key(pygame.K_ESCAPE)  # back to the menu: nothing is lost, and the player is told so
    assert any("unfinished game is kept" in message for message in driver.app.messages)
    menu = menu_of(driver)
    assert menu.unfinished is not None and menu.resume_game in menu.form.widgets
    assert menu.form.focused is menu.resume_game and "move 4" in menu.resume_game.detail
    driver.press(menu.resume_game)
    resumed = driver.scene
    assert isinstance(resumed, MatchScene) and resumed is not match
    assert resumed.turns.model.played_moves == "445" and resumed.turns.model.undo_count() > 0


def test_when_the_game_cannot_be_written_leaving_says_so_and_the_match_stays_open(start, settings_file):
    driver = start()
    match = open_match(driver, config(None, None))
    driver.click_column(3)
    assert kept(settings_file)["moves"] == "4"
    path = autosave.path_for(settings_file)  # the disk refuses from now on: a folder stands where the file was
    path.unlink()
    (path / "in the way").mkdir(parents=True)
    for column in (3, 4):
        driver.click_column(column)
    assert autosave.KEEPER.flush(5)
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is match  # nothing was written: a habitual Esc does not throw the game away
    said = [message for message in driver.app.messages if "unfinished game" in message]
    assert said and "could not be kept" in said[-1] and path.name in said[-1]
    driver.key(pygame.K_ESCAPE)  # asked again: the player may go, and is told what is lost
    assert driver.scene is not match
    assert [message for message in driver.app.messages if "could not be kept" in message][1].startswith(
        "Your unfinished game could not be kept: could not write"
    )
    assert not any("unfinished game is kept" in message for message in driver.app.messages)


def test_the_game_is_offered_again_after_a_restart(start, settings_file):
    driver = start()
    open_match(driver, config(None, "random:seed=3"))
    driver.click_column(0)
    driver.run_until(lambda: len(driver.scene.turns.model.played_moves) == 2, what="the computer's reply")
    moves = kept(settings_file)["moves"]
    driver.app.close()
    again = start()
    menu = menu_of(again)
    assert menu.unfinished is not None and menu.unfinished.moves == moves
    assert menu.unfinished.config.yellow.spec == "random:seed=3"


def test_the_menu_stays_put_while_the_unfinished_game_is_read(start, settings_file):
    """Resume has its place and the focus from the first frame: nothing moves under the pointer once the
    engine is loaded and the game read (Quick game used to move, the focus jump, a click land in the gap)."""
    driver = start()
    open_match(driver, config(None, None))
    driver.click_column(3)
    assert kept(settings_file)["moves"] == "4"
    driver.app.close()
    again = start()
    again.step()  # the first frame: the engine is not loaded yet
    menu = again.scene
    assert isinstance(menu, MainMenu) and not menu._looked
    first = {button.text: tuple(button.rect) for button in menu.form.widgets}
    assert "Resume" in first and menu.form.focused is menu.resume_game
    assert menu.resume_game.detail == "Loading the engine…"
    if not again.app.catalog.ready:  # pressed before the game is read: it says so, and nothing moves
        again.press(menu.resume_game)
        assert again.scene is menu and "The engine is still loading; try again in a moment." in again.app.messages
    menu = menu_of(again)
    assert {button.text: tuple(button.rect) for button in menu.form.widgets} == first
    assert menu.form.focused is menu.resume_game and menu.resume_game.detail == "Red player vs Yellow player · move 2"
    again.click(pygame.Rect(first["Quick game"]).center)  # where Quick game was at the first frame: it is there
    assert isinstance(again.scene, MatchScene)


def test_n_asks_before_throwing_an_unfinished_game_away(start, settings_file):
    driver = start()
    match = open_match(driver, config(None, None))
    driver.click_column(2)
    driver.key(pygame.K_n)
    question = driver.scene
    assert isinstance(question, Confirm) and "1 move" in question.detail
    driver.key(pygame.K_RETURN)  # Enter by habit: "Keep playing" has the focus
    assert driver.scene is match and match.turns.model.played_moves == "3"
    driver.press(match.controls.new_button)  # the button asks too
    assert isinstance(driver.scene, Confirm)
    driver.key(pygame.K_y)
    assert driver.scene is match and match.turns.model.played_moves == ""
    assert kept(settings_file) is None  # the game thrown away is no longer offered


def test_a_new_game_with_nothing_played_or_after_the_end_does_not_ask(start, settings_file):
    driver = start()
    match = open_match(driver, config(None, None, SMALL))
    driver.key(pygame.K_n)
    assert driver.scene is match
    for column in (0, 1, 0, 1, 0):  # red wins: the kept game is dropped
        driver.click_column(column)
    driver.settle()
    assert match.turns.model.board.is_over and kept(settings_file) is None


def test_a_damaged_file_is_set_aside_with_a_message(start, settings_file):
    path = autosave.path_for(settings_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "connect-four game", "version": 1, "cols": 7, "rows": 6, "moves": "4', "utf-8")
    driver = start()
    menu = menu_of(driver)
    assert menu.unfinished is None and menu.resume_game not in menu.form.widgets
    assert any("could not be read" in m and "unfinished-game.json.bak" in m for m in driver.app.messages)
    assert not path.exists() and autosave.backup_path(path).read_text("utf-8").startswith('{"format"')


def test_a_students_seat_comes_back_as_a_person_and_never_runs(start, settings_file, tmp_path):
    student = tmp_path / "course" / "student.py"
    student.parent.mkdir()
    student.write_text(STUDENT_SOURCE, encoding="utf-8")
    path = autosave.path_for(settings_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    seat = {"name": "", "agent": f"{student}:agent"}
    game = {"format": "connect-four game", "version": 1, "cols": 7, "rows": 6, "connect": 4, "first": "red"}
    game |= {"red": {"name": "Ann", "agent": None}, "yellow": seat, "start": "", "moves": "44"}
    path.write_text(json.dumps(game), "utf-8")
    driver = start()
    menu = menu_of(driver)
    driver.press(menu.resume_game)
    match = driver.scene
    assert isinstance(match, MatchScene) and match.turns.config.yellow.is_human
    assert any("student's agent (student.py)" in m for m in driver.app.messages)
    driver.click_column(0)
    driver.step(10)
    assert not (student.parent / "RAN").exists()
    written = kept(settings_file)
    assert written["yellow"]["agent"] is None and str(student.parent) not in json.dumps(written)


def test_a_resumed_game_that_ends_is_no_longer_offered(start, settings_file):
    driver = start()
    open_match(driver, config(None, None, SMALL))
    for column in (0, 1, 0, 1):  # red is one move from winning
        driver.click_column(column)
    driver.key(pygame.K_ESCAPE)
    menu = menu_of(driver)
    driver.press(menu.resume_game)
    resumed = driver.scene
    driver.click_column(0)  # red wins the resumed game with its first move
    driver.settle()
    assert resumed.turns.model.board.is_over and kept(settings_file) is None
    driver.app.reset("menu")
    assert menu_of(driver).unfinished is None


@pytest.mark.parametrize(("window", "scale"), LAYOUTS)
def test_the_question_fits_at_every_text_size(start, window, scale):
    driver = start(text_scale=scale)
    resize(driver, window)
    match = open_match(driver, config(None, None))
    driver.click_column(3)
    driver.key(pygame.K_n)
    question = driver.scene
    assert isinstance(question, Confirm)
    check(question, window)
    assert pygame.Rect((0, 0), window).contains(question.panel)
    assert all(question.panel.contains(button.rect) for button in question.form.widgets)
    theme = driver.app.theme
    words = theme.text(question.question, 22, bold=True, wrap=question.wrap).get_height()
    words += theme.text(question.detail, 15, wrap=question.wrap).get_height()
    assert question.panel.y + words < question.go.rect.top  # the words stay above the buttons
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is match
    driver.key(pygame.K_ESCAPE)  # the game is kept: the menu offers it beside Quick game, and all fits
    menu = menu_of(driver)
    assert menu.resume_game in menu.form.widgets
    check(menu, window)
    theme = driver.app.theme
    for button in (menu.resume_game, menu.quick):  # their lines whole: "Red player vs Yellow player · move 2"
        assert theme.font(13).size(button.detail)[0] <= button.rect.width - theme.px(24) or scale > 100, button.detail


def test_a_new_game_moves_the_earlier_unfinished_one_to_saved_games(start, settings_file):
    from game import saves

    driver = start()
    open_match(driver, config(None, None))
    for column in (3, 3, 4, 4):
        driver.click_column(column)
    driver.key(pygame.K_ESCAPE)
    open_match(driver, config(None, None))  # Quick game, Play or an opened game: no question on the way
    assert kept(settings_file)["moves"] == "4455"  # nothing moved before the new game has a move
    driver.click_column(0)
    assert kept(settings_file)["moves"] == "1"
    games = saves.saved_games(saves.games_folder())
    assert [(game.moves, game.result) for _, game in games] == [("4455", "unfinished")]
    assert any("earlier unfinished game" in m and "is now in Saved games" in m for m in driver.app.messages)
    driver.click_column(1)  # the file now holds this game: nothing more is moved
    assert len(saves.saved_games(saves.games_folder())) == 1
