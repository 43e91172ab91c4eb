"""The rules, on every board size: Board and the kernels against the reference game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from engine.board import Board, Side
from engine.errors import IllegalMoveError
from engine.geometry import Geometry
from engine.kernels import rules
from tests.engine.reference import ReferenceGame
from tests.engine.strategies import choices, geometries, play_picks


def _kernel_legal(geometry: Geometry, current, mask) -> list[int]:
    return [c for c in range(geometry.cols) if rules.can_play(mask, geometry.kernel, c)]


@settings(max_examples=150)
@given(geometries(), choices())
def test_random_games_agree_with_the_reference(geometry: Geometry, picks: list[int]) -> None:
    board, reference = Board(geometry), ReferenceGame(geometry.cols, geometry.rows, geometry.connect)
    g = geometry.kernel
    current, mask = board.kernel_state()
    for pick in picks:
        legal = reference.legal()
        assert board.legal_columns() == legal
        assert board.is_over == (not legal)
        if not legal:
            break
        assert _kernel_legal(geometry, current, mask) == legal
        col = legal[pick % len(legal)]
        assert board.is_winning_move(col) == rules.is_winning_move(current, mask, g, col)
        will_win = board.is_winning_move(col)
        board.play(col)
        reference.play(col)
        current, mask = rules.play(current, mask, g, col)
        current, mask = (
            geometry.to_kernel(geometry.from_kernel(current)),
            geometry.to_kernel(geometry.from_kernel(mask)),
        )
        assert (geometry.from_kernel(current), geometry.from_kernel(mask)) == (board.current, board.mask)
        assert will_win == (reference.winner is not None)
        assert board.winner == (None if reference.winner is None else Side(reference.winner))
        assert board.is_draw == reference.draw
        assert rules.stones(mask) == board.ply == reference.moves
    # Undo walks all the way back to the empty board.
    while board.history:
        board.undo()
    assert board == Board(geometry) and board.winner is None


@settings(max_examples=60)
@given(geometries(), choices(30))
def test_winning_cells_are_exactly_the_winning_moves(geometry: Geometry, picks: list[int]) -> None:
    board = play_picks(geometry, picks)
    if board.is_over:
        return
    current, mask = board.kernel_state()
    cells = geometry.from_kernel(rules.winning_cells(current, mask, geometry.kernel))
    playable = geometry.from_kernel(rules.playable_cells(mask, geometry.kernel))
    for col in board.legal_columns():
        landing = playable & geometry.column_mask(col)
        assert bool(cells & landing) == board.is_winning_move(col)


def test_play_undo_history_and_turns() -> None:
    board = Board()
    assert board.turn is Side.FIRST and board.ply == 0
    board.play(3)
    board.play(3)
    assert board.turn is Side.FIRST and board.history == (3, 3) and board.move_string == "44"
    assert board.cell(3, 0) is Side.FIRST and board.cell(3, 1) is Side.SECOND and board.cell(3, 2) is None
    assert board.undo() == 3
    assert board.history == (3,) and board.turn is Side.SECOND


def test_no_move_after_a_win_and_the_winning_line() -> None:
    board = Board.from_moves("1212121")
    assert board.winner is Side.FIRST and board.is_over
    assert board.winning_cells() == [(0, 0), (0, 1), (0, 2), (0, 3)]
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.play(3)
    assert board.legal_columns() == []


def test_a_full_board_without_a_line_is_a_draw() -> None:
    # Connect 4 on 4x4: columns filled in the pattern 1122 / 2211 never make a line.
    board = Board.from_moves("1234" * 2 + "2143" * 2, Geometry(4, 4, 4))
    assert board.is_full and board.is_draw and board.winner is None


@pytest.mark.parametrize(
    ("col", "message"),
    [(-1, "no column 0"), (7, "no column 8"), ("3", "whole number"), (True, "whole number")],
)
def test_illegal_columns_are_explained(col: object, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        Board().play(col)  # type: ignore[arg-type]


def test_a_full_column_is_illegal() -> None:
    board = Board.from_moves("444444")
    assert board.legality(3) == "column 4 is full"
    assert 3 not in board.legal_columns()


def test_undo_on_an_empty_board_is_an_error() -> None:
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        Board().undo()


def test_symmetric_key_is_shared_by_mirror_images() -> None:
    left, right = Board.from_moves("1122"), Board.from_moves("7766")
    assert left.key() != right.key()
    assert left.symmetric_key() == right.symmetric_key()
    assert Board.from_moves("12").symmetric_key() != Board.from_moves("13").symmetric_key()


def test_a_board_is_no_dictionary_key_its_key_is() -> None:
    """A board changes with every move; equal positions compare equal, and ``key()`` is their number."""
    board = Board.from_moves("44")
    with pytest.raises(TypeError, match="unhashable"):
        {board}  # noqa: B018 - the set is the point
    assert board == Board.from_moves("44") and board.key() == Board.from_moves("44").key()


@pytest.mark.parametrize("geometry", [Geometry(8, 8, 4), Geometry(9, 9, 6), Geometry(4, 9, 4)])
def test_wide_boards_play_a_whole_column_to_its_top(geometry: Geometry) -> None:
    board = Board(geometry)
    last = geometry.cols - 1
    for _ in range(geometry.rows):
        board.play(last)
        if board.is_over:
            break
        board.play(0 if board.height(0) < geometry.rows else 1)
    assert board.height(last) == geometry.rows or board.winner is not None
