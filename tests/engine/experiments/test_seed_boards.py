"""The seeds' boards as written: the lenient reader, the rules' answers, and the strict readers unchanged."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from engine.agents.classroom import board_for_player
from engine.board import Board
from engine.errors import PositionError
from engine.experiments.seed_boards import SEED_000_WEIGHTS, read_leniently, tactics, unchecked_board
from engine.formats import from_array
from engine.grade.seed_boards import BOARDS

BY_LABEL = {board.label: board for board in BOARDS}


def test_every_board_of_the_seeds_is_read():
    assert len({board.label for board in BOARDS}) == len(BOARDS)
    assert Counter(board.seed for board in BOARDS) == {"000": 20, "001": 6, "003": 13, "004": 3}
    for board in BOARDS:
        position = read_leniently(board)
        assert position.mover & position.opponent == 0
        assert position.stones == _discs_written(board), board.label


def _discs_written(board) -> int:
    """The discs the seed writes, counted on its own text."""
    if board.encoding == "moves":
        return len(board.data)
    if board.encoding == "grid":
        return sum(line.count("X") + line.count("0") for line in board.data.splitlines() if not line.startswith("#"))
    return sum(1 for row in board.data for cell in row if cell not in (0, " "))


@pytest.mark.parametrize("label", ["000 4x4 a", "000 4x4 e", "000 4x4 g", "000 4x4 h"])
def test_impossible_counts_are_still_refused_by_the_strict_readers(label):
    board = BY_LABEL[label]
    with pytest.raises(PositionError):
        board_for_player(np.array(board.data), player=1, encoding="signed")
    position = read_leniently(board)
    assert position.problem and "disc" in position.problem
    assert not _strict_gives_the_move_to(position)
    # The agents get a board with the seed's player to move all the same.
    lenient = position.board()
    assert lenient.current == position.mover and lenient.mask == position.mover | position.opponent


def test_seed_001_characters_are_read_as_its_numbers_by_the_engine_readers():
    chars, numbers = BY_LABEL["001 7x7 a (x/o)"], BY_LABEL["001 7x7 a (numbers)"]
    assert board_for_player(np.array(chars.data), "x") == board_for_player(np.array(numbers.data), 1)
    a, b = read_leniently(chars), read_leniently(numbers)
    assert (a.mover, a.opponent) == (b.mover, b.opponent)
    assert a.problem is None and b.problem is None
    with pytest.raises(PositionError, match="characters 'x', 'o' and ' ', not 'q'"):
        from_array(np.array([["x", "q", "x", "x"]] * 4))


def test_legal_boards_go_through_the_strict_readers_with_the_seeds_side_to_move():
    for board in BOARDS:
        position = read_leniently(board)
        if position.problem is None and not position.over:
            strict = position.board()
            assert type(strict) is Board and strict.current == position.mover, board.label
            assert _strict_gives_the_move_to(position), board.label


def test_the_rules_answers_against_playing_the_moves():
    """A win column wins when played; where one column blocks, every other column loses at once."""
    checked = 0
    for board in BOARDS:
        position = read_leniently(board)
        if position.over:
            continue
        found = tactics(position.geometry, position.mover, position.opponent)
        game = position.board()
        for col in game.legal_columns():
            after = game.copy()
            after.play(col)
            assert (after.winner is not None) == (col in found.wins), (board.label, col)
            if not found.wins and found.blocks and col not in found.blocks:
                assert any(after.is_winning_move(reply) for reply in after.legal_columns()), (board.label, col)
        checked += 1
    assert checked == 39


def test_known_answers_of_the_seeds():
    """What the seeds say where they are right, worked out by the rules (columns 0-based here, as they print)."""
    wins = {label: tactics(p.geometry, p.mover, p.opponent).wins for label, p in _positions().items()}
    assert wins["000 4x4 b"] == (3,) and wins["000 4x4 c"] == (0, 2) and wins["001 7x7 b"] == (5,)
    assert wins["001 7x7 a (x/o)"] == (2,)  # "x is about to win (play in column 2)"
    threats = {label: tactics(p.geometry, p.mover, p.opponent).threats for label, p in _positions().items()}
    assert threats["004 state 3"] == (3,) and threats["000 4x4 block"] == (0,)


def _positions():
    return {board.label: read_leniently(board) for board in BOARDS}


def test_unchecked_board_does_not_loosen_board_checks():
    position = read_leniently(BY_LABEL["000 4x4 a"])
    board = unchecked_board(position.geometry, position.mover, position.opponent)
    assert board.current == position.mover
    assert not _strict_gives_the_move_to(position)  # Board.from_stones as strict as before


def _strict_gives_the_move_to(position) -> bool:
    """Whether Board.from_stones takes these stones, either way round, with the seed's side to move."""
    for first, second in ((position.mover, position.opponent), (position.opponent, position.mover)):
        try:
            board = Board.from_stones(first, second, position.geometry)
        except PositionError:
            continue
        if board.current == position.mover:
            return True
    return False


def test_seed_000_mode_3_without_the_cap_counts_windows_as_the_seed_weighs_them():
    """30 / 20 / 10 for each open window of three, two and one of the player's discs (the other's
    subtracted), a line worth 1: counted here cell by cell, against the study's rows."""
    from engine.experiments.seed_boards import BoardFacts

    rows = {r["board"]: r for r in BoardFacts(0.1).run()}
    three, two, one = SEED_000_WEIGHTS[3]
    for label in ("000 5x4 eval a", "000 5x4 eval b", "000 5x4 eval c"):
        position = read_leniently(BY_LABEL[label])
        g = position.geometry
        value = 0.0
        for window in _windows(g.cols, g.rows):
            mine = sum(1 for c, r in window if position.mover & g.cell(c, r))
            theirs = sum(1 for c, r in window if position.opponent & g.cell(c, r))
            for count, sign in ((mine, 1), (theirs, -1)):
                other = theirs if sign == 1 else mine
                if other == 0:
                    value += sign * {4: 1.0, 3: three, 2: two, 1: one}.get(count, 0.0)
        assert rows[label]["mode3_uncapped"] == pytest.approx(value), label
        assert abs(rows[label]["mode3"]) <= abs(value)


def _windows(cols: int, rows: int):
    for c in range(cols):
        for r in range(rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < cols and 0 <= y < rows for x, y in cells):
                    yield cells
