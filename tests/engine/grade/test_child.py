"""The grading child in the sandbox: what a student's file sees, and every way it can fail one question only."""

from __future__ import annotations

import pytest

from engine.grade.cases import request_array
from engine.grade.process import ChildFailure, GradingProcess

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
