"""Ctrl-C on a run with local workers: it stops at once, says so, and leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[3]


def _session(sid: int) -> list[int]:
    """The processes still alive in session ``sid`` (a run started in a session of its own)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # (gone meanwhile)
            continue
        if int(fields[3]) == sid and fields[0] != "Z":  # (fields after the name: state, ppid, pgrp, session)
            alive.append(int(entry.name))
    return alive


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")
@pytest.mark.parametrize("games", [1, pytest.param(20, marks=pytest.mark.slow)])
def test_ctrl_c_stops_a_tournament_on_two_workers_and_leaves_no_process(tmp_path, games):
    """Ctrl-C after the first game, and after twenty (the workers busy in every case)."""
    command = [sys.executable, "-m", "engine", "tournament", "random", "mcts:seconds=0.02", "--games", "400"]
    command += ["--jobs", "2", "--out", str(tmp_path / "t"), "--no-progress"]
    run = subprocess.Popen(
        command, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    rows = tmp_path / "t" / "progress.jsonl"  # one line a game played
    played = lambda: rows.exists() and rows.read_bytes().count(b"\n") >= games  # noqa: E731
    wait_until(lambda: played() or run.poll() is not None, 120, f"{games} games played")
    assert run.poll() is None, f"the run ended before Ctrl-C: {run.communicate()[1]}"
    os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C does: the whole group gets it
    try:
        _, err = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        pytest.fail("the run hung after Ctrl-C")
    assert run.returncode == 130 and err.strip().endswith("interrupted")
    # (a helper that sees its parent gone ends a moment later)
    left = lambda: {pid: _command(pid) for pid in _session(run.pid)}  # noqa: E731
    wait_until(lambda: not left(), 30, lambda: f"no process left after the run ended: {left()}", every=0.1)


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "(gone)"
