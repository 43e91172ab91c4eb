"""The search built ahead of time: built by the warm-up (once a version), exact, and what it spares ``solve``
and ``analyze``."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.board import Board
from engine.geometry import Geometry
from engine.score import Score
from engine.solver import aot
from engine.solver.auto import AutoSolver
from engine.solver.solver import Solver
from tests.engine.exhaustive import random_position

ROOT = Path(__file__).resolve().parents[2]
#: Middle-game positions that need a real search (thousands of nodes: more than plain Python's budget).
MIDDLE_GAMES = ["6614446666373154", "274552224131661", "5455174361263362", "2531276566711153"]


def build_in(folder: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m engine.warmup --ahead-of-time-only`` (what the game runs once a version) with this cache."""
    return subprocess.run(
        [sys.executable, "-m", "engine.warmup", "--ahead-of-time-only"],
        cwd=ROOT,
        env={**os.environ, "XDG_CACHE_HOME": folder, **env},
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A cache folder where the module was built (after a build that failed there: its note goes)."""
    folder = str(tmp_path_factory.mktemp("cache"))
    failed = build_in(folder, CC="/nonexistent/cc")  # (no C compiler: told in one line, noted, quick)
    assert failed.returncode == 1 and failed.stdout.count("\n") == 1 and "not built: " in failed.stdout
    result = build_in(folder)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ahead-of-time search") and "ok (" in result.stdout
    return folder


@pytest.fixture
def module(cache: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.setenv("XDG_CACHE_HOME", cache)
    loaded = aot.load()
    assert loaded is not None
    assert aot.tried() and not aot.note_path().exists()  # the failed build's note went with the module's build
    return loaded


def test_it_agrees_with_the_solver(module: ModuleType) -> None:
    geometry = Geometry()
    ahead, solver = aot.AheadOfTimeSolver(geometry, module, table_mb=8), Solver(geometry, 8)
    rng = random.Random(5)
    boards = [Board.from_moves(moves) for moves in MIDDLE_GAMES]
    boards += [Board.from_moves(random_position(geometry, rng.randrange(14, 30), rng)) for _ in range(30)]
    for board in boards:
        expected = solver.solve(board).score
        assert expected is not None
        assert ahead.solve(board) == expected.value, board.move_string
        assert ahead.solve(board, weak=True) == (expected.value > 0) - (expected.value < 0)
    for board in boards[:4]:
        assert ahead.analyze(board) == [None if s is None else s.value for s in solver.analyze(board).scores]


@pytest.mark.parametrize(
    ("cols", "rows", "connect"), [(6, 5, 3), pytest.param(9, 6, 5, marks=pytest.mark.slow), (4, 4, 4)]
)
def test_one_module_serves_every_board_of_one_word(module: ModuleType, cols: int, rows: int, connect: int) -> None:
    geometry = Geometry(cols, rows, connect)
    ahead, solver = aot.AheadOfTimeSolver(geometry, module, table_mb=8, budget=10**9), Solver(geometry, 8)
    rng = random.Random(cols * rows)
    for _ in range(15):
        board = Board.from_moves(
            random_position(geometry, rng.randrange(geometry.cells // 2, 2 * geometry.cells // 3), rng), geometry
        )
        expected = solver.solve(board).score
        assert expected is not None and ahead.solve(board) == expected.value, board.move_string


def test_where_it_is_built_plain_python_gives_up_sooner(
    cache: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.solver import quick

    monkeypatch.setenv("XDG_CACHE_HOME", cache)
    assert aot.built(Geometry()) and not aot.built(Geometry(8, 8, 4))  # (one word: up to 64 bits)
    solver = AutoSolver(book=False)
    assert solver._quick is not None and solver._quick.budget == aot.QUICK_BUDGET < quick.BUDGET
    assert solver.solve("12414273737").score == Score.pons(-11)  # a short win: still plain Python's
    assert solver._ahead is None
    solver.solve(MIDDLE_GAMES[0])  # beyond it: the search built ahead of time
    assert solver._ahead is not None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # none built
    unbuilt = AutoSolver(book=False)
    assert unbuilt._quick is not None and unbuilt._quick.budget == quick.BUDGET


def test_beyond_its_budget_it_gives_none(module: ModuleType) -> None:
    ahead = aot.AheadOfTimeSolver(Geometry(), module, table_mb=8, budget=5000)
    assert ahead.solve(Board.from_moves("44")) is None
    assert ahead.nodes >= 5000


def test_numba_goes_on_from_its_table(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aot, "BUDGET", 20_000)
    solver = AutoSolver(Geometry(), book=False)
    solution = solver.solve("2531276566711153")  # (63,000 nodes: beyond both budgets, so numba's answers)
    assert solver._ahead is not None and solver._ahead.nodes >= 20_000
    assert solver.compiled.table is solver._ahead.table  # it went on from what the search ahead of time proved
    assert solution.score == Score.pons(2)


def test_solve_and_analyze_answer_a_middle_game_without_numba(cache: str) -> None:
    code = (
        "import sys\n"
        "from engine.cli import main\n"
        f"main(['solve', {MIDDLE_GAMES[0]!r}])\n"
        f"main(['analyze', {MIDDLE_GAMES[0]!r}])\n"
        "print('numba' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "XDG_CACHE_HOME": cache},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert result.stdout.splitlines() == [f"{MIDDLE_GAMES[0]} -4", f"{MIDDLE_GAMES[0]} -4 -6 -11 -6 -13 x -6", "False"]


def test_a_damaged_module_is_not_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert aot.load() is None  # none built
    path = aot.module_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x7fELF not really" * 100)
    assert aot.load() is None


def test_a_numba_without_pycc_only_leaves_the_module_unbuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """The plan for numba.pycc's removal (docs/solver.md): the build says why in one line, the solvers go on,
    and the game does not try again at every start."""
    from engine.startup import SearchAheadOfTime
    from engine.startup.warmup import _build_ahead_of_time

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert not SearchAheadOfTime().is_done()
    monkeypatch.setitem(sys.modules, "numba.pycc", None)  # (an import of it then raises ImportError)
    assert _build_ahead_of_time() is False
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "not built: " in said
    assert aot.note_path().read_text(encoding="utf-8").strip() in said
    assert SearchAheadOfTime().is_done() and aot.load() is None
    monkeypatch.setattr(aot, "load", lambda: None)
    assert AutoSolver(book=False).solve("44444433333").finished


def test_only_the_search_prepares_no_agent(capsys) -> None:
    from engine.startup.warmup import main

    with pytest.raises(SystemExit) as ended:
        main(["--ahead-of-time-only", "hard"])
    assert ended.value.code == 2 and "prepares no agent" in capsys.readouterr().err


def test_the_help_of_solve_and_analyze_says_whether_it_is_built_here(
    cache: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from engine.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", cache)
    for command in ("solve", "analyze"):
        assert main([command, "--help"]) == 0
        assert "builds that search; here it is built." in capsys.readouterr().out
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["solve", "--help"]) == 0
    assert "here it is not built yet." in capsys.readouterr().out
    aot.note_path().parent.mkdir(parents=True)
    aot.note_path().write_text("no C compiler here\n", encoding="utf-8")
    assert main(["solve", "--help"]) == 0
    assert "here it could not be built: no C compiler here." in capsys.readouterr().out
