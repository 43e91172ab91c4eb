"""The example submissions (docs/examples/grade/): a right answer and typical bugs, and the marks each gets.

Marked with seed 0, the marks are fixed: the same seed gives the same cases
to every student and every run. A mark below full is the bug's cost and
nothing more: a bug in one function costs the questions that call it only
where the question is about the whole agent (``player``).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from engine.grade import assignment_named
from engine.grade.marking import mark

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples" / "grade"

#: Every question below full marks, per example file (seed 0); every other question is marked in full.
SEED_003_MARKS = {
    "right": {},
    "copy_move": {"dropPiece": 5.53},
    "flipped_sign": {"eval": 4.0, "player": 4.0},
    "hang": {"dropPiece": 9.47},
    "missed_diagonal": {"checkWin": 9.2, "eval": 12.0, "player": 18.0},
    "no_pruning": {"minMax": 13.85},
    "off_by_one_depth": {"minMax": 5.23, "player": 14.0},
    "syntax_error": {"dropPiece": 0.0, "checkWin": 0.0, "eval": 0.0, "minMax": 0.0, "player": 0.0},
}
SEED_000_MARKS = {"right": {}, "draw_and_sign": {"terminal": 4.38, "utility": 2.5}}
SEED_001_MARKS = {"right": {}, "own_order": {"alpha_beta_search": 1.12}}


def _mark(assignment: str, student: str, question: str) -> list[dict]:
    path = EXAMPLES / assignment / f"{student}.py"
    return mark(assignment_named(assignment).question(question), student, {path.name: path.read_bytes()}, path.name, 0)


# -- a fast sample ---------------------------------------------------------------------------------
def test_no_pruning_loses_the_calls_past_the_first_cut_and_is_told_where():
    rows = _mark("seed003", "no_pruning", "minMax")
    assert rows[-1]["points"] == SEED_003_MARKS["no_pruning"]["minMax"]
    first = next(row for row in rows if row["kind"] == "case" and row["score"] < 1)
    assert "never visits" in first["message"] and "alpha >= beta" in first["message"]
    divergence = json.loads(first["divergence"])
    assert divergence["ours"] != divergence["theirs"]


def test_a_copy_instead_of_an_in_place_move_gets_half_of_each_drop():
    rows = _mark("seed003", "copy_move", "dropPiece")
    assert rows[-1]["points"] == SEED_003_MARKS["copy_move"]["dropPiece"]
    assert any("IN PLACE" in row["message"] for row in rows if row["kind"] == "case")


def test_a_file_that_does_not_load_costs_the_question_with_its_line():
    rows = _mark("seed003", "syntax_error", "eval")
    assert rows[-1]["points"] == 0 and rows[-1]["message"].startswith("syntax_error.py does not load: SyntaxError")
    assert "line 19 of syntax_error.py" in rows[-1]["message"]


def test_a_hang_costs_its_case_only():
    rows = _mark("seed003", "hang", "dropPiece")
    cases = [row for row in rows if row["kind"] == "case"]
    late = [row for row in cases if "ran out of time" in row["message"]]
    assert len(late) == 1 and rows[-1]["points"] == SEED_003_MARKS["hang"]["dropPiece"]


# -- every example, every question ------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize(
    ("assignment", "marks"), [("seed003", SEED_003_MARKS), ("seed000", SEED_000_MARKS), ("seed001", SEED_001_MARKS)]
)
def test_every_example_gets_its_marks(cli, tmp_path, assignment, marks):
    out = tmp_path / "out"
    status, printed, _ = cli(["grade", str(EXAMPLES / assignment), "--assignment", assignment, "--out", str(out),
                              "--no-tournament", "--no-progress", "--jobs", "2"])  # fmt: skip
    assert status == 0
    with (out / "grades.csv").open(newline="") as file:
        rows = list(csv.DictReader(file))
    questions = [q.name for q in assignment_named(assignment).questions]
    assert {row["student"] for row in rows} == set(marks)
    for row in rows:
        full = float(row["max_points"])
        expected = marks[row["student"]].get(row["question"], full)
        assert float(row["points"]) == expected, (row["student"], row["question"], row["message"])
        assert row["question"] in questions
    assert (out / "index.html").is_file() and all((out / "feedback" / f"{name}.md").is_file() for name in marks)
    assert "right" in printed
