"""The opening explorer and the puzzle commands from the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.board import Board
from engine.errors import IllegalMoveError
from engine.explore import Explorer
from engine.geometry import Geometry
from engine.puzzles import store
from engine.puzzles.build import build
from engine.solver.auto import AutoSolver
from engine.solver.book import load_default
from engine.solver.solver import Solver

ROOT = Path(__file__).resolve().parents[2]


def exact(board: Board) -> list[int | None]:
    analysis = Solver(board.geometry, 16).analyze(board)
    return [None if score is None else int(score.value) for score in analysis.scores]


@pytest.mark.parametrize("moves", ["", "4", "4453", "44444", "3346"])
def test_the_book_answers_every_column_as_the_solver_with_the_book_does(moves: str) -> None:
    """(The book's own values are checked by ``book --verify``: docs/solver.md.)"""
    board = Board.from_moves(moves)
    found = Explorer(AutoSolver()).explore(board)
    solver = Solver(board.geometry, 16, book=load_default(board.geometry))
    assert found.finished
    assert [value.score for value in found.columns] == [
        None if score is None else int(score.value) for score in solver.analyze(board).scores
    ]
    assert [value.full for value in found.columns] == [not board.is_legal(col) for col in range(7)]


@pytest.mark.parametrize("moves", ["4444443223326677", "1234567123456712"])
def test_every_column_is_the_exact_value_and_the_line_is_made_of_best_moves(moves: str) -> None:
    board = Board.from_moves(moves)
    found = Explorer(AutoSolver(), line_nodes=100_000).explore(board)
    assert [value.score for value in found.columns] == exact(board)
    walk = board.copy()
    for col in found.line[:4]:
        values = exact(walk)
        assert values[col] == max(v for v in values if v is not None)
        walk.play(col)


def test_a_position_the_book_answers_is_explored_without_loading_numba() -> None:
    code = (
        "import sys, json\n"
        "from engine.board import Board\n"
        "from engine.explore import Explorer\n"
        "from engine.solver.auto import AutoSolver\n"
        "found = Explorer(AutoSolver()).explore(Board.from_moves('4453'))\n"
        "print(json.dumps([found.finished, 'numba' in sys.modules, len(found.line)]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    finished, numba, line = json.loads(out)
    assert finished and not numba and line >= 1


def test_a_finished_game_is_nothing_to_explore(cli) -> None:
    with pytest.raises(IllegalMoveError):
        Explorer(AutoSolver()).explore(Board.from_moves("1212121"))
    status, out, err = cli(["explore", "1212121", "4453"])
    assert status == 1
    assert out.splitlines()[0] == "1212121 ?" and "already over" in err
    assert "4453: X to move" in out


def test_explore_json_and_a_board_without_a_book(cli) -> None:
    status, out, _ = cli(["explore", "--json", "--cols", "5", "--rows", "4", "33"])
    assert status == 0
    data = json.loads(out)
    assert data["position"] == "33" and len(data["columns"]) == 5
    board = Board.from_moves("33", Geometry(5, 4))
    assert [column["score"] for column in data["columns"]] == exact(board)
    assert [column["column"] for column in data["columns"]] == [1, 2, 3, 4, 5]
    assert sum(column["best"] for column in data["columns"]) == 1 and data["line"][0] == data["best"]
    status, _, err = cli(["explore", "--cols", "12", "4"])
    assert status == 2 and err.count("\n") == 1


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("puzzles") / "set.txt"
    puzzles, _ = build([Geometry(6, 5)], seed=2, games=3, per_band=3, progress=False)
    store.save(store.PuzzleSet(tuple(puzzles), 2, 3, 3, ("6x5x4",)), path)
    return path


def test_puzzles_export_prints_one_a_line_and_filters(cli, puzzle_file: Path) -> None:
    status, out, _ = cli(["puzzles", "export", "--json", "--file", str(puzzle_file)])
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(store.load(puzzle_file).puzzles)
    keys = {"id", "cols", "rows", "connect", "position", "kind", "solution", "band", "motifs", "line"}
    assert all(set(row) == keys and len(row["solution"]) == 1 for row in rows)
    band = rows[0]["band"]
    status, out, _ = cli(["puzzles", "export", "--file", str(puzzle_file), "--band", str(band)])
    assert len(out.splitlines()) == sum(row["band"] == band for row in rows)
    assert all(line.split()[5] == str(band) for line in out.splitlines())


def test_a_damaged_puzzle_file_is_one_error_line_and_is_left_as_it_was(cli, puzzle_file: Path, tmp_path) -> None:
    damaged = tmp_path / "damaged.txt"
    text = puzzle_file.read_text().replace('"band":', '"band" :', 1)
    damaged.write_text(text)
    for argv in (
        ["puzzles", "export", "--file", str(damaged)],
        ["puzzles", "build", "--verify", "--output", str(damaged)],
    ):
        status, out, err = cli(argv)
        assert status == 2 and out == "" and err.count("\n") == 1 and "damaged" in err
    assert damaged.read_text() == text


def test_puzzles_build_verify_passes_a_sound_file(cli, puzzle_file: Path) -> None:
    status, out, _ = cli(["puzzles", "build", "--verify", "--quiet", "--output", str(puzzle_file)])
    assert status == 0 and out.splitlines()[-1].endswith("puzzles are right")


def test_review_puzzles_prints_the_mistakes_in_the_export_format(cli) -> None:
    rng, board = random.Random(11), Board(Geometry(6, 5))  # random moves: mistakes on both sides
    while not board.is_over:
        board.play(rng.choice(board.legal_columns()))
    status, out, _ = cli(["review", "--puzzles", "--json", "--cols", "6", "--rows", "5", board.move_string or ""])
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows and all(row["id"].startswith("mine-6x5x4-") and row["solution"] for row in rows)
    status, _, err = cli(["review", "--json", "4453"])
    assert status == 2 and "--puzzles" in err
