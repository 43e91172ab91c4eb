"""AutoSolver: one way in for every caller, the quickest solver that can answer, one result type."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import AutoSolver, Board, Geometry, Limits, StopFlag
from engine.errors import GeometryError, PositionError, ValueRangeError
from engine.score import Score
from engine.solver import Analysis, Solution, Solver, aot

ROOT = Path(__file__).resolve().parents[2]
END_GAME = "5554224333234511764415115"  # the plain-Python solver answers it
MIDDLE_GAME = "6614446666373154"  # thousands of nodes: beyond plain Python's budget, quick for numba


def test_every_answer_is_the_same_type_whichever_solver_gave_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aot, "load", lambda: None)  # (no search built ahead of time: plain Python, then numba)
    solver = AutoSolver(book=False, table_mb=8)
    quick = solver.solve(END_GAME)
    assert type(quick) is Solution and quick.score == Score.pons(4) and solver._compiled is None
    compiled = solver.solve(MIDDLE_GAME)  # beyond the quick solver: numba's answers, and every one after it
    assert type(compiled) is Solution and compiled.score == Score.pons(-4) and solver._compiled is not None
    assert solver.solve(END_GAME).score == Score.pons(4) and solver._quick is None  # (no longer asked)
    assert solver.solve(END_GAME, weak=True).score == Score.sign(1)
    assert type(solver.analyze(Board.from_moves(END_GAME))) is Analysis


def test_the_quick_answers_agree_with_the_compiled_solver() -> None:
    fresh, compiled = AutoSolver(book=False, table_mb=8), Solver(Geometry(), 8)
    board = Board.from_moves(END_GAME)
    assert (
        fresh.analyze(END_GAME).scores
        == compiled.analyze(board).scores
        == tuple(None if s is None else Score.pons(s) for s in (-8, -8, -8, -8, None, 4, -8))
    )
    assert fresh._compiled is None  # (answered without numba's solver)
    assert fresh.solve(board, weak=True).score == compiled.solve(board, weak=True).score
    signs = tuple(None if s is None else Score.sign(s) for s in (-1, -1, -1, -1, None, 1, -1))
    assert fresh.analyze(END_GAME, weak=True).scores == compiled.analyze(board, weak=True).scores == signs


def test_a_weak_analysis_is_the_sign_of_each_column_by_every_way_in() -> None:
    """Within limits (the compiled search), from the book, and past it: the signs of the exact scores."""
    solver = AutoSolver(table_mb=8)
    for moves in ("44", MIDDLE_GAME, END_GAME):
        exact = solver.analyze(moves).scores
        signs = tuple(None if s is None else Score.sign((s.value > 0) - (s.value < 0)) for s in exact)
        assert solver.analyze(moves, weak=True).scores == signs, moves
        assert solver.analyze(moves, Limits(seconds=60), weak=True).scores == signs, moves


def test_limits_go_to_the_compiled_solver_and_an_unfinished_solve_says_so() -> None:
    solver = AutoSolver(book=False, table_mb=8)
    limited = solver.solve("", Limits(nodes=100))
    assert type(limited) is Solution and not limited.finished and limited.nodes >= 100
    stop = StopFlag()
    stop.set()
    assert not solver.analyze("44", Limits(stop=stop)).finished


def test_bad_input_is_one_clear_error() -> None:
    solver = AutoSolver(book=False, table_mb=8)
    with pytest.raises(PositionError):
        solver.solve("448x")
    with pytest.raises(GeometryError):
        solver.solve(Board(Geometry(8, 8, 4)))
    with pytest.raises(ValueRangeError):
        AutoSolver(table_mb=10**9)


def test_a_fresh_process_answers_an_end_game_without_numba() -> None:
    code = (
        "import sys\n"
        "from engine import AutoSolver\n"
        f"print(AutoSolver().solve({END_GAME!r}).score)\n"
        "print('numba' in sys.modules, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["4", "False False"]
