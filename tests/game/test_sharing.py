"""Copy, paste, save and open, as a player does it: keys, the saved-games screen, ``main.py FILE``."""

from __future__ import annotations

import json
import os

import pygame
import pytest

from engine.geometry import Geometry
from game import saves
from game.launch import main
from game.match import texts
from game.model import Colour
from game.scenes.agent_select import AgentSelect
from game.scenes.board_setup import BoardSetup
from game.scenes.match import MatchScene
from game.scenes.menu import MainMenu
from game.scenes.mode_select import ModeSelect
from game.scenes.result import ResultOverlay
from game.scenes.saved_games import SavedGames
from tests.game.test_match import config, open_match
from tests.game.test_tally_and_spectator import SMALL, play_the_first_column_line

CTRL = pygame.KMOD_CTRL


def test_ctrl_c_copies_the_move_string(start):
    driver = start()
    open_match(driver, config(None, None, moves="44"))
    driver.click_column(4)
    driver.key(pygame.K_c, mod=CTRL)
    assert pygame.scrap.get_text() == "445"
    assert any("Copied 445" in message for message in driver.app.messages)


def test_ctrl_v_starts_from_a_pasted_move_string_or_grid(start):
    driver = start()
    match = open_match(driver, config(None, None))
    driver.click_column(0)
    pygame.scrap.put_text("4453")
    driver.key(pygame.K_v, mod=CTRL)
    assert driver.scene.name == "confirm"  # the game on the board is unfinished: asked first
    driver.key(pygame.K_y)
    assert match.turns.model.board.move_string == "4453" and match.turns.model.moves_played == 0
    pygame.scrap.put_text("- - - - -\n- - - - -\n- - - - -\n- - - - -\n- X O X -\n")
    driver.key(pygame.K_v, mod=CTRL)
    assert match.turns.config.geometry == Geometry(5, 5, 4) and match.turns.model.board.ply == 3
    assert match.view.board.geometry == match.turns.config.geometry  # the board on screen has the new size
    driver.click_column(0)  # yellow to move; a click anywhere on the new board plays there
    assert match.turns.model.board.cell(0, 0) is not None
    driver.key(pygame.K_c, mod=CTRL)
    assert pygame.scrap.get_text().count("\n") == 5  # a grid start is shared as a grid


def test_pasting_something_that_is_not_a_position_says_so(start):
    driver = start()
    match = open_match(driver, config(None, None, moves="44"))
    pygame.scrap.put_text("4" * 10)
    driver.key(pygame.K_v, mod=CTRL)
    assert match.turns.model.board.move_string == "44"  # the game goes on as it was
    assert any(m.startswith("Not a position") and "column 4" in m for m in driver.app.messages)


def test_ctrl_v_on_the_menu_starts_a_game_from_the_pasted_position(start):
    driver = start(mode="hotseat", red_name="Ann")
    driver.step()
    pygame.scrap.put_text("hello")
    driver.key(pygame.K_v, mod=CTRL)
    assert isinstance(driver.scene, MainMenu)  # not a position: the menu stays, with a message
    assert any(m.startswith("Not a position") for m in driver.app.messages)
    pygame.scrap.put_text("- - - -\n- - - -\n- - - -\n- O X -\n")
    driver.key(pygame.K_v, mod=CTRL)
    match = driver.scene
    assert isinstance(match, MatchScene) and match.turns.model.board.ply == 2
    assert match.turns.config.geometry == Geometry(4, 4, 4) and match.turns.config.red.name == "Ann"  # the last players
    driver.key(pygame.K_ESCAPE)
    pygame.scrap.put_text("4" * 10)  # a column overfilled on every board: refused, nothing starts
    driver.key(pygame.K_v, mod=CTRL)
    assert isinstance(driver.scene, MainMenu) and any("column 4" in m for m in driver.app.messages)


def test_a_classic_move_string_pasted_after_a_4x4_game_opens_on_7x6_and_says_so(start):
    driver = start(mode="hotseat", cols=4, rows=4, connect=3)  # the last game was on 4x4
    driver.step()
    pygame.scrap.put_text("4453")  # a friend's 7x6 game: column 5 is not on a 4x4 board
    driver.key(pygame.K_v, mod=CTRL)
    match = driver.scene
    assert isinstance(match, MatchScene) and match.turns.model.board.move_string == "4453"
    assert match.turns.config.geometry == Geometry(7, 6, 4) and match.view.board.geometry == Geometry(7, 6, 4)
    assert "The pasted game starts on 7×6: the moves do not fit 4×4, 3 in a row." in driver.app.messages
    match.turns.restart(config(None, None, Geometry(4, 4, 3)))  # in a 4x4 game, Ctrl+V does the same
    driver.step()
    driver.key(pygame.K_v, mod=CTRL)
    assert match.turns.config.geometry == Geometry(7, 6, 4) and match.turns.model.board.move_string == "4453"
    headline = texts.detail(match.view)[0]
    assert headline == "Started from the pasted position on 7×6: the moves do not fit 4×4, 3 in a row"
    pygame.scrap.put_text("1234")  # fits the board in use: it stays, and nothing needs saying
    driver.key(pygame.K_v, mod=CTRL)
    assert match.turns.config.geometry == Geometry(7, 6, 4)
    assert match.turns.hint_text == "Started from the pasted position"


