"""Evaluation functions: hand-worked positions, the seeds' own figures, and a naive recount on every size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from engine.board import Board, Side
from engine.geometry import Geometry
from engine.kernels.evaluation import (
    BAD_THREAT,
    GOOD_THREAT,
    LINE_VALUE,
    NAMES,
    OPEN_ONE,
    OPEN_TWO,
    STACKED_THREAT,
    evaluate_board,
    evaluation_id,
    threat_cells,
)
from engine.kernels.rules import winning_cells
from tests.engine.strategies import choices, geometries


# -- a naive recount, cell by cell ------------------------------------------------------------
def _windows(geometry: Geometry) -> list[list[tuple[int, int]]]:
    """Every line of ``connect`` cells that fits on the board."""
    found = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for col in range(geometry.cols):
            for row in range(geometry.rows):
                cells = [(col + k * dc, row + k * dr) for k in range(geometry.connect)]
                if all(0 <= c < geometry.cols and 0 <= r < geometry.rows for c, r in cells):
                    found.append(cells)
    return found


def _open(board: Board, side: Side) -> list[int]:
    """Windows without stones of the other side, by cells missing (0..3, at least one stone)."""
    counts = [0, 0, 0, 0]
    for window in _windows(board.geometry):
        owners = [board.cell(c, r) for c, r in window]
        mine = owners.count(side)
        if mine and side.other not in owners and len(window) - mine < 4:
            counts[len(window) - mine] += 1
    return counts


def _central(board: Board, side: Side) -> int:
    g, score = board.geometry, 0
    for col in range(g.cols):
        distance = abs(2 * col - (g.cols - 1))
        points = 2 if distance <= 1 else 1 if distance <= 3 else 0
        score += points * sum(board.cell(col, row) is side for row in range(g.rows))
    return score


def _threat_cells(board: Board, side: Side) -> set[tuple[int, int]]:
    """Empty cells (anywhere, not only playable) that would complete a line of ``side``."""
    cells = set()
    for window in _windows(board.geometry):
        owners = [board.cell(c, r) for c, r in window]
        if owners.count(side) == len(window) - 1 and owners.count(None) == 1:
            cells.add(window[owners.index(None)])
    return cells


def _threats(board: Board) -> int:
    me, opp = board.turn, board.turn.other
    mine, theirs = _threat_cells(board, me), _threat_cells(board, opp)
    playable = {(c, board.height(c)) for c in board.legal_columns()}
    if mine & playable:
        return LINE_VALUE
    if len(theirs & playable) >= 2:
        return -LINE_VALUE

    def weigh(cells: set[tuple[int, int]], side: Side) -> int:
        good = [(c, r) for c, r in cells if r % 2 == side]  # the first player (0) favours rows 1, 3, ... (r even)
        stacked = [(c, r) for c, r in cells if (c, r - 1) in cells]
        return GOOD_THREAT * len(good) + BAD_THREAT * (len(cells) - len(good)) + STACKED_THREAT * len(stacked)

    my_open, their_open = _open(board, me), _open(board, opp)
    return (
        weigh(mine, me)
        - weigh(theirs, opp)
        + OPEN_TWO * (my_open[2] - their_open[2])
        + OPEN_ONE * (my_open[3] - their_open[3])
    )


def naive(board: Board, name: str) -> int:
    """The evaluation ``name`` recomputed from its definition, window by window."""
    me, opp = board.turn, board.turn.other
    mine, theirs = _open(board, me), _open(board, opp)
    lines = mine[0] - theirs[0]
    central = _central(board, me) - _central(board, opp)
    f2 = 100 * lines + mine[1] - theirs[1]
    f3 = 100 * lines + central
    if name == "seed003":
        if mine[0] or theirs[0]:
            return LINE_VALUE if mine[0] else -LINE_VALUE
        return 50 * (mine[1] - theirs[1]) + 10 * (mine[2] - theirs[2])
    return {
        "zero": 0,
        "nlines4": lines,
        "nlines3": mine[1] - theirs[1],
        "central": central,
        "f1": lines,
        "f2": f2,
        "f3": f3,
        "f4": 5 * f2 + f3,
        "seed000": 3 * (mine[1] - theirs[1]) + 2 * (mine[2] - theirs[2]) + (mine[3] - theirs[3]),
        "seed004": 512 * lines + 50 * (mine[1] - theirs[1]) + 10 * (mine[2] - theirs[2]) + mine[3] - theirs[3] + 16,
        "threats": _threats(board) if board.winner is None else None,
    }[name]


def _random_board(geometry: Geometry, picks: list[int]) -> Board:
    board = Board(geometry)
    for pick in picks:
        legal = board.legal_columns()
        if not legal or board.is_winning_move(legal[pick % len(legal)]):
            break
        board.play(legal[pick % len(legal)])
    return board


@settings(max_examples=120)
@given(geometries(), choices(60))
def test_every_evaluation_matches_a_naive_recount_on_every_board_size(geometry: Geometry, picks: list[int]) -> None:
    board = _random_board(geometry, picks)
    for name in NAMES:
        assert evaluate_board(board, name) == naive(board, name), name


@settings(max_examples=120)
@given(geometries(), choices(60))
def test_threat_cells_are_the_rules_winning_cells(geometry: Geometry, picks: list[int]) -> None:
    board = _random_board(geometry, picks)
    g, (current, mask) = geometry.kernel, board.kernel_state()
    for stones in (current, geometry.to_kernel(board.current ^ board.mask)):
        fast, rules = threat_cells(stones, mask, g), winning_cells(stones, mask, g)
        assert geometry.from_kernel(fast) == geometry.from_kernel(rules)


# -- positions worked out by hand ----------------------------------------------------------
def test_the_empty_board_is_level_except_for_seed_004s_move_bonus() -> None:
    for name in NAMES:
        assert evaluate_board(Board(), name) == (16 if name == "seed004" else 0), name


def test_one_stone_in_the_centre() -> None:
    # X on the bottom of column 4; O to move. The stone lies in 7 windows, all open for X
    # with 3 cells missing: 4 horizontal, 1 vertical, 1 per diagonal. It is in the centre
    # column, worth 2 to central().
    board = Board.from_moves("4")
    expected = {"seed004": -7 + 16, "seed000": -7, "central": -2, "f3": -2, "f4": -2, "threats": -7 * OPEN_ONE}
    for name in NAMES:
        assert evaluate_board(board, name) == expected.get(name, 0), name


def test_seed_002_functions_on_three_in_a_row() -> None:
    # X: bottom of columns 4, 5, 6; O: on top of columns 4 and 5; O to move.
    # nlines3: X's windows 3-6 and 4-7 of the bottom row hold three X and an empty cell.
    # central: X has columns 4 (2 points) and 5 (1); O the same, so 3 - 3 = 0.
    board = Board.from_moves("44556")
    assert evaluate_board(board, "nlines4") == 0
    assert evaluate_board(board, "nlines3") == -2
    assert evaluate_board(board, "central") == 0
    assert evaluate_board(board, "f2") == 100 * 0 - 2
    assert evaluate_board(board, "f3") == 100 * 0 + 0
    assert evaluate_board(board, "f4") == 5 * -2 + 0


def test_seed_002_counts_a_finished_line() -> None:
    # X completes the bottom row (columns 4-7); O would be to move. Besides the line, X has
    # one window of three and an empty cell (columns 3-6), O two (row 2, columns 3-6 and 4-7).
    board = Board.from_moves("4455667")
    assert evaluate_board(board, "nlines4") == -1
    assert evaluate_board(board, "f1") == -1
    assert evaluate_board(board, "f2") == -100 + 2 - 1


# Seed 003's appendix: boards from makeExample (0-based columns, X first) on 8x8 and the
# value eval() must give them with THREE_SCORE = 50 and TWO_SCORE = 10, from O's point of view.
SEED_003_APPENDIX = [
    ([3, 0, 4, 2, 5, 2, 4], -80),
    ([6, 5, 1], 0),
    ([0, 2, 6, 1, 2, 1], 20),
    ([2, 6, 6, 1, 4, 0, 3, 3, 3, 2], -20),
    ([4, 3, 2, 6, 5, 3, 7, 5, 4, 4, 1, 2], 90),
    ([3, 5, 6, 2, 2, 5, 7, 3, 6, 6, 5, 4, 6, 4, 4], -10),
    ([5, 1, 7, 0, 3, 6, 1, 4, 2, 2, 5, 0, 4, 5, 4, 2, 3, 6, 6, 1, 1, 2, 2, 7, 6, 7, 2, 0, 0, 5, 4, 7, 7, 4, 2], -30),
    # The seed plays one more move after these wins; the board stops at the winning move.
    ([7, 1, 1, 5, 6, 1, 7, 6, 1, 3, 1, 2, 6, 0], LINE_VALUE),
    ([7, 7, 7, 4, 0, 0, 7, 6, 7, 2, 6, 6, 7], -LINE_VALUE),
]


@pytest.mark.parametrize(("moves", "value_for_o"), SEED_003_APPENDIX)
def test_seed_003_appendix_values(moves: list[int], value_for_o: int) -> None:
    board = Board.from_moves(moves, Geometry(8, 8))
    value = evaluate_board(board, "seed003")
    assert (value if board.turn is Side.SECOND else -value) == value_for_o


def test_threats_sees_a_win_now_and_a_double_threat() -> None:
    assert evaluate_board(Board.from_moves("445566"), "threats") == LINE_VALUE  # X to move completes the row
    assert evaluate_board(Board.from_moves("44556"), "threats") == -LINE_VALUE  # O cannot block 3 and 7 both


def test_unknown_evaluation_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown evaluation 'nope'"):
        evaluation_id("nope")
