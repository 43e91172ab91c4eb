"""Finding a class's submissions: files and folders, the file that is marked, names that are no text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.grade.report import clean, markdown_text
from engine.grade.submissions import find_submissions, safe_name

FUNCTIONS = ["dropPiece", "checkWin", "eval"]


def test_files_and_folders_are_students_and_the_folders_main_file_is_found(tmp_path: Path):
    (tmp_path / "alice.py").write_text("def dropPiece(p, m, b):\n    return b\n")
    bob = tmp_path / "bob"
    (bob / "data").mkdir(parents=True)
    (bob / "helpers.py").write_text("X = 1\n")
    (bob / "answers.py").write_text("from helpers import X\ndef dropPiece(): pass\ndef eval(b): return 0\n")
    (bob / "data" / "weights.txt").write_text("1 2 3\n")
    (bob / ".secret").write_text("not sent")
    (tmp_path / ".hidden.py").write_text("")
    (tmp_path / "link.py").symlink_to(tmp_path / "alice.py")
    (bob / "alices.py").symlink_to(tmp_path / "alice.py")  # a link is never read, and said to be left out
    found = {s.student: s for s in find_submissions(tmp_path, FUNCTIONS)}
    assert set(found) == {"alice", "bob"}
    assert found["bob"].main == "answers.py"
    assert [name for name, _ in found["bob"].files] == ["answers.py", "helpers.py", "data/weights.txt"]
    assert found["bob"].note.startswith("1 file left out")
    assert found["alice"].digest != found["bob"].digest


def test_a_name_that_is_not_text_is_still_a_student(tmp_path: Path):
    name = os.fsdecode(b"caf\xe9.py")
    (tmp_path / name).write_text("def eval(b): return 0\n")
    (student,) = find_submissions(tmp_path, FUNCTIONS)
    student.student.encode("utf-8")  # no lone surrogate: rows and files can hold it
    assert student.student == "caf\ufffd"


def test_bad_folders_are_one_line(tmp_path: Path):
    with pytest.raises(EngineError, match="no submissions"):
        find_submissions(tmp_path, FUNCTIONS)
    (tmp_path / "a.py").write_text("")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "a.py").write_text("")
    with pytest.raises(EngineError, match="two submissions of 'a'"):
        find_submissions(tmp_path, FUNCTIONS)


def test_feedback_names_are_safe_and_unique():
    taken: set[str] = set()
    assert safe_name("../../etc/passwd", taken) == "etc_passwd"
    assert safe_name("ETC_passwd", taken) == "ETC_passwd-2"
    assert safe_name("", taken) == "student"


def test_text_from_a_student_does_nothing_where_it_is_shown():
    text = "line one\x1b[2J\u202eevil\nline two"
    assert "\x1b" not in clean(text) and "\u202e" not in clean(text) and clean(text).count("\n") == 1
    assert markdown_text("[link](x) <b>") == "\\[link\\](x) &lt;b&gt;"
