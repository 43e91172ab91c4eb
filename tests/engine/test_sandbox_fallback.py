"""Without the sandbox: the student gets none of the user's environment, a process limit where the kernel
counts one, and every text that speaks of trust says what is missing on this machine."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from engine.agents.classroom import trust_note, with_trust_note
from engine.agents.registry import TRUST_MARK, describe_agents
from engine.sandbox import boundary
from engine.sandbox.process import StudentProcess
from engine.stop import StopFlag
from tests.engine.sandbox_attacks import as_nobody

ROOT = Path(__file__).resolve().parents[2]
PLAIN = boundary.Boundary(None, boundary.UNCONFINED, "user namespaces are off")

REPORTER = """
import os


def agent(board, player=1):
    leaked = any("s3cret" in value for value in os.environ.values())
    children = 0
    for _ in range(LIMIT):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        children += 1
    return 1 if leaked else 0
"""


def test_the_plain_student_gets_none_of_the_users_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CONNECT_FOUR_TOKEN", "s3cret")
    path = tmp_path / "reporter.py"
    path.write_text(textwrap.dedent(REPORTER).replace("LIMIT", "1"))
    said: list[str] = []
    student = StudentProcess(str(path), "agent", memory_mb=0, output_bytes=1000, echo=said.append, confinement=PLAIN)
    try:
        student.start(StopFlag(), 30)
        assert student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 20) == "MOVE 0"
    finally:
        student.close()


BOMB = """
import os, time


def agent(board, player=1):
    made = 0
    while made < 400:
        try:
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
        except OSError:
            break
        made += 1
    return int(made > 64)
"""


#: An unprivileged uid no other test runs as.
PROCESS_LIMIT_UID = 65533


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's count of a user's processes")
def test_the_plain_student_has_a_process_limit_for_an_ordinary_user(tmp_path: Path) -> None:
    """Run as an unprivileged user of its own (CI runs as root, whose processes the kernel never counts): the
    limit counts every process of the user, and other tests run as nobody at the same time (pytest -n 2)."""
    path = tmp_path / "bomb.py"
    path.write_text(textwrap.dedent(BOMB))
    os.chmod(tmp_path, 0o755)
    script = textwrap.dedent(
        f"""
        import numpy as np
        from engine.sandbox import boundary
        from engine.sandbox.process import StudentProcess
        from engine.stop import StopFlag
        plain = boundary.Boundary(None, boundary.UNCONFINED, "test")
        student = StudentProcess({str(path)!r}, "agent", memory_mb=0, output_bytes=1000, confinement=plain)
        student.start(StopFlag(), 30)
        print(student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 60))
        student.close()
        """
    )
    command = [sys.executable, "-c", script]
    if os.geteuid() == 0:
        command = as_nobody(command, [tmp_path], uid=PROCESS_LIMIT_UID)
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path, env=_env())
    assert done.stdout.strip() == "MOVE 0", done.stderr[-2000:]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), HOME="/tmp", NUMBA_CACHE_DIR="/tmp/.numba-nobody")


def test_every_text_says_what_the_sandbox_holds_here(monkeypatch) -> None:
    assert TRUST_MARK in describe_agents()
    monkeypatch.setattr(boundary, "current", lambda: PLAIN)
    shown = with_trust_note(describe_agents())
    assert TRUST_MARK not in shown and "runs with your rights (user namespaces are off)" in shown
    root = boundary.Boundary("bwrap", (boundary.NO_PROCESS_LIMIT,))
    monkeypatch.setattr(boundary, "current", lambda: root)
    assert trust_note().endswith("(missing here: a process limit (the program runs as root))")
    assert "missing here: a process limit" in root.summary()


def test_move_help_says_it_as_this_machine_has_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "move", "--help"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert TRUST_MARK not in done.stdout
    assert boundary.current().trust_note() in " ".join(done.stdout.split())


def test_the_warning_lists_everything_that_is_missing() -> None:
    warning = boundary.unconfined("user namespaces are off").summary()
    assert all(item in warning for item in boundary.UNCONFINED)
    assert "sockets" in warning and "system-call filter" in warning
    if os.name == "posix" and os.geteuid() == 0:
        assert boundary.NO_PROCESS_LIMIT in warning  # the kernel never counts root's processes
