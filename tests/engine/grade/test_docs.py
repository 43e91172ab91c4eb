"""docs/grading.md says what the code does: every question with its signature and points, and the examples' marks."""

from __future__ import annotations

import re
from pathlib import Path

from engine.grade import NAMES, assignment_named
from tests.engine.grade.test_examples import SEED_000_MARKS, SEED_001_MARKS, SEED_003_MARKS

DOC = (Path(__file__).parents[3] / "docs" / "grading.md").read_text()


def test_every_question_is_in_the_students_tables_with_its_points():
    for name in NAMES:
        section = DOC.split(f"### {name}:", 1)[1].split("\n### ", 1)[0]
        for question in assignment_named(name).questions:
            row = re.search(rf"\| `{re.escape(question.signature)}` \| ([0-9.]+) \|", section)
            assert row is not None, (name, question.signature)
            assert float(row.group(1)) == question.points, (name, question.signature)


def test_the_examples_table_gives_the_marks_the_tests_check():
    for student, lost in SEED_003_MARKS.items():
        total = assignment_named("seed003").points - sum(
            assignment_named("seed003").question(q).points - points for q, points in lost.items()
        )
        row = re.search(rf"\| `seed003/{student}.py` \| ([0-9.]+) \|", DOC)
        assert row is not None and abs(float(row.group(1)) - total) < 1e-9, student
    for assignment, marks in (("seed000", SEED_000_MARKS), ("seed001", SEED_001_MARKS)):
        full = assignment_named(assignment).points
        totals = [
            full - sum(assignment_named(assignment).question(q).points - p for q, p in marks[s].items()) for s in marks
        ]
        shown = ", ".join(f"{t:g}" for t in totals)
        assert shown in DOC, (assignment, shown)
