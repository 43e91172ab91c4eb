"""Move strings, text grids and numpy boards: round trips and every bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

from engine.board import Board, Side
from engine.errors import EngineError, PositionError
from engine.formats import format_grid, format_moves, from_array, parse_grid, parse_moves, to_array
from engine.geometry import Geometry
from tests.engine.strategies import choices, geometries, play_picks


@given(geometries(), choices())
def test_every_format_round_trips(geometry: Geometry, picks: list[int]) -> None:
    board = play_picks(geometry, picks)
    assert Board.from_moves(format_moves(board.history), geometry) == board
    assert Board.from_moves(board.move_string, geometry) == board
    from_grid = parse_grid(format_grid(board), geometry.connect)
    assert from_grid == board and from_grid.winner == board.winner and from_grid.turn == board.turn
    for encoding in ("signed", "012"):
        for origin in ("top", "bottom"):
            array = to_array(board, encoding, origin)
            assert from_array(array, geometry.connect, encoding, origin) == board
    assert from_array(to_array(board, "012"), geometry.connect) == board  # the encoding is guessed


def test_seed_orientation_is_top_row_first() -> None:
    array = to_array(Board.from_moves("4"))
    assert array.shape == (6, 7) and array[5, 3] == 1 and array.sum() == 1


def test_the_seed_004_grid_with_its_frame_and_zero_for_o() -> None:
    text = (
        "# ------------- #\n" + "| - - - - - - - |\n" * 4 + "| - - 0 - - - - |\n| - - X X - - - |\n# ------------- #\n"
    )
    board = parse_grid(text)
    assert board.geometry == Geometry(7, 6, 4) and board.turn is Side.SECOND
    assert board.cell(2, 0) is Side.FIRST and board.cell(2, 1) is Side.SECOND and board.cell(3, 0) is Side.FIRST


def test_a_board_prints_with_column_numbers_and_the_last_move_marked() -> None:
    text = str(Board.from_moves("44"))
    lines = text.splitlines()
    assert lines[0].split() == list("1234567")
    assert "|. . . o . . .|" in lines and "|. . . X . . .|" in lines


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ("48", "move 2 is '8'"),
        ("4a", "move 2 is 'a'"),
        ("0", "move 1 is '0'"),
        ("4444444", "move 7 \\(column 4\\): column 4 is full"),
        ("12121212", "move 8 \\(column 2\\): the game is over"),
    ],
)
def test_bad_move_strings_name_the_move(moves: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Board.from_moves(moves)


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ("- - - -\nX - - -\n- - - -\nO - - -\n", "column 1: a disc floats above the empty cell in row 2"),
        ("- - - -\n- - - -\nX - - -\nX X - -\n", "impossible disc counts: 3 X and 0 O"),
        ("- - - -\n- - - -\nO - - -\nO X - -\n", "impossible disc counts: 1 X and 2 O"),
        ("O X - -\nO X - -\nO X - -\nO X - -\n", "both players have a line"),
        ("- O - -\n- O - -\nX O - -\nX O X -\n", "impossible disc counts: 3 X and 4 O"),
        ("- - - - -\n- - - - -\n- - - - -\nX X X X O\nO O O X O\n", "it is X's turn"),
        ("- - - -\n- - - -\n- - - -\nX Q - -\n", "grid line 4: 'Q' is not one of - X O"),
        ("- - - -\n- - -\n- - - -\n- - - -\n", "grid line 2: rows have different lengths"),
        ("- -\n- -\n", "a grid 2 wide and 2 high: boards are 4 to 9 wide and 4 to 9 high"),
        ("\n\n", "the grid is empty"),
    ],
)
def test_bad_grids_say_what_is_wrong_and_where(grid: str, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        parse_grid(grid)


def test_two_separate_lines_cannot_come_from_one_last_move() -> None:
    # X owns two disjoint verticals of four; O's seven discs make no line, so the counts are fine.
    grid = "X - X - - - -\nX O X O - - -\nX O X O - - -\nX O X O - O -\n"
    with pytest.raises(PositionError, match="no single last move"):
        parse_grid(grid)


def test_bad_arrays_are_rejected() -> None:
    with pytest.raises(PositionError, match="2-D"):
        from_array(np.zeros(7))
    with pytest.raises(PositionError, match="whole numbers"):
        from_array(np.full((6, 7), 0.5))
    with pytest.raises(PositionError, match=r"values \[3\]"):
        from_array(np.full((6, 7), 3))
    with pytest.raises(PositionError, match="whole numbers"):
        from_array([["a"] * 7] * 6)


def test_parse_moves_is_one_based_and_strips_whitespace() -> None:
    assert parse_moves(" 4453\n") == [3, 3, 4, 2]
    assert parse_moves("") == []
