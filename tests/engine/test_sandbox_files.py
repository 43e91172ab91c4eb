"""A student sees its own files and nothing else: copies of its submission, never a folder of the user's.

The unit tests check which files :func:`engine.sandbox.view.view_of` picks; the
tests in a real sandbox check what a student's code can open and import.
"""

from __future__ import annotations

import csv
import os
import socket
import subprocess
import sys
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
from tests.engine.sandbox_attacks import ROOT, as_nobody
from tests.engine.test_hostile_students import no_process_left
from tests.waiting import wait_until

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


@pytest.fixture
def contestants(monkeypatch) -> None:
    """A program that has played no student yet (the notes of earlier tests are the program's, not this test's)."""
    monkeypatch.setattr(view, "_CONTESTANTS", {})


@pytest.mark.parametrize(
    ("source", "agent"),
    [
        ("def agent(b):\n    return 0\n", True),
        ("def my_agent(observation):\n    return 0\n", True),
        ("def act(o):\n    return 0\n", True),
        ("def policy(o):\n    return 0\n", True),
        ("def move(board, player=1):\n    return 0\n", True),
        ("def best(board, piece, depth=4):\n    return 0\n", True),
        ("def play(observation, configuration):\n    return 0\n", True),
        ("def play(obs, config):\n    return 0\n", True),
        ("def play(observation):\n    return 0\n", True),
        ("def make_bot(game, player_id):\n    return None\n", True),
        ("async def agent(b):\n    return 0\n", True),
        ("play = lambda board, player: 0\n", True),
        ("agent = make()\n", True),
        ("if True:\n    def agent(b):\n        return 0\n", True),
        ("try:\n    import numpy\nexcept ImportError:\n    def my_agent(o):\n        return 0\n", True),
        ("def agent(:\n", True),  # does not parse: cannot be told apart, so it counts
        ("def f(x):\n    return 0\n\0", True),
        ("def evaluate(state, depth):\n    return 0\n", False),
        ("def load(config):\n    return 0\n", False),
        ("def score(board, depth, player):\n    return 0\n", False),
        ("WEIGHTS = [1, 2, 3]\n", False),
        ("class Bot:\n    def act(self, obs):\n        return 0\n", False),
        ("def helper(board):\n    def agent(b):\n        return 0\n    return agent\n", False),
    ],
)
def test_what_counts_as_a_students_agent(source: str, agent: bool) -> None:
    assert view.defines_an_agent(source.encode()) is agent


def test_classmates_with_different_function_names_see_only_themselves(tmp_path: Path, contestants) -> None:
    """The issue's case: ``alice.py:agent`` and ``bob.py:my_agent`` in one folder, and Kaggle and odd names."""
    (tmp_path / "alice.py").write_text(AGENT)
    (tmp_path / "bob.py").write_text("def my_agent(board, player):\n    return 0\n")
    (tmp_path / "carol.py").write_text("def strategy(obs, config):\n    return 0\n")
    (tmp_path / "dave.py").write_text("def pick(board, piece):\n    return 0\n")
    for student, function in [("alice", "agent"), ("bob", "my_agent"), ("carol", "strategy"), ("dave", "pick")]:
        found = view_of(tmp_path / f"{student}.py", function)
        assert names(found) == [f"{student}.py"], function
        assert "other students' agents" in found.note


def test_a_function_name_any_contestant_is_played_by_marks_an_agent(tmp_path: Path, contestants) -> None:
    (tmp_path / "alice.py").write_text(AGENT)
    (tmp_path / "eve.py").write_text("def choose(grid, me):\n    return 0\n")  # no shape the rules know
    assert names(view_of(tmp_path / "alice.py", "agent")) == ["alice.py", "eve.py"]
    view.note_contestant(tmp_path.parent / "elsewhere" / "zed.py", "choose")  # a tournament's other entrant
    found = view_of(tmp_path / "alice.py", "agent")
    assert names(found) == ["alice.py"] and "(eve.py)" in found.note


def test_a_file_played_as_a_student_is_nobody_elses(tmp_path: Path, contestants) -> None:
    (tmp_path / "alice.py").write_text(AGENT)
    (tmp_path / "eve.py").write_text("X = 1\n")  # no function at all: only being played marks it
    view.note_contestant(tmp_path / "eve.py", "from_a_factory")
    assert names(view_of(tmp_path / "alice.py", "agent")) == ["alice.py"]
    found = view_of(tmp_path / "alice.py", "agent", [tmp_path / "eve.py"])  # also from a given list
    assert names(found) == ["alice.py"] and "other students' agents left out (eve.py)" in found.note


