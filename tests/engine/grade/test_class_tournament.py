"""The class tournament: students against each other and the ladder, and their accuracy against the solver."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.experiments.class_tournament import PHASES, _accuracy, student_moves

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples" / "grade"


def _row(red: str, yellow: str, opening: str, moves: str, red_first: bool) -> dict:
    return {"red": red, "yellow": yellow, "opening": opening, "moves": moves, "red_first": red_first,
            "cols": 7, "rows": 6, "connect": 4}  # fmt: skip


def test_a_students_moves_are_the_positions_it_faced():
    # Red (alice) moves first from the empty board: she plays 4 and 5, bob 4 in between.
    rows = [_row("alice", "bob", "", "445", True)]
    assert student_moves(rows, "alice") == [("", 3), ("44", 4)]
    assert student_moves(rows, "bob") == [("4", 3)]
    # After a two-move opening, with bob (yellow) moving first.
    rows = [_row("alice", "bob", "12", "34", False)]
    assert student_moves(rows, "bob") == [("12", 2)] and student_moves(rows, "alice") == [("123", 3)]


def test_accuracy_counts_best_columns_among_solved_positions_by_phase():
    scores = {"": "-2,-1,0,1,0,-1,-2", "44": "x,x,x,1,1,0,-3"}  # "x": a full column
    moves = [("", 3), ("44", 6), ("4455", 0)]  # the last position was not solved: left out
    found = _accuracy(moves, scores, 42)
    assert found["opening"] == (1, 2) and found["middle"] == (0, 0) and set(found) == set(PHASES)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a fresh install compiles the ladder's and the solver's 8x8 kernels here
def test_a_class_plays_and_the_report_has_its_table(cli, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("right", "flipped_sign", "syntax_error"):
        shutil.copy(EXAMPLES / "seed003" / f"{name}.py", folder / f"{name}.py")
    out = tmp_path / "out"
    status, _, err = cli(["grade", str(folder), "--assignment", "seed003", "--out", str(out), "--no-progress",
                          "--jobs", "2", "--games", "2"])  # fmt: skip
    assert status == 0, err
    page = (out / "index.html").read_text()
    assert "Class tournament" in page and "Not in the tournament" in page and "syntax_error" in page
    for agent in ("right", "flipped_sign", "beginner (ladder)", "medium (ladder)"):
        assert f"<td>{agent}</td>" in page
    assert (out / "tournament.png").is_file() and (out / "accuracy.png").is_file()
    assert "Rank" in (out / "feedback" / "right.md").read_text()
