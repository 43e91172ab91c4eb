"""Memory for all of a student's processes together: its sandbox's own cgroup, or the limit said to be missing.

Where this machine lets the program make cgroups (root here; a delegated
subtree elsewhere), a student that forks 8 processes each filling half of
its ``memory_mb`` is held by the kernel to ``memory_mb`` in all, and its
group is gone after it. Where it does not (an ordinary user here), every
text that speaks of trust lists the missing limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.sandbox import boundary, cgroup
from engine.sandbox.process import StudentFailure, StudentProcess
from engine.stop import StopFlag
from tests.engine.sandbox_attacks import ROOT, as_nobody
from tests.engine.test_hostile_students import PROMPT, no_process_left
from tests.waiting import wait_until

#: memory_mb of the hog: half of it fits in one process beside Python and numpy (RLIMIT_AS still holds).
MEMORY_MB = 384

#: Forks 8 processes that each fill MEMORY_MB / 2 and hold it: column 1 when all 8 managed (4 times its limit).
HOG = f"""
import os
import select
import time


def agent(board, player=1):
    read, write = os.pipe()
    children = 0
    for _ in range(8):
        try:
            if os.fork() == 0:
                block = b"x" * ({MEMORY_MB} // 2 * 2**20)  # every page written
                os.write(write, b"1")
                time.sleep(30)
                os._exit(0)
        except OSError:
            break
        children += 1
    os.close(write)
    filled, deadline = 0, time.monotonic() + 20
    while filled < children and time.monotonic() < deadline:
        if select.select([read], [], [], 0.1)[0]:
            got = os.read(read, 64)
            if not got:
                break
            filled += len(got)
    return int(filled == 8)
"""


def test_the_start_joins_its_group_before_the_command_runs(tmp_path: Path) -> None:
    """The shell writes its own process id, which the command then has, into every hierarchy's group."""
    folders = (tmp_path / "memory", tmp_path / "pids")
    for folder in folders:
        folder.mkdir()
    group = cgroup.Group(folders, 1)
    done = subprocess.run(
        group.wrap([sys.executable, "-c", "import os; print(os.getpid())"]), capture_output=True, text=True, check=True
    )
    assert [(folder / "cgroup.procs").read_text().strip() for folder in folders] == [done.stdout.strip()] * 2
    failed = subprocess.run(cgroup.Group((tmp_path / "gone",), 2).wrap(["true"]), capture_output=True, check=False)
    assert failed.returncode == cgroup.JOIN_FAILED  # no group to join: the command never runs


def test_the_limits_of_each_version() -> None:
    v2 = cgroup.Hierarchy(Path("/x"), 2, frozenset({"memory", "pids"}))
    assert v2.limits(256, 66) == [("memory.max", str(256 * 2**20)), ("memory.swap.max", "0"), ("pids.max", "66")]
    memory = cgroup.Hierarchy(Path("/m"), 1, frozenset({"memory"}))
    assert memory.limits(256, 66) == [
        ("memory.limit_in_bytes", str(256 * 2**20)),
        ("memory.memsw.limit_in_bytes", str(256 * 2**20)),
    ]
    assert memory.limits(0, 66) == []  # memory_mb=0: no limit
    assert cgroup.Hierarchy(Path("/p"), 1, frozenset({"pids"})).limits(256, 66) == [("pids.max", "66")]


def test_a_v2_group_is_made_beside_the_programs_own(tmp_path: Path) -> None:
    """A cgroup that holds processes passes no controller on: the group goes into its parent, if that one does."""
    (tmp_path / "user.slice" / "app.scope").mkdir(parents=True)
    (tmp_path / "user.slice" / "cgroup.subtree_control").write_text("cpu memory pids\n")
    found = cgroup._v2({"cgroup2": tmp_path}, {"": "/user.slice/app.scope"})
    assert found is not None and found.hierarchies[0].parent == tmp_path / "user.slice"
    (tmp_path / "user.slice" / "cgroup.subtree_control").write_text("cpu\n")
    assert cgroup._v2({"cgroup2": tmp_path}, {"": "/user.slice/app.scope"}) is None
    (tmp_path / "cgroup.subtree_control").write_text("memory pids\n")
    assert cgroup._v2({"cgroup2": tmp_path}, {"": "/"}).hierarchies[0].parent == tmp_path  # type: ignore[union-attr]


def _groups_of_this_program(place: cgroup.Place, controller: str = "") -> set[Path]:
    parents = [h.parent for h in place.hierarchies if controller in h.controllers or not controller]
    return {path for parent in parents for path in parent.glob(f"{cgroup.PREFIX}{os.getpid()}-*")}


PLACE = cgroup.place()
with_groups = pytest.mark.skipif(
    PLACE is None or not boundary.current().confined, reason="no cgroup can be made here (see the test below)"
)


@with_groups
def test_a_student_s_processes_share_its_memory_limit(tmp_path: Path) -> None:
    assert PLACE is not None
    path = tmp_path / "hog" / "hog.py"
    path.parent.mkdir()
    path.write_text(HOG)
    earlier = _groups_of_this_program(PLACE, "memory")  # of other tests, still being removed
    student = StudentProcess(str(path), "agent", memory_mb=MEMORY_MB, output_bytes=1000)
    try:
        student.start(StopFlag(), 60)
        reply = student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 60)
        (memory,) = _groups_of_this_program(PLACE, "memory") - earlier
        peak = memory / ("memory.peak" if PLACE.version == 2 else "memory.max_usage_in_bytes")
        held = int(peak.read_text()) / 2**20 if peak.exists() else 0.0  # memory.peak: Linux 5.19 and later
        killed = cgroup.Group((memory,), PLACE.version).memory_kills()
    finally:
        student.close()
    assert reply == "MOVE 0", reply
    assert held <= MEMORY_MB, f"the group held {held:.0f} MB"
    assert killed > 0  # the kernel, not the student, stopped the forks at the limit
    wait_until(lambda: not memory.exists(), PROMPT, "the student's memory group to be removed")
    assert no_process_left(path.parent)