def test_ctrl_v_on_each_set_up_screen_starts_from_the_pasted_position(start):
    driver = start(mode="spectator", red_agent="random:seed=1", yellow_agent="random:seed=2")
    driver.wait_for_catalog()
    driver.press(driver.scene.play)
    for screen_type in (ModeSelect, AgentSelect, BoardSetup):
        if screen_type is not ModeSelect:
            driver.press(driver.scene.next)
            driver.step()
        screen = driver.scene
        assert isinstance(screen, screen_type)
        pygame.scrap.put_text("4" * 10)  # overfilled on every board: refused with the menu's message, the screen stays
        driver.key(pygame.K_v, mod=CTRL)
        assert driver.scene is screen and any("column 4" in m for m in driver.app.messages)
        pygame.scrap.put_text("- - - - -\n- - - - -\n- - - - -\n- - - - -\n- X O X -\n")
        driver.key(pygame.K_v, mod=CTRL)
        match = driver.scene
        assert isinstance(match, MatchScene) and match.turns.model.board.ply == 3
        assert match.turns.config.geometry == Geometry(5, 5, 4) and match.turns.config.yellow.spec == "random:seed=2"
        driver.key(pygame.K_ESCAPE)
        assert driver.scene is screen


def test_ctrl_v_in_a_name_field_pastes_the_text_there(start):
    driver = start(mode="hotseat")
    driver.step()
    driver.press(driver.scene.play)
    screen = driver.scene
    field = screen.names[Colour.RED]
    driver.focus(field)
    pygame.scrap.put_text("4453")
    driver.key(pygame.K_v, mod=CTRL)
    assert driver.scene is screen and field.value.endswith("4453")


def test_ctrl_v_with_a_board_that_cannot_be_says_so(start):
    driver = start(mode="hotseat", cols=4, rows=4, connect=4)
    driver.step()
    driver.app.push(BoardSetup(driver.app))
    driver.step()
    board = driver.scene
    driver.focus(board.connect)
    driver.key(pygame.K_RIGHT)  # five in a row on 4x4
    pygame.scrap.put_text("1")
    driver.key(pygame.K_v, mod=CTRL)
    assert driver.scene is board and any("cannot fit" in m.lower() for m in driver.app.messages)


def test_ctrl_v_on_the_result_banner_pastes_and_v_reviews(start):
    driver = start()
    match = open_match(driver, config(None, None, SMALL))
    play_the_first_column_line(driver, match)
    pygame.scrap.put_text("not a game")
    driver.key(pygame.K_v, mod=CTRL)
    assert isinstance(driver.scene, ResultOverlay)  # refused: the banner stays, with a message
    pygame.scrap.put_text("21")
    driver.key(pygame.K_v, mod=CTRL)
    assert driver.scene is match and match.turns.model.board.move_string == "21"


def test_ctrl_s_saves_and_the_saved_games_screen_opens_it(start):
    driver = start()
    open_match(driver, config(None, None, moves="4"))
    for column in (3, 4):
        driver.click_column(column)
    driver.key(pygame.K_s, mod=CTRL)
    (path,) = saves.games_folder().glob("*.json")
    assert json.loads(path.read_text(encoding="utf-8"))["moves"] == "45"
    driver.key(pygame.K_ESCAPE)
    assert isinstance(driver.scene, MainMenu)
    driver.key(pygame.K_o, mod=CTRL)
    screen = driver.scene
    assert isinstance(screen, SavedGames) and len(screen.items) == 1
    assert "Red player vs Yellow player" in screen.items[0].text
    driver.press(screen.items[0])
    reopened = driver.scene
    assert isinstance(reopened, MatchScene) and reopened.turns.model.board.move_string == "445"
    driver.key(pygame.K_u)
    assert reopened.turns.model.board.move_string == "44"  # the saved moves can be taken back
    driver.key(pygame.K_s, mod=CTRL)
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is screen and len(screen.items) == 2  # the list shows the game saved meanwhile


