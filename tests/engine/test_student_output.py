"""What a student prints reaches the terminal a whole line at a time, each line named by the student's file."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np

from engine.sandbox.process import LineRelay, StudentProcess
from engine.stop import StopFlag
from tests.waiting import wait_until

FRAGMENTS = """
import sys
import time


def agent(board, player=1):
    for piece in ("thinking ", "about ", "column 1\\n", "two lines ", "in one\\nwrite\\n"):
        sys.stdout.write(piece)
        sys.stdout.flush()  # each piece its own chunk in the pipe
        time.sleep(0.02)
    print("done", end="", flush=True)  # a last line without its end: shown when the output ends
    return 0
"""


def relay(limit: int = 10_000, line_limit: int = 1000) -> tuple[LineRelay, list[str]]:
    said: list[str] = []
    return LineRelay("bot.py", limit, said.append, line_limit), said


def test_a_line_in_pieces_is_passed_on_whole() -> None:
    lines, said = relay()
    for chunk in (b"hel", b"lo wor", b"ld\nsecond", b" line\r\nthird\n"):
        lines.feed(chunk)
    assert said == ["[bot.py] hello world", "[bot.py] second line", "[bot.py] third"]
    lines.feed(b"no end")
    assert len(said) == 3  # kept until its end comes ...
    lines.close()
    assert said[-1] == "[bot.py] no end"  # ... or the output ends


def test_a_long_line_is_cut_and_the_cut_is_said() -> None:
    lines, said = relay(line_limit=10)
    lines.feed(b"0123456789abc")
    lines.feed(b"def\nnext\n")
    assert said == ["[bot.py] 0123456789 … (the rest of a line over 10 bytes)", "[bot.py] next"]


def test_the_limit_in_all_is_said_once_and_then_nothing_shows() -> None:
    lines, said = relay(limit=12)
    lines.feed(b"12345\n12345\n12345\n12345\n")
    lines.close()
    assert said == ["[bot.py] 12345", "[bot.py] 12345", "[bot.py] (more output dropped: the limit is 12 bytes)"]
    nothing, quiet = relay(limit=0)
    nothing.feed(b"hello\n")
    nothing.close()
    assert quiet == []


def test_a_real_students_fragments_arrive_as_lines(tmp_path: Path) -> None:
    path = tmp_path / "chatty.py"
    path.write_text(textwrap.dedent(FRAGMENTS))
    said: list[str] = []
    student = StudentProcess(str(path), "agent", memory_mb=0, output_bytes=10_000, echo=said.append)
    try:
        student.start(StopFlag(), 30)
        assert student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 10) == "MOVE 0"
    finally:
        student.close()

    # (the drain thread passes on the last line once the process has ended)
    wait_until(lambda: "[chatty.py] done" in said, 5, "the last line")
    printed = [line for line in said if line.startswith("[chatty.py]")]
    assert printed == [
        "[chatty.py] thinking about column 1",
        "[chatty.py] two lines in one",
        "[chatty.py] write",
        "[chatty.py] done",
    ]


PLAIN = """
def agent(board, player=1):
    print("thinking about column 1")  # plain print(): no flush, and the process is not ended after the move
    print("done")
    return 0
"""


def test_plain_prints_arrive_while_the_student_still_runs(tmp_path: Path) -> None:
    path = tmp_path / "quiet.py"
    path.write_text(textwrap.dedent(PLAIN))
    said: list[str] = []
    student = StudentProcess(str(path), "agent", memory_mb=0, output_bytes=10_000, echo=said.append)
    try:
        student.start(StopFlag(), 30)
        assert student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 10) == "MOVE 0"
        wait_until(lambda: "[quiet.py] done" in said, 5, "the last line")
        assert student.alive
    finally:
        student.close()
    assert [line for line in said if line.startswith("[quiet.py]")] == [
        "[quiet.py] thinking about column 1",
        "[quiet.py] done",
    ]
