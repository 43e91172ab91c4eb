"""The sandbox as a boundary: hostile students cannot reach the user's files, network or processes.

Each attack of :mod:`tests.engine.sandbox_attacks` reports by its move whether
it worked. The tests also check from outside: the files named as targets are
unchanged, the test's listener got no connection, the test was never stopped,
and no process of a student is alive after its match, after its game window
closed, or after ``kill -9`` of the program that ran it (read from /proc).

CI runs as root; :func:`test_the_boundary_holds_for_an_ordinary_user` runs the
probes again as the unprivileged user ``nobody``, as a student's teacher
would run them on their own machine.
"""

from __future__ import annotations

import csv
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engine.agents.registry import create_agent
from engine.board import Board, Side
from engine.match import play_match
from engine.sandbox import boundary, process
from engine.sandbox.boundary import UNCONFINED, Boundary
from engine.sandbox.process import StudentFailure, StudentProcess
from engine.stop import StopFlag
from tests.engine.sandbox_attacks import HONEST, as_nobody, write_attacks
from tests.engine.test_hostile_students import PROMPT, no_process_left, student_processes

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cret-token-of-the-user"
WALL = boundary.current()

pytestmark = pytest.mark.skipif(
    not WALL.confined, reason=f"no sandbox on this machine: {WALL.summary()} (CI must have one: see the test below)"
)


def test_ci_has_the_sandbox() -> None:
    """Where CI runs (Linux, bubblewrap installed by the requirements), the boundary must be there."""
    if os.environ.get("CI") and sys.platform.startswith("linux"):
        assert WALL.confined, WALL.summary()


@pytest.fixture(scope="module")
def world(tmp_path_factory, monkeypatch_module):
    """The student's folder and, outside it, the user's files, a listener and a secret in the environment."""
    base = tmp_path_factory.mktemp("world")
    home = base / "home"
    home.mkdir()
    (home / "thesis.txt").write_text("my thesis")
    decoy = base / "project" / "engine" / "__init__.py"  # stands for the engine's own source
    decoy.parent.mkdir(parents=True)
    decoy.write_text("# engine\n")
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.5)
    (base / "students").mkdir()
    unix_listeners = []
    for path in (base / "students" / "tmux.sock", home / "agent.sock"):  # beside the student's file, and elsewhere
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.listen()
        server.settimeout(0.5)
        unix_listeners.append(server)
    monkeypatch_module.setenv("CONNECT_FOUR_TEST_SECRET", SECRET)
    targets = [home / "thesis.txt", decoy, ROOT / "engine" / "__init__.py", base / "students" / "attacks_a.py"]
    student = write_attacks(
        base / "students",
        targets=targets,
        secret_files=[home / "thesis.txt", decoy, ROOT / "engine" / "__init__.py"],
        secret=SECRET,
        port=listener.getsockname()[1],
        parent=os.getpid(),
        tag="a",
        sockets=[base / "students" / "tmux.sock", home / "agent.sock"],
    )
    honest = base / "others" / "honest.py"
    honest.parent.mkdir()
    honest.write_text(HONEST)
    before = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in targets if path.exists()}
    yield {
        "student": student,
        "honest": honest,
        "listener": listener,
        "unix_listeners": unix_listeners,
        "targets": before,
        "base": base,
    }
    listener.close()
    for server in unix_listeners:
        with pytest.raises(TimeoutError):  # nobody connected, whatever the probes said
            server.accept()
        server.close()
    for path, state in before.items():
        assert (path.read_bytes(), path.stat().st_mtime_ns) == state, f"{path} was changed by a student"


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def move_of(student: Path, function: str, keys: str = "", moves: int = 1) -> int:
    """The column of the ``moves``-th move of ``function`` (the same process plays them all)."""
    agent = create_agent(f"{student}:{function},timeout=20{keys}")
    try:
        for _ in range(moves - 1):
            agent.choose(Board.from_moves(""))
        return agent.choose(Board.from_moves("")).column
    finally:
        agent.close()


#: Every attack, with the keys and moves it needs (the memory probe stores more than memory_mb=256 if it can).
ATTACKS = {
    "probe_write_outside": ("", 1),
    "probe_read_secrets": ("", 1),
    "probe_environment": ("", 1),
    "probe_see_parent": ("", 1),
    "probe_raise_limits": ("", 1),
    "probe_unix_socket": ("", 1),
    "probe_system_calls": ("", 1),
    "probe_memory_files": (",memory_mb=256", 1),
    "probe_fork_bomb": ("", 1),
    "probe_leftover": ("", 2),
}


@pytest.mark.parametrize("function", list(ATTACKS))
def test_an_attack_fails(world, function: str) -> None:
    keys, moves = ATTACKS[function]
    assert move_of(world["student"], function, keys, moves) == 0, f"{function} worked"


