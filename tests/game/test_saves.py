"""Saved games and shared positions: the file format, damaged files, pasted text."""

from __future__ import annotations

import json

import pytest

from engine.geometry import Geometry
from game import pasting, saves
from game.model import Colour
from game.players import MatchConfig, Player
from game.saves import SavedGame, SaveFileError
from tests.game.test_match import config


def test_a_saved_game_reads_back_the_same(tmp_path):
    match = MatchConfig(Player(Colour.RED, "Ann"), Player(Colour.YELLOW, "Computer", "hard"), Geometry(7, 6, 4))
    path = saves.save(SavedGame(match, "4453"), tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["moves"] == "4453" and data["result"] == "unfinished" and data["yellow"]["agent"] == "hard"
    game = saves.load(path)
    assert game.moves == "4453" and game.config.red.name == "Ann" and game.config.yellow.spec == "hard"
    assert game.config.geometry == Geometry(7, 6, 4) and game.date == data["date"]
    second = saves.save(SavedGame(match, "44"), tmp_path)  # the same second: a new name, nothing overwritten
    assert second != path and {p for p, _ in saves.saved_games(tmp_path)} == {path, second}


def test_a_game_from_a_grid_keeps_its_grid(tmp_path):
    grid = "- - - -\n- - - -\n- - - -\nX O - -\n"
    match = MatchConfig(Player(Colour.RED, "A"), Player(Colour.YELLOW, "B"), Geometry(4, 4, 3), start_grid=grid)
    game = saves.load(saves.save(SavedGame(match, "11"), tmp_path))
    assert game.config.start_grid == grid and game.board.ply == 4


def test_the_result_is_worked_out_from_the_moves(tmp_path):
    won = SavedGame(config(None, None), "1212121")
    assert won.result == "red"
    drawn = SavedGame(config(None, None, Geometry(4, 4, 4)), "1233233441242411")
    assert drawn.result == "draw"


GOOD = {
    "format": "connect-four game",
    "version": 1,
    "date": "2026-11-22T23:40:05+00:00",
    "cols": 7,
    "rows": 6,
    "connect": 4,
    "first": "red",
    "red": {"name": "Ann", "agent": None},
    "yellow": {"name": "Computer", "agent": "hard"},
    "start": "",
    "moves": "4453",
    "result": "unfinished",
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "something else"}, "not a saved Connect Four game"),
        ({"version": 7}, "another version"),
        ({"cols": 12}, "bad board size"),
        ({"cols": "7"}, "'cols' is missing or not a int"),
        ({"first": "blue"}, "'first' is 'blue'"),
        ({"red": "Ann"}, "'red' is missing"),
        ({"yellow": {"name": 5, "agent": None}}, "the yellow player is damaged"),
        ({"moves": "4x"}, "move 2"),
        ({"moves": "1111111"}, "move 7 (column 1) cannot be played"),
        ({"moves": "12121212"}, "move 8"),
        ({"start": "- - - - - - -\n" * 5 + "X X - - - - -\n"}, "impossible disc counts"),
        ({"start": "- - - -\n" * 3 + "X O X -\n"}, "start grid is 4×4"),
        ({"start": "- - - - - - -\n" * 2 + "X - - - - - -\n" + "X O - - - - -\n" * 3, "moves": ""}, "already decided"),
        ({"start": "1212121", "moves": ""}, "start position is already decided"),
    ],
)
def test_a_damaged_file_gives_one_clear_message(tmp_path, change, message):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**GOOD, **change}), encoding="utf-8")
    with pytest.raises(SaveFileError, match=r"game\.json: ") as error:
        saves.load(path)
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"{not json", "not JSON"), (b"\xff\xfe\x00", "not UTF-8"), (b"[1, 2]", "not a saved")],
)
def test_files_that_are_not_games(tmp_path, content, message):
    path = tmp_path / "x.json"
    path.write_bytes(content)
    with pytest.raises(SaveFileError, match=message) as error:
        saves.load(path)
    assert saves.saved_games(tmp_path) == [(path, str(error.value))]  # listed, with why it cannot be opened


def pasted(text: str, base: MatchConfig) -> MatchConfig:
    return pasting.pasted_position(text, base).config


def test_pasted_move_strings_and_grids():
    base = config(None, "hard")
    shared = pasted(" 4453\n", base)
    assert shared.start_moves == "4453" and shared.start_grid == "" and shared.yellow.spec == "hard"
    assert pasted("4 4 5 3", base).start_moves == pasted("4,4, 5,3", base).start_moves == "4453"
    grid = pasted("- - - - -\n- - - - -\n- - - - -\n- - X - -\n", base)
    assert grid.geometry == Geometry(5, 4, 4) and grid.start_board().ply == 1
    small = pasted("- - - -\n- - - -\n- - - -\n- - - -\n", config(None, None, Geometry(9, 9, 5)))
    assert small.geometry == Geometry(4, 4, 4)  # five in a row cannot fit: four


@pytest.mark.parametrize(
    ("moves", "board", "opens_on"),
    [
        ("1234", Geometry(4, 4, 3), Geometry(4, 4, 3)),  # it fits the board in use: it stays
        ("4453", Geometry(4, 4, 3), Geometry(7, 6, 4)),  # a friend's classic game after a 4x4 one
        ("4453", Geometry(8, 8, 4), Geometry(8, 8, 4)),
        ("4458", Geometry(7, 6, 4), Geometry(8, 4, 4)),  # column 8: the smallest board that has it
        ("1111111", Geometry(7, 6, 4), Geometry(4, 7, 4)),  # seven in a column
        ("9" * 8 + "1", Geometry(4, 4, 4), Geometry(9, 8, 4)),
    ],
)
def test_a_move_string_opens_on_the_board_in_use_else_the_classic_else_the_smallest_it_fits(moves, board, opens_on):
    shared = pasting.pasted_position(moves, config(None, None, board))
    assert shared.config.geometry == opens_on and shared.config.start_moves == moves
    assert bool(shared.note) == (opens_on != board)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the clipboard is empty"),
        ("4" * 10, r"not a position: move 7 \(column 4\): column 4 is full"),  # fits no board: said on the one in use
        ("1212121", "already decided"),
        ("X - -\n- - -\n", "not a position"),  # a floating disc
        ("hello", "not a position"),
    ],
)
def test_pasted_text_that_is_not_a_position(text, message):
    with pytest.raises(SaveFileError, match=message):
        pasting.pasted_position(text, config(None, None))


def test_an_agent_named_human_is_a_person(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**GOOD, "yellow": {"name": "Bob", "agent": "human"}}), encoding="utf-8")
    game = saves.load(path)
    assert game.config.yellow.is_human and game.config.yellow.name == "Bob"
