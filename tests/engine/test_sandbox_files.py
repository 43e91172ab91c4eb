"""A student sees its own files and nothing else: copies of its submission, never a folder of the user's.

The unit tests check which files :func:`engine.sandbox.view.view_of` picks; the
tests in a real sandbox check what a student's code can open and import.
"""

from __future__ import annotations

import os
import socket
import textwrap
from pathlib import Path

import numpy as np
import pytest

from engine.agents.registry import create_agent
from engine.board import Board
from engine.sandbox import boundary, view
from engine.sandbox.process import StudentProcess
from engine.sandbox.view import view_of
from engine.stop import StopFlag

AGENT = "def agent(board, player=1):\n    return 0\n"

#: A student that reports what it can open: the move is the number of the names below it could read.
SNOOP = """
import os

NAMES = {names!r}


def agent(board, player=1):
    seen = []
    for name in NAMES:
        try:
            if name.endswith(".py") and "/" not in name:
                __import__(name[:-3])
            else:
                open(name, "rb").read(1)
            seen.append(name)
        except Exception:
            pass
    print("seen:", ",".join(seen))
    return len(seen)
"""


def names(found: view.View) -> list[str]:
    return [name for name, _ in found.files]


def test_a_submission_folder_is_copied_with_its_helpers_and_data(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(AGENT)
    (tmp_path / "helper.py").write_text("X = 1\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "weights.txt").write_text("3\n")
    (tmp_path / ".secret").write_text("hidden files stay out\n")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "helper.pyc").write_bytes(b"\0")
    (tmp_path / "outside.txt").symlink_to("/etc/hostname")
    found = view_of(tmp_path / "bot.py", "agent")
    assert names(found) == ["bot.py", "helper.py", "data/weights.txt"]
    assert found.folders() == ["data"]
    assert "1 file of its folder left out" in found.note  # the link


def test_in_a_shared_folder_each_student_sees_only_itself(tmp_path: Path) -> None:
    for student in ("alice", "bob", "carol"):
        (tmp_path / f"{student}.py").write_text(AGENT)
    (tmp_path / "notes.txt").write_text("the teacher's\n")
    found = view_of(tmp_path / "alice.py", "agent")
    assert names(found) == ["alice.py"]
    assert "other students' agents (bob.py, carol.py)" in found.note


@pytest.mark.parametrize("place", ["home", "downloads", "tmp"])
def test_the_users_own_folders_are_never_a_submission(tmp_path: Path, monkeypatch, place: str) -> None:
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    folder = {"home": home, "downloads": home / "Downloads", "tmp": Path("/tmp")}[place]
    student = folder / f"bot_{os.getpid()}.py"
    (folder / "bank.pdf").write_text("statement\n") if place != "tmp" else None
    student.write_text(AGENT)
    try:
        found = view_of(student, "agent")
    finally:
        student.unlink()
    assert names(found) == [student.name]
    assert "not a folder of its own" in found.note


def test_a_given_list_is_what_the_student_sees(tmp_path: Path) -> None:
    for name in ("alice.py", "alice_helper.py", "bob.py"):
        (tmp_path / name).write_text(AGENT)
    elsewhere = tmp_path.parent / "elsewhere.txt"
    elsewhere.write_text("not beside it\n")
    found = view_of(tmp_path / "alice.py", "agent", [tmp_path / "alice_helper.py", elsewhere])
    assert names(found) == ["alice.py", "alice_helper.py"]
    assert "left out" in found.note


def test_a_fifo_a_socket_and_a_huge_file_are_left_out_without_waiting(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(view, "MAX_BYTES", 1000)
    (tmp_path / "bot.py").write_text(AGENT)
    os.mkfifo(tmp_path / "pipe")  # opening it for reading would wait for a writer forever
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "tmux.sock"))
    (tmp_path / "big.bin").write_bytes(b"x" * 2000)
    try:
        found = view_of(tmp_path / "bot.py", "agent")
    finally:
        server.close()
    assert names(found) == ["bot.py"]
    assert "3 files of its folder left out" in found.note