#: Two forks hold 120 MB each, then the student fills 200 MB itself: over MEMORY_MB together, and the largest.
#: It waits for each fork's word that its block is filled (or for both to be gone), not for a time.
VICTIM = """
import os
import time


def agent(board, player=1):
    read, write = os.pipe()
    for _ in range(2):
        if os.fork() == 0:
            block = b"x" * (120 * 2**20)
            os.write(write, b"1")
            time.sleep(30)
            os._exit(0)
    os.close(write)
    filled = b""
    while len(filled) < 2 and (got := os.read(read, 2)):
        filled += got
    block = b"x" * (200 * 2**20)
    return 0
"""


@with_groups
def test_a_student_killed_at_its_groups_limit_is_told_why(tmp_path: Path) -> None:
    path = tmp_path / "victim" / "victim.py"
    path.parent.mkdir()
    path.write_text(VICTIM)
    student = StudentProcess(str(path), "agent", memory_mb=MEMORY_MB, output_bytes=1000)
    try:
        student.start(StopFlag(), 60)
        with pytest.raises(StudentFailure, match=f"more than its {MEMORY_MB} MB of memory in all its processes"):
            student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 60)
    finally:
        student.close()
    assert no_process_left(path.parent)


def test_the_trust_texts_say_whether_memory_is_shared_here() -> None:
    wall = boundary.current()
    if wall.confined:
        assert (boundary.NO_SHARED_MEMORY in wall.missing) == (cgroup.place() is None)
    else:
        assert boundary.NO_SHARED_MEMORY in wall.missing or os.name != "posix"


SAYS = """
from engine.sandbox import boundary, cgroup
wall = boundary.current()
print(cgroup.place() is not None, boundary.NO_SHARED_MEMORY in wall.missing, wall.trust_note())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0, reason="drops root's privileges")
def test_an_ordinary_user_is_told_when_memory_is_per_process(tmp_path: Path) -> None:
    environment = dict(os.environ, PYTHONPATH=str(ROOT), HOME="/tmp", NUMBA_CACHE_DIR="/tmp/.numba-nobody")
    done = subprocess.run(
        as_nobody([sys.executable, "-c", SAYS], [tmp_path]),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    can, said, note = done.stdout.split(" ", 2)
    assert can != said, done.stdout  # a group, or the limit listed as missing
    if said == "True":
        assert "memory for all its processes together" in note