def test_the_scratch_folder_is_writable_and_vanishes(world) -> None:
    outside = [Path("/tmp/scratch-a.txt"), Path.home() / "scratch-a.txt"]  # where a student without a sandbox writes
    for path in outside:
        path.unlink(missing_ok=True)  # left by an earlier run without the sandbox
    assert move_of(world["student"], "probe_scratch") == 1
    assert not any(path.exists() for path in outside)


def test_no_connection_reaches_a_local_listener(world) -> None:
    assert move_of(world["student"], "probe_connect") == 0
    with pytest.raises(TimeoutError):
        world["listener"].accept()


def test_the_student_cannot_stop_the_program(world) -> None:
    # A watchdog resumes this process if the attack ever worked, so that a failure is a red test, not a hang.
    watchdog = subprocess.Popen(
        [sys.executable, "-c", f"import os,time\nwhile True: os.kill({os.getpid()}, 18); time.sleep(0.1)"]
    )
    stops = []
    previous = signal.signal(signal.SIGCHLD, lambda *_: stops.append(1))  # a stopped child: not our case
    try:
        assert move_of(world["student"], "probe_stop_parent") == 0
    finally:
        signal.signal(signal.SIGCHLD, previous)
        watchdog.kill()
        watchdog.wait()


def test_a_daemon_does_not_outlive_its_match(world) -> None:
    student = create_agent(f"{world['student']}:daemon,timeout=20")
    try:
        result = play_match(student, create_agent("random"), 2, seed=1)
        assert all(game.forfeit is None for game in result.games), [game.reason for game in result.games]
    finally:
        student.close()
    assert no_process_left(world["student"].parent)


def test_a_rival_killer_cannot_rig_a_tournament(world, tmp_path) -> None:
    killer = write_attacks(
        tmp_path / "killer", targets=[], secret_files=[], secret=SECRET, port=1, parent=os.getpid(), tag="k"
    )
    honest = create_agent(f"{world['honest']}:agent,timeout=20")
    rival = create_agent(f"{killer}:rival_killer,timeout=20")
    try:
        result = play_match(honest, rival, 4, seed=3)
    finally:
        honest.close()
        rival.close()
    assert all(game.forfeit is None for game in result.games), [game.reason for game in result.games]
    assert result.red_wins + result.yellow_wins + result.draws == 4