# -- in a real sandbox -------------------------------------------------------------------------------
confined = pytest.mark.skipif(not boundary.current().confined, reason="no sandbox on this machine")


def moves_of(path: Path, **options) -> tuple[int, list[str]]:
    """The count a SNOOP agent answered, and what it printed (its "seen:" line relayed by the time it returns)."""
    said: list[str] = []
    student = StudentProcess(str(path), "agent", memory_mb=1024, output_bytes=10_000, echo=said.append, **options)
    try:
        student.start(StopFlag(), 30)
        reply = student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 20)
        # the print reaches us on the relay thread, which may still be on its way when the answer is in
        wait_until(lambda: any("seen:" in line for line in said), 30, lambda: f"the printed line, among {said}")
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


#: Two classmates in one folder, played by names no rule knows: each asks its one move of the other.
CLASSMATES = """
import sys
from engine.agents.registry import create_agent
from engine.board import Board
folder = sys.argv[1]
agents = [create_agent(f"{folder}/alice.py:pick,timeout=30"), create_agent(f"{folder}/bob.py:choose,timeout=30")]
try:
    print(*(agent.choose(Board.from_moves("")).column for agent in agents), flush=True)
finally:
    for agent in agents:
        agent.close()
"""


@confined
@pytest.mark.parametrize("user", ["this user", "nobody"])
def test_a_match_of_classmates_with_odd_function_names_shows_neither_the_other(tmp_path: Path, user: str) -> None:
    """Each side is known before either starts: the other's file is left out though no rule would spot it."""
    if user == "nobody" and os.geteuid() != 0:
        pytest.skip("this test already runs as an ordinary user")
    folder = tmp_path / "class"
    folder.mkdir()
    for name, function, other in [("alice", "pick", "bob"), ("bob", "choose", "alice")]:
        wanted = [f"{other}.py", str(folder / f"{other}.py")]
        source = textwrap.dedent(SNOOP.format(names=wanted)).replace(
            "def agent(board, player=1)", f"def {function}(grid, me)"
        )
        (folder / f"{name}.py").write_text(source)
    assert not view.defines_an_agent((folder / "alice.py").read_bytes())  # only being played together hides them
    command = [sys.executable, "-c", CLASSMATES, str(folder)]
    if user == "nobody":
        command = as_nobody(command, [tmp_path, folder])
    environment = dict(os.environ, PYTHONPATH=str(ROOT), HOME="/tmp", NUMBA_CACHE_DIR="/tmp/.numba-nobody")
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, env=environment, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["0", "0"], done.stderr[-3000:]
    assert "other students' agents (bob.py)" in done.stderr and "(alice.py)" in done.stderr
    assert no_process_left(folder)


TOURNAMENT_SNOOP = """
import os

OTHERS = {others!r}


def {function}(grid, me):
    for name in OTHERS:
        if os.path.exists(name):
            raise RuntimeError("saw " + name)
    return int((grid[0] == 0).argmax())
"""


@confined
@pytest.mark.slow
def test_a_tournament_in_worker_processes_hides_every_classmate(tmp_path: Path) -> None:
    """Two classmates with odd names and a computer player, games played in two worker processes: the game of
    one student against the computer must not show the other, though that worker never played it."""
    folder = tmp_path / "class"
    folder.mkdir()
    students = {"alice": "pick", "bob": "choose"}
    for name, function in students.items():
        others = [f"{other}.py" for other in students if other != name]
        (folder / f"{name}.py").write_text(TOURNAMENT_SNOOP.format(others=others, function=function))
    # The computer first: each worker's first game is one student against it, with nothing else played there yet.
    specs = ["random"] + [f"{folder / name}.py:{function},timeout=30" for name, function in students.items()]
    options = ["--games", "2", "--openings", "0", "--jobs", "2", "--no-progress", "--out", str(tmp_path / "out")]
    done = subprocess.run(
        [sys.executable, "-m", "engine", "tournament", *specs, *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    with (tmp_path / "out" / "games.csv").open() as file:
        games = list(csv.DictReader(file))
    assert len(games) == 6 and not any(game["forfeit"] for game in games), [game["forfeit"] for game in games]
    assert no_process_left(folder)
