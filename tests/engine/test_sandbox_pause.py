"""Between its moves a student runs nothing: its threads stopped, its other processes killed, as root and as nobody.

A student that leaves two threads spinning after it answers, and a third one
forking busy processes, is asked three moves. After each answer the test
reads, from outside (the host's /proc), the state of the student's process,
its CPU time before and after a pause, and whether any other process of its
sandbox is alive. How much CPU this gives back to the rival is a figure of
docs/sandbox.md, not an assertion here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine.sandbox import boundary
from engine.sandbox.boundary import UNCONFINED, Boundary
from engine.sandbox.process import StudentProcess
from engine.stop import StopFlag
from tests.engine.sandbox_attacks import ROOT, as_nobody
from tests.engine.test_hostile_students import PROMPT, no_process_left, student_processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

#: Two threads that keep a core each busy (hashing releases the GIL) and, in the sandbox, one that keeps
#: forking processes (sleepers: what counts is that they are alive), some of them after the child's own kill.
BUSY = """
import hashlib
import os
import threading
import time

WORKING = []  # one event a thread: set once it is at work


def _spin(working):
    block = b"x" * 2**16
    working.set()
    while True:
        hashlib.sha256(block).digest()


def _fork(working):
    while True:
        try:
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
            working.set()  # a fork of it is alive
        except OSError:  # the process limit: try again
            time.sleep(0.01)


def agent(board, player=1):
    if not WORKING:
        for target in (_spin, _spin, _fork) if FORK else (_spin, _spin):
            WORKING.append(threading.Event())
            threading.Thread(target=target, args=(WORKING[-1],), daemon=True).start()
        for working in WORKING:  # every thread under way, and a fork alive, when it answers
            working.wait()
    return int((board[0] == 0).argmax())
"""


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as file:
        return dict(line.split(":\t", 1) for line in file.read().splitlines() if ":\t" in line)


def _cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, every thread of the process


def _processes(folder: Path) -> tuple[int | None, list[int]]:
    """The student's Python (process 2 of its sandbox, or this test's child outside one) and the other live
    processes it started (not bwrap's own), from the host's /proc."""
    student, others = None, []
    for pid in student_processes(folder):
        try:
            status = _status(pid)
        except OSError:
            continue
        inner = status["NSpid"].split()[1:]  # its numbers in the namespaces below this one
        if inner == ["2"] or (not inner and status["PPid"].strip() == str(os.getpid())):
            student = pid
        elif inner and inner != ["1"] and status["State"][0] not in "ZX":
            others.append(pid)
    return student, others


def between_moves(file: Path | str, confined: bool = True) -> dict[str, list]:
    """Three moves of ``file``; after each: the student's state, its CPU ticks over 0.3 s, the others alive."""
    path = Path(file)
    confinement = None if confined else Boundary(None, UNCONFINED, "a test of the fallback")
    student = StudentProcess(str(path), "agent", memory_mb=1024, output_bytes=1000, confinement=confinement)
    report: dict[str, list] = {"states": [], "ticks": [], "others": []}
    try:
        student.start(StopFlag(), 60)
        for _ in range(3):
            assert student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 30) == "MOVE 0"
            pid, _ = _processes(path.parent)
            assert pid is not None
            before = _cpu_ticks(pid)
            time.sleep(0.3)  # a measuring window, not a wait: a thread left running shows as ticks in it
            report["states"].append(_status(pid)["State"][0])
            report["ticks"].append(_cpu_ticks(pid) - before)
            deadline = time.monotonic() + PROMPT  # killed processes take a moment to vanish
            while (others := _processes(path.parent)[1]) and time.monotonic() < deadline:
                time.sleep(0.05)
            report["others"].append(len(others) if confined else 0)  # the fallback does not end them
    finally:
        student.close()
    return report


def _student(tmp_path: Path, fork: bool = True) -> Path:
    folder = tmp_path / "busy"
    folder.mkdir()
    (folder / "busy.py").write_text(f"FORK = {fork}\n" + BUSY)
    return folder / "busy.py"


def _assert_still(report: dict[str, list]) -> None:
    assert report["states"] == ["T"] * 3, report
    assert report["ticks"] == [0] * 3, report
    assert report["others"] == [0] * 3, report


confined = pytest.mark.skipif(not boundary.current().confined, reason="no sandbox on this machine")


@confined
def test_a_student_is_stopped_between_its_moves(tmp_path: Path) -> None:
    path = _student(tmp_path)
    _assert_still(between_moves(path))
    assert no_process_left(path.parent)


@confined
def test_a_student_is_stopped_between_its_moves_for_an_ordinary_user(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("the test above already ran as an ordinary user")
    path = _student(tmp_path)
    code = f"import json, tests.engine.test_sandbox_pause as t\nprint(json.dumps(t.between_moves({str(path)!r})))"
    environment = dict(os.environ, PYTHONPATH=str(ROOT), HOME="/tmp", NUMBA_CACHE_DIR="/tmp/.numba-nobody")
    done = subprocess.run(
        as_nobody([sys.executable, "-c", code], [tmp_path, path.parent]),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    _assert_still(json.loads(done.stdout.splitlines()[-1]))
    assert no_process_left(path.parent)


def test_without_the_sandbox_the_students_process_group_is_stopped(tmp_path: Path) -> None:
    path = _student(tmp_path, fork=False)  # no process limit holds for root there
    report = between_moves(path, confined=False)
    assert report["states"] == ["T"] * 3 and report["ticks"] == [0] * 3, report