def test_a_classroom_tournament_cannot_be_rigged_and_leaves_nothing(world, tmp_path) -> None:
    """The attack as a class would meet it: ``tournament`` with a rival killer, a daemon and an honest student."""
    killer = write_attacks(
        tmp_path / "killer", targets=[], secret_files=[], secret=SECRET, port=1, parent=os.getpid(), tag="t"
    )
    agents = [f"{killer}:rival_killer", f"{killer}:daemon", f"{world['honest']}:agent"]
    options = ["--games", "2", "--openings", "0", "--jobs", "1", "--no-progress", "--out", str(tmp_path / "out")]
    done = subprocess.run(
        [sys.executable, "-m", "engine", "tournament", *agents, *options],
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
    assert no_process_left(killer.parent)


def test_killed_by_a_signal_is_not_called_out_of_memory(world, monkeypatch) -> None:
    student = create_agent(f"{world['student']}:killed_by_sigkill,timeout=20")
    try:
        with pytest.raises(Exception, match="crashed \\(killed by SIGKILL\\)") as caught:
            student.choose(Board.from_moves(""))
        assert "memory" not in str(caught.value)
        counts = iter([0, 1])  # the machine's out-of-memory kills: at the start, and after
        monkeypatch.setattr(process, "_oom_kills", lambda: next(counts))
        with pytest.raises(Exception, match="out-of-memory killer"):
            student.choose(Board.from_moves(""))
    finally:
        student.close()


def test_without_the_sandbox_the_missing_protections_are_said_once(world, monkeypatch) -> None:
    monkeypatch.setattr(process, "_ANNOUNCED", set())
    said: list[str] = []
    plain = Boundary(None, UNCONFINED, "user namespaces are off")
    for _ in range(2):
        student = StudentProcess(
            str(world["honest"]), "agent", memory_mb=512, output_bytes=1000, echo=said.append, confinement=plain
        )
        student.start(StopFlag(), 30)
        student.close()
    assert said == [plain.summary()]
    assert "user namespaces are off" in said[0] and "files" in said[0] and "network" in said[0]


# -- the same attacks from outside: the program killed, the game window closed ------------------------------
RUN_MATCH = """
import sys, time
from engine.agents.registry import create_agent
from engine.board import Board
student = create_agent(sys.argv[1] + ":daemon,timeout=60")
student.choose(Board.from_moves(""))
print("moved", flush=True)
time.sleep(600)
"""


def test_kill_9_of_the_program_ends_every_student_process(world) -> None:
    program = subprocess.Popen(
        [sys.executable, "-c", RUN_MATCH, str(world["student"])], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert program.stdout is not None and program.stdout.readline() == "moved\n"
        assert len(student_processes(world["student"].parent)) >= 2  # the student and its daemon
        program.kill()
        program.wait()
    finally:
        program.kill()
    assert no_process_left(world["student"].parent)


SMALL_GAME = ["--cols", "4", "--rows", "4", "--connect", "3", "--exit-after-game"]


def test_the_game_window_leaves_no_student_behind(world) -> None:
    environment = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    game = subprocess.run(
        [sys.executable, "main.py", "--red", f"{world['student']}:daemon", "--yellow", "random", *SMALL_GAME],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert game.returncode == 0, game.stderr[-2000:]
    assert no_process_left(world["student"].parent)


# -- as an ordinary user ----------------------------------------------------------------------------------
AS_USER = """
import sys
from engine.agents.registry import create_agent
from engine.board import Board
for probe in sys.argv[2:]:
    function, keys, moves = probe.split("/")
    agent = create_agent(sys.argv[1] + ":" + function + ",timeout=30" + keys)
    try:
        for _ in range(int(moves) - 1):
            agent.choose(Board.from_moves(""))
        print(function, agent.choose(Board.from_moves("")).column, flush=True)
    finally:
        agent.close()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux users and namespaces")
def test_the_boundary_holds_for_an_ordinary_user(world, tmp_path) -> None:
    probes = [*ATTACKS, "probe_connect", "probe_scratch"]
    folder = tmp_path / "user"
    folder.mkdir()
    server = socket.socket(socket.AF_UNIX)  # a socket of the user's beside the student's file
    server.bind(str(folder / "tmux.sock"))
    server.listen()
    server.settimeout(0.5)
    student = write_attacks(
        folder,
        targets=[ROOT / "engine" / "__init__.py", world["base"] / "home" / "thesis.txt"],
        secret_files=[ROOT / "engine" / "__init__.py"],
        secret=SECRET,
        port=world["listener"].getsockname()[1],
        parent=os.getpid(),
        tag="u",
        sockets=[folder / "tmux.sock"],
    )
    specs = [f"{probe}/{ATTACKS.get(probe, ('', 1))[0]}/{ATTACKS.get(probe, ('', 1))[1]}" for probe in probes]
    command = [sys.executable, "-c", AS_USER, str(student), *specs]
    if os.geteuid() == 0:
        os.chmod(folder / "tmux.sock", 0o777)  # the ordinary user's own socket: it may connect, its student may not
        command = as_nobody(command, [tmp_path, folder])
    done = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=300, check=False, env=_user_environment()
    )
    assert done.returncode == 0, done.stderr[-3000:]
    moves = dict(line.split() for line in done.stdout.splitlines())
    expected = {probe: "0" for probe in probes} | {"probe_scratch": "1"}
    assert moves == expected, done.stderr[-3000:]
    assert no_process_left(folder)
    with pytest.raises(TimeoutError):
        server.accept()
    server.close()


def _user_environment() -> dict[str, str]:
    environment = dict(os.environ, PYTHONPATH=str(ROOT), HOME="/tmp", NUMBA_CACHE_DIR="/tmp/.numba-nobody")
    environment.pop("XDG_CACHE_HOME", None)
    return environment


def test_a_stop_still_ends_a_sandboxed_start_at_once(world) -> None:
    stop = StopFlag()
    stop.set()
    student = StudentProcess(str(world["honest"]), "agent", memory_mb=512, output_bytes=1000)
    started = time.monotonic()
    with pytest.raises(StudentFailure, match="was stopped"):
        student.start(stop, 30)
    assert time.monotonic() - started < PROMPT
    assert no_process_left(world["honest"].parent)


def test_the_side_that_forfeits_is_the_student(world) -> None:
    """A student killed by a signal forfeits its own game: the rival wins, whoever started."""
    student = create_agent(f"{world['student']}:killed_by_sigkill,timeout=20")
    try:
        result = play_match(create_agent("random"), student, 2, seed=2)
    finally:
        student.close()
    assert result.red_wins == 2
    assert {game.forfeit for game in result.games} == {Side.FIRST, Side.SECOND}


def test_a_student_reads_its_own_folder(tmp_path) -> None:
    """Helper modules and data beside the student's file still load: its folder is visible, read-only."""
    (tmp_path / "helper.py").write_text("COLUMN = 2\n")
    (tmp_path / "weights.txt").write_text("3\n")
    (tmp_path / "bot.py").write_text(
        textwrap.dedent(
            """
            import helper
            def agent(board, player=1):
                with open("weights.txt") as file:
                    return helper.COLUMN + int(file.read()) - 3
            """
        )
    )
    agent = create_agent(f"{tmp_path / 'bot.py'}:agent,timeout=20")
    try:
        assert agent.choose(Board.from_moves("")).column == 2
    finally:
        agent.close()