def test_the_count_of_files_is_bounded(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(view, "MAX_FILES", 5)
    (tmp_path / "bot.py").write_text(AGENT)
    for number in range(10):
        (tmp_path / f"data{number}.txt").write_text("1\n")
    found = view_of(tmp_path / "bot.py", "agent")
    assert len(found.files) == 5 and names(found)[0] == "bot.py"
    assert "6 files of its folder left out" in found.note  # 10 data files, 4 of them shown


# -- in a real sandbox -------------------------------------------------------------------------------
confined = pytest.mark.skipif(not boundary.current().confined, reason="no sandbox on this machine")


def moves_of(path: Path, **options) -> tuple[int, list[str]]:
    said: list[str] = []
    student = StudentProcess(str(path), "agent", memory_mb=1024, output_bytes=10_000, echo=said.append, **options)
    try:
        student.start(StopFlag(), 30)
        reply = student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 20)
    finally:
        student.close()
    return int(reply.split()[1]), said


@confined
def test_a_classmate_in_a_shared_folder_can_be_neither_imported_nor_read(tmp_path: Path) -> None:
    wanted = ["bob.py", "bob.py ", "../bob.py", str(tmp_path / "bob.py"), "notes.txt"]
    (tmp_path / "alice.py").write_text(textwrap.dedent(SNOOP.format(names=wanted)))
    (tmp_path / "bob.py").write_text(AGENT)
    (tmp_path / "notes.txt").write_text("the teacher's\n")
    seen, said = moves_of(tmp_path / "alice.py")
    assert seen == 0, said


@confined
def test_a_student_reads_its_helpers_and_data_but_no_socket_or_hidden_file(tmp_path: Path) -> None:
    wanted = ["helper.py", "data/weights.txt", ".secret", "tmux.sock", str(tmp_path / "helper.py")]
    (tmp_path / "bot.py").write_text(textwrap.dedent(SNOOP.format(names=wanted)))
    (tmp_path / "helper.py").write_text("X = 1\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "weights.txt").write_text("3\n")
    (tmp_path / ".secret").write_text("hidden\n")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "tmux.sock"))
    try:
        seen, said = moves_of(tmp_path / "bot.py")
    finally:
        server.close()
    assert seen == 2 and "[bot.py] seen: helper.py,data/weights.txt" in said, said


@confined
def test_the_grader_chooses_the_files(tmp_path: Path) -> None:
    wanted = ["alice_helper.py", "bob.py"]
    (tmp_path / "alice.py").write_text(textwrap.dedent(SNOOP.format(names=wanted)))
    (tmp_path / "alice_helper.py").write_text("X = 1\n")
    (tmp_path / "bob.py").write_text("X = 2\n")  # no agent: only the list keeps it out
    seen, said = moves_of(tmp_path / "alice.py", files=[tmp_path / "alice_helper.py"])
    assert seen == 1 and "[alice.py] seen: alice_helper.py" in said, said


@confined
def test_a_student_file_in_tmp_sees_no_socket_of_tmp(tmp_path: Path) -> None:
    """tmux's default socket lives in /tmp: a student file saved there must not reach it."""
    sockets = tmp_path / "tmux-0"
    sockets.mkdir()
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sockets / "default"))
    server.listen()
    server.settimeout(0.5)
    student = Path("/tmp") / f"snoop_{os.getpid()}.py"
    student.write_text(
        textwrap.dedent(
            f"""
            import socket
            def agent(board, player=1):
                try:
                    socket.socket(socket.AF_UNIX).connect({str(sockets / "default")!r})
                    return 1
                except OSError:
                    return 0
            """
        )
    )
    try:
        agent = create_agent(f"{student}:agent,timeout=20")
        try:
            assert agent.choose(Board.from_moves("")).column == 0
        finally:
            agent.close()
    finally:
        student.unlink()
    with pytest.raises(TimeoutError):
        server.accept()
    server.close()
