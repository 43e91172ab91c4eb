"""The grading child in the sandbox: what a student's file sees, and every way it can fail one question only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.grade.cases import request_array
from engine.grade.process import ChildFailure, GradingProcess
from tests.waiting import wait_until

GOOD = b"""
import os
import numpy as np

def drop(board, col):
    board[0][col] = 1
    return board

def flag(x):
    return x == 1

def fails(x):
    return 1 / x

def looks():
    return sorted(os.listdir("."))

def engine_visible():
    try:
        import engine  # noqa: F401
    except ImportError:
        return False
    return True

def hang():
    while True:
        pass

def recurse(board, depth):
    if depth == 2:
        return 0
    board[depth][0] = 1
    value = recurse(board, depth + 1)
    board[depth][0] = 0
    return value

def score(board):
    return 42
"""


@pytest.fixture
def child():
    process = GradingProcess({"alice.py": GOOD}, "alice.py", memory_mb=1024, seed=1)
    first = process.start(30)
    assert first["ready"] is True and "drop" in first["names"]
    yield process
    process.close()


def _call(child, function, *args, **more):
    return child.ask({"op": "call", "function": function, "args": list(args), **more}, 20)


def test_values_come_back_with_their_types(child):
    reply = _call(child, "drop", request_array([[0, 0], [0, 0]]), 1, after=[0])
    assert reply["same"] == 0 and reply["after"][0]["array"] == [[0, 1], [0, 0]]
    assert _call(child, "flag", 1)["value"] == {"bool": True, "type": "bool"}


def test_an_exception_names_the_students_line(child):
    reply = _call(child, "fails", 0)
    assert reply["error"].startswith("ZeroDivisionError") and reply["where"] == "line 13 of alice.py"
    assert _call(child, "nope")["missing"] == "nope"


def test_the_student_sees_its_own_file_and_not_the_engine(child):
    assert [item["str"] for item in _call(child, "looks")["value"]["list"]] == ["alice.py"]
    assert _call(child, "engine_visible")["value"]["bool"] is False


def test_a_hang_costs_the_call_and_says_so(child):
    with pytest.raises(ChildFailure, match="ran out of time") as failure:
        child.ask({"op": "call", "function": "hang", "args": []}, 1)
    assert failure.value.timed_out


def test_a_trace_records_every_call_with_its_level_and_position(child):
    board = request_array([[0, 0], [0, 0], [0, 0]])
    reply = _call(child, "recurse", board, 0, trace={"kind": "calls", "function": "recurse", "board": 0})
    levels = [entry[0] for entry in reply["trace"]]
    diffs = [entry[1] for entry in reply["trace"]]
    assert levels == [0, 1, 2] and diffs == [[], [[0, 0, 1]], [[0, 0, 1], [1, 0, 1]]]


def test_a_patch_answers_from_the_table_and_falls_back_to_the_students_own(child):
    table = {"0000": 7}
    patch = {"score": {"kind": "table", "board": 0, "table": table}}
    assert _call(child, "score", request_array([[0, 0], [0, 0]]), patch=patch)["value"]["int"] == 7
    assert _call(child, "score", request_array([[1, 0], [0, 0]]), patch=patch)["value"]["int"] == 42


def test_a_file_that_does_not_load_says_its_line():
    process = GradingProcess({"bob.py": b"x = 1\ndef f(:\n"}, "bob.py", memory_mb=1024, seed=1)
    try:
        first = process.start(30)
    finally:
        process.close()
    assert first["ready"] is False and first["where"] == "line 2 of bob.py" and "SyntaxError" in first["error"]


def test_input_at_import_is_one_clear_line():
    process = GradingProcess({"carol.py": b"name = input('move? ')\n"}, "carol.py", memory_mb=1024, seed=1)
    try:
        first = process.start(30)
    finally:
        process.close()
    assert first["ready"] is False and "EOFError" in first["error"] and "__main__" in first["error"]


HOSTILE = b"""
import os, socket, subprocess, sys

def probe(secret):
    found = {}
    try:
        open(secret).read()
        found["read"] = 1
    except OSError:
        found["read"] = 0
    try:
        open("/tmp/../" + secret.lstrip("/"), "a").write("x")
        found["wrote"] = 1
    except OSError:
        found["wrote"] = 0
    try:
        socket.create_connection(("1.1.1.1", 80), timeout=1)
        found["net"] = 1
    except OSError:
        found["net"] = 0
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # left running
    found["files"] = len(os.listdir("."))
    return found
"""

AS_USER = """
import json, sys
from engine.grade.process import GradingProcess
child = GradingProcess({"mallory.py": open(sys.argv[1], "rb").read()}, "mallory.py", memory_mb=1024, seed=1)
print(json.dumps(child.start(60)))
print(json.dumps(child.ask({"op": "call", "function": "probe", "args": [sys.argv[2]]}, 60)))
child.close()
"""


def _survivors() -> list[str]:
    """Processes still running a student's file (the grading child's command line names it)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    command = file.read()
            except OSError:
                continue
            if b"mallory.py" in command or b"time.sleep(600)" in command:
                found.append(entry)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox and /proc are Linux's")
@pytest.mark.parametrize("as_user", [False, True])
def test_a_student_reads_no_secret_writes_nothing_reaches_nobody_and_leaves_nothing(tmp_path, as_user):
    from tests.engine.sandbox_attacks import as_nobody

    root = Path(__file__).parents[3]
    secret = tmp_path / "secret.txt"
    secret.write_text("the teacher's")
    student = tmp_path / "mallory.py"
    student.write_bytes(HOSTILE)
    command = [sys.executable, "-c", AS_USER, str(student), str(secret)]
    if as_user:
        if os.geteuid() != 0:
            pytest.skip("already an ordinary user: the other case is this one")
        os.chmod(secret, 0o644)
        command = as_nobody(command, [tmp_path])
    environment = dict(os.environ, PYTHONPATH=str(root), HOME="/tmp", NUMBA_CACHE_DIR="/tmp/.numba-nobody")
    done = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False, env=environment
    )
    assert done.returncode == 0, done.stderr[-2000:]
    ready, reply = (json.loads(line) for line in done.stdout.splitlines())
    assert ready["ready"] is True
    found = {key: value["int"] for key, value in _pairs(reply["value"]["dict"])}
    assert found == {"read": 0, "wrote": 0, "net": 0, "files": 1}
    assert secret.read_text() == "the teacher's"
    wait_until(lambda: not _survivors(), 5, lambda: f"no process of the student left: {_survivors()}", every=0.1)


def _pairs(pairs: list) -> list[tuple[str, dict]]:
    return [(key["str"], value) for key, value in pairs]
