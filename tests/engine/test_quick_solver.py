"""The plain-Python quick solver: exact where it answers, and what it spares ``solve`` and ``analyze``."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.board import Board, has_line
from engine.geometry import Geometry
from engine.solver.quick import QuickSolver
from tests.engine.exhaustive import columns_of, make_solver, random_position
from tests.engine.test_solver import needs_pons, pons_lines

ROOT = Path(__file__).resolve().parents[2]


@needs_pons
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"])
def test_where_it_answers_it_agrees_with_the_pons_sets(name: str) -> None:
    quick = QuickSolver(Geometry())
    answered = 0
    for moves, score in pons_lines(name)[:60]:
        found = quick.solve(Board.from_moves(moves))
        if found is not None:
            answered += 1
            assert found == int(score), moves
            assert quick.solve(Board.from_moves(moves), weak=True) == (int(score) > 0) - (int(score) < 0)
    assert answered >= 30  # end games and early middle games are within its budget


@needs_pons
def test_its_analysis_agrees_with_the_pons_analysis() -> None:
    quick = QuickSolver(Geometry())
    for moves, *scores in pons_lines("Test_L3_R1", ".analysis.txt")[:30]:
        expected = [None if s == "x" else int(s) for s in scores]
        assert quick.analyze(Board.from_moves(moves)) == expected, moves


@pytest.mark.parametrize(
    ("cols", "rows", "connect"),
    [
        (4, 4, 4),
        pytest.param(5, 4, 4, marks=pytest.mark.slow),
        (4, 5, 3),
        pytest.param(5, 5, 4, marks=pytest.mark.slow),
    ],
)
def test_small_boards_match_an_exhaustive_search(cols: int, rows: int, connect: int) -> None:
    geometry = Geometry(cols, rows, connect)
    quick = QuickSolver(geometry, budget=10**6)
    score, column_scores, _ = make_solver(cols, rows, connect)
    rng = random.Random(cols * 10 + rows)
    for _ in range(8):
        moves = random_position(geometry, geometry.cells // 3, rng)
        board = Board.from_moves(moves, geometry)
        if board.is_over:
            continue
        columns = columns_of(moves, cols)
        assert quick.solve(board) == score(columns, len(moves)), moves
        assert quick.analyze(board) == column_scores(columns, len(moves)), moves


@pytest.mark.parametrize(("cols", "rows", "connect"), [(7, 6, 4), (9, 5, 4), (4, 9, 3), (8, 8, 5), (9, 9, 6)])
def test_its_winning_cells_are_the_empty_cells_that_complete_a_line(cols: int, rows: int, connect: int) -> None:
    geometry = Geometry(cols, rows, connect)
    quick = QuickSolver(geometry)
    cells = [geometry.cell(col, row) for col in range(cols) for row in range(rows)]
    rng = random.Random(cols * rows * connect)
    for _ in range(40):
        board = Board.from_moves(random_position(geometry, rng.randrange(geometry.cells), rng), geometry)
        for bits in (board.current, board.current ^ board.mask):
            expected = sum(cell for cell in cells if not cell & board.mask and has_line(bits | cell, geometry))
            assert quick._winning_cells(bits, board.mask) == expected, board.move_string


def test_a_search_beyond_the_budget_gives_none_quickly() -> None:
    quick = QuickSolver(Geometry(), budget=500)
    assert quick.solve(Board()) is None
    assert quick.analyze(Board.from_moves("44")) is None
    assert quick.nodes == 501  # it stops at the budget


def _run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=300
    ).stdout


@pytest.mark.slow
def test_solve_answers_an_end_game_without_loading_numba_and_a_harder_position_with_it() -> None:
    # 5554224333234511764415115 is an end game; 4444 needs the compiled search.
    out = _run(
        "import sys\n"
        "from engine.cli import main\n"
        "main(['solve', '5554224333234511764415115', '52753311433677442422121'])\n"
        "print('numba' in sys.modules, 'numpy' in sys.modules)\n"
        "main(['solve', '--no-book', '4444', '5554224333234511764415115'])\n"
        "print('numba' in sys.modules)\n"
    )
    assert out.splitlines() == [
        "5554224333234511764415115 4",
        "52753311433677442422121 8",
        "False False",
        "4444 1",
        "5554224333234511764415115 4",
        "True",
    ]


def test_analyze_answers_an_end_game_without_loading_numba() -> None:
    out = _run(
        "import sys\n"
        "from engine.cli import main\n"
        "main(['analyze', '5554224333234511764415115'])\n"
        "print('numba' in sys.modules, 'numpy' in sys.modules)\n"
    )
    assert out.splitlines() == ["5554224333234511764415115 -8 -8 -8 -8 x 4 -8", "False False"]