def test_a_damaged_file_is_listed_and_explained(start):
    driver = start()
    driver.step()
    folder = saves.games_folder()
    folder.mkdir(parents=True)
    broken = {"format": "connect-four game", "version": 1, "cols": 99, "rows": 6, "connect": 4}
    (folder / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    driver.press(driver.scene.screens["saved_games"])
    screen = driver.scene
    assert isinstance(screen, SavedGames) and screen.items[0].text == "Damaged: broken.json"
    driver.press(screen.items[0])
    assert driver.scene is screen and any("broken.json: bad board size" in m for m in driver.app.messages)


def test_the_list_scrolls_with_the_keyboard(start):
    driver = start(window_width=640, window_height=480)
    driver.step()
    for index in range(12):
        saves.save(saves.SavedGame(config(None, None), "4" * (index % 6)))
    driver.press(driver.scene.screens["saved_games"])
    screen = driver.scene
    assert screen.form.focused is screen.items[0] and not screen.items[-1].visible
    for _ in range(11):
        driver.key(pygame.K_DOWN)
    assert screen.form.focused is screen.items[-1] and screen.items[-1].visible and not screen.items[0].visible
    for _ in range(12):  # the wheel back to the top: the focus comes along, so Delete acts on a game in view
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    driver.step()
    assert screen.items[0].visible and screen.form.focused.visible
    driver.key(pygame.K_DELETE)
    assert len(screen.items) == 11 and screen.items[0].visible


def test_deleting_saved_games_by_key_and_click_and_undoing_it(start):
    driver = start()
    driver.step()
    for moves in ("4", "44"):
        saves.save(saves.SavedGame(config(None, None), moves))
    broken = saves.games_folder() / "broken.json"
    broken.write_text("{", encoding="utf-8")
    os.utime(broken, (1e9, 1e9))  # the oldest: listed last
    driver.key(pygame.K_o, mod=CTRL)
    screen = driver.scene
    assert len(screen.items) == 3 and screen.form.focused is screen.items[0]
    driver.key(pygame.K_DELETE)  # the focused game, from the keyboard
    assert len(screen.items) == 2 and screen.undo.visible and screen.form.focused is screen.items[0]
    assert any("Ctrl+Z brings it back" in m for m in driver.app.messages)
    damaged = next(index for index, item in enumerate(screen.items) if item.text == "Damaged: broken.json")
    driver.press(screen.removers[damaged])  # a damaged file can be deleted too, with the mouse
    assert len(screen.items) == 1 and len(list(saves.games_folder().glob("*.json"))) == 1
    driver.key(pygame.K_z, mod=CTRL)  # undo: the damaged file is back, then the game
    assert any(item.text == "Damaged: broken.json" for item in screen.items)
    driver.press(screen.undo)
    assert len(screen.items) == 3 and not screen.undo.visible
    assert sorted(saves.load(path).moves for path in saves.games_folder().glob("2*.json")) == ["4", "44"]
    driver.press(screen.removers[0])
    driver.key(pygame.K_ESCAPE)  # leaving the screen ends the undo: the file is gone for good
    assert isinstance(driver.scene, MainMenu)
    assert len(list(saves.games_folder().iterdir())) == 2
    driver.key(pygame.K_o, mod=CTRL)
    assert len(driver.scene.items) == 2


def test_deleting_the_last_game_leaves_an_empty_list_that_still_works(start):
    driver = start()
    driver.step()
    saves.save(saves.SavedGame(config(None, None), "4"))
    driver.key(pygame.K_o, mod=CTRL)
    screen = driver.scene
    driver.key(pygame.K_DELETE)
    assert screen.items == [] and screen.form.focused is screen.undo
    driver.key(pygame.K_RETURN)
    assert len(screen.items) == 1 and screen.form.focused is screen.items[0]


def test_the_result_panel_saves_the_game(start):
    driver = start()
    play_the_first_column_line(driver, open_match(driver, config(None, None, SMALL)))
    driver.press(driver.scene.save)
    (path,) = saves.games_folder().glob("*.json")
    assert saves.load(path).result == "red"


def test_main_opens_a_saved_game_and_refuses_a_damaged_one(tmp_path, capsys, settings_file):
    path = saves.save(saves.SavedGame(config(None, "random"), "4453"))
    assert main([str(path), "--quit-after-first-frame"]) == 0
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main([str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: broken.json: damaged (not JSON") and err.count("\n") == 1
    assert main([str(path), "--red", "hard"]) == 2
    assert "give FILE alone" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("spec", "why"),
    [("nonsense:depth=3", "unknown agent 'nonsense'"), ("greedy:eval=zero,mode=2", "it goes with eval=seed000")],
)
def test_a_saved_game_with_an_unknown_computer_is_refused_with_a_message(start, capsys, spec, why):
    driver = start()
    driver.wait_for_catalog()
    path = saves.save(saves.SavedGame(config(None, spec), "44"))
    driver.press(driver.scene.screens["saved_games"])
    screen = driver.scene
    driver.press(screen.items[0])
    assert driver.scene is screen
    assert any(f"player {spec!r} is not available" in m and why in m for m in driver.app.messages)
    assert main([str(path)]) == 2
    assert why in capsys.readouterr().err


def test_the_match_keys_work_on_the_result_banner(start):
    driver = start()
    match = open_match(driver, config(None, None, SMALL))
    play_the_first_column_line(driver, match)
    driver.key(pygame.K_u)  # undo the winning move at once, without closing the banner first
    assert driver.scene is match and match.turns.model.board.move_string == "1212"
    driver.click_column(0)
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result panel again")
    driver.key(pygame.K_n)
    assert driver.scene is match and match.turns.model.board.ply == 0
