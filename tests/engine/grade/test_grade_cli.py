"""``python -m engine grade``: bad input is one line, the report is safe to open, a run resumes, a seed is a mark."""

from __future__ import annotations

import csv
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import wait_until

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples" / "grade"
REFERENCE = Path(__file__).parents[3] / "engine" / "grade" / "reference"
#: A student whose messages try to write into the teacher's page.
HOSTILE = b"""
class Connect_Four_State:
    def __init__(self):
        raise ValueError("<script>alert(1)</script> [link](http://x) \\x1b[31m")

    def move(self, ncol):
        return self

    def generate_new_states(self):
        return []

    def count_lines(self, n, player, nrow, ncol):
        return False
"""


@pytest.fixture
def seed004_class(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(REFERENCE / "seed004.py", folder / "ada.py")
    (folder / "mallory.py").write_bytes(HOSTILE)
    return folder


def _grades(out: Path) -> list[dict[str, str]]:
    with (out / "grades.csv").open(newline="") as file:
        return list(csv.DictReader(file))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["grade", "/no/such/folder", "--assignment", "seed003"], "no such file or folder"),
        (["grade", "EMPTY", "--assignment", "seed003"], "no submissions in"),
        (["grade", "EMPTY", "--assignment", "seed009"], "unknown assignment 'seed009'"),
        (["grade", "NOTPY", "--assignment", "seed003"], "is not a Python file"),
    ],
)
def test_bad_input_is_one_line(cli, tmp_path, argv, message):
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("hello")
    argv = [
        str(tmp_path / "empty") if a == "EMPTY" else str(tmp_path / "notes.txt") if a == "NOTPY" else a for a in argv
    ]
    status, _, err = cli(argv)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1


def test_an_out_folder_with_other_files_is_refused(cli, tmp_path, seed004_class):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "grades.csv").write_text("my own grades\n")
    status, _, err = cli(["grade", str(seed004_class), "--assignment", "seed004", "--out", str(out)])
    assert status == 2 and "grades.csv" in err and len(err.strip().splitlines()) == 1
    assert (out / "grades.csv").read_text() == "my own grades\n"


def test_a_class_is_marked_and_its_report_is_safe_to_open(cli, tmp_path, seed004_class):
    out = tmp_path / "out"
    argv = ["grade", str(seed004_class), "--assignment", "seed004", "--out", str(out), "--no-progress", "--jobs", "1"]
    status, printed, _ = cli(argv)
    assert status == 0
    rows = _grades(out)
    assert [r["question"] for r in rows if r["student"] == "ada"] == [
        "Connect_Four_State.move", "Connect_Four_State.generate_new_states", "Connect_Four_State.count_lines"
    ]  # fmt: skip
    assert all(float(r["points"]) == float(r["max_points"]) for r in rows if r["student"] == "ada")
    assert all(float(r["points"]) == 0 and "ValueError" in r["message"] for r in rows if r["student"] == "mallory")
    page = (out / "index.html").read_text()
    feedback = (out / "feedback" / "mallory.md").read_text()
    for text in (page, feedback):
        assert "<script>" not in text and "\x1b" not in text
    assert "\x1b" not in (out / "grades.csv").read_text()  # plain data: no control characters
    assert "&lt;script&gt;" in page and "\\[link\\]" in feedback
    assert "ada" in printed and "30 of 30" in printed
    # The same seed gives the same marks: a second run from scratch writes the same grades.
    again = tmp_path / "again"
    assert cli([*argv[:5], str(again), *argv[6:]])[0] == 0
    assert _grades(again) == rows


def test_a_run_goes_on_where_it_stopped(cli, tmp_path, seed004_class):
    out = tmp_path / "out"
    argv = ["grade", str(seed004_class), "--assignment", "seed004", "--out", str(out), "--no-progress", "--jobs", "1"]
    assert cli(argv)[0] == 0
    first = _grades(out)
    progress = (out / "progress.jsonl").read_text().splitlines(keepends=True)
    assert len(progress) == 6  # 2 students x 3 questions
    (out / "progress.jsonl").write_text("".join(progress[:2]) + progress[2][:40])  # killed while writing line 3
    assert cli(argv)[0] == 0
    lines = (out / "progress.jsonl").read_text().splitlines()
    assert lines[:2] == [line.rstrip("\n") for line in progress[:2]]  # kept, not marked again
    assert _grades(out) == first


@pytest.mark.slow
def test_ctrl_c_then_the_same_command_finishes(tmp_path, seed004_class):
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "engine", "grade", str(seed004_class), "--assignment", "seed004", "--out", str(out),
            "--no-progress", "--jobs", "1"]  # fmt: skip
    root = Path(__file__).parents[3]
    process = subprocess.Popen(argv, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    started = lambda: (out / "progress.jsonl").exists() or process.poll() is not None  # noqa: E731
    wait_until(started, 120, "the first question marked", every=0.2)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode in (0, 130), err
    done = subprocess.run(argv, cwd=root, capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert len(_grades(out)) == 6
