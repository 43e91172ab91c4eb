"""Students who attack the program: nothing they do reaches the parent process.

Each test plays a real match (or a move) against a hostile ``agent(board,
player)`` function and checks the forfeit reason, that the parent neither
unpickled nor ran anything of the student's, that its answer came back
within a generous bound, and that no process of the student is left
behind (read from /proc, so those checks run on Linux only).
"""

from __future__ import annotations

import os
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from engine.agents.classroom import AgentForfeit
from engine.agents.registry import create_agent
from engine.board import Board, Side
from engine.match import play_game, play_match
from engine.stop import StopFlag
from tests.waiting import wait_until

HOSTILE = '''
import os
import sys
import time

MARKER = {marker!r}


class Payload:
    """Unpickling this would write the marker file: the parent must never do it."""

    def __reduce__(self):
        return (open, (MARKER, "w"))


def pickle_payload(board, player=1):
    return Payload()


def fork_bomb(board, player=1):
    for _ in range(3):  # a small bomb: three sleepers a move
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
    return int((board[0] == 0).argmax())


def exits_on_empty_board(board, player=1):
    if not board.any():
        os._exit(3)
    return int((board[0] == 0).argmax())


def closes_its_pipes(board, player=1):
    for fd in range(0, 32):
        try:
            os.close(fd)
        except OSError:
            pass
    return 3


def huge_answer(board, player=1):
    return "x" * 50_000_000


def huge_number(board, player=1):
    return 10 ** 5000


def true_for_column_one(board, player=1):
    return True


def floods_its_output(board, player=1):
    sys.stdout.write("y" * 5_000_000)
    sys.stdout.flush()
    return int((board[0] == 0).argmax())


def floods_in_lines(board, player=1):
    for _ in range(2_000):
        print("z" * 99)
    return int((board[0] == 0).argmax())


def eats_memory(board, player=1):
    block = bytearray(3 * 2 ** 30)
    return len(block)
'''

SLOW_IMPORT = """
import time
time.sleep(600)

def agent(board, player=1):
    return 3
"""

#: A generous bound for "answered promptly" on a loaded machine (never a timing assertion of speed).
PROMPT = 10.0


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "hostile.py"
    path.write_text(textwrap.dedent(HOSTILE.format(marker=str(folder / "pwned"))))
    (folder / "slow_import.py").write_text(SLOW_IMPORT)
    return path


def student_processes(folder: Path) -> list[int]:
    """Process ids of the students whose files are in ``folder`` (Linux /proc): the command line names the
    folder (outside the sandbox) or one of its files' copies in ``/sandbox/student`` (inside)."""
    names = [str(folder).encode()]
    names += [f"/sandbox/student/{path.name}".encode() for path in folder.iterdir() if path.suffix == ".py"]
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                command = file.read()
            with open(f"/proc/{entry}/stat", "rb") as file:
                state = file.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if any(name in command for name in names) and state != b"Z":
            found.append(int(entry))
    return found


def no_process_left(folder: Path) -> bool:
    """True once every student process is gone (killed processes take a moment to vanish)."""
    wait_until(lambda: not student_processes(folder), PROMPT, lambda: f"no process left: {student_processes(folder)}")
    return True


def output_until(capfd, text: str) -> tuple[str, str]:
    """What was printed, once ``text`` is on standard error (a drain thread passes on what it read)."""
    seen = ["", ""]

    def arrived() -> bool:
        out, err = capfd.readouterr()
        seen[0], seen[1] = seen[0] + out, seen[1] + err
        return text in seen[1]

    wait_until(arrived, PROMPT, repr(text))
    return seen[0], seen[1]


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def forfeit_of(spec: str, **game) -> tuple[str, float]:
    """Play one game with the student first; its forfeit reason and how long the game took."""
    student = create_agent(spec)
    start = time.monotonic()
    try:
        record = play_game(student, create_agent("random:seed=1"), **game)
    finally:
        student.close()
    assert record.forfeit is Side.FIRST, record.describe()
    return record.reason, time.monotonic() - start


def test_a_pickle_payload_is_never_unpickled(hostile: Path) -> None:
    reason, seconds = forfeit_of(f"{hostile}:pickle_payload,timeout=5")
    assert "returned an object of type Payload, not a column number" in reason
    assert not (hostile.parent / "pwned").exists()
    assert seconds < PROMPT


@linux_only
def test_a_fork_bomb_leaves_no_process_behind(hostile: Path) -> None:
    student = create_agent(f"{hostile}:fork_bomb,timeout=5")
    try:
        result = play_match(student, create_agent("random"), 2, seed=1)
        assert all(game.forfeit is None for game in result.games), [game.reason for game in result.games]
    finally:
        student.close()
    assert no_process_left(hostile.parent)


@linux_only
def test_a_process_that_dies_is_reported_and_the_next_game_gets_a_fresh_one(hostile: Path) -> None:
    student = create_agent(f"{hostile}:exits_on_empty_board,timeout=5")
    try:
        first = play_game(student, create_agent("random:seed=1"))
        assert first.forfeit is Side.FIRST and "crashed (exit code 3)" in first.reason
        second = play_game(create_agent("random:seed=1"), student)  # never an empty board: it answers
        assert second.forfeit is None, second.reason
    finally:
        student.close()
    assert no_process_left(hostile.parent)


def test_closed_pipes_raise_a_forfeit_never_a_pipe_error(hostile: Path) -> None:
    student = create_agent(f"{hostile}:closes_its_pipes,timeout=5")
    try:
        with pytest.raises(AgentForfeit, match=r"crashed|closed its answer pipe"):
            student.choose(Board())
        with pytest.raises(AgentForfeit):  # and again: a fresh process, the same clear failure
            student.choose(Board())
    finally:
        student.close()


@pytest.mark.parametrize(
    ("function", "reason"),
    [
        ("huge_answer", "'xxxxxxxxxxxx...xxxxxxxxxxxxx', not a column number"),
        ("huge_number", "a 16610-bit number, not a column number"),
        ("true_for_column_one", "returned True, not a column number"),
    ],
)
def test_huge_or_strange_answers_give_short_reasons(hostile: Path, function: str, reason: str) -> None:
    message, seconds = forfeit_of(f"{hostile}:{function},timeout=5")
    assert reason in message and len(message) < 400
    assert seconds < PROMPT


def test_printed_output_is_capped(hostile: Path, capfd) -> None:
    student = create_agent(f"{hostile}:floods_its_output,timeout=5,output_kb=4")
    try:
        assert student.choose(Board()).column == 0
    finally:
        student.close()
    out, err = output_until(capfd, "the rest of a line over 1,000 bytes")
    assert "yyyy" not in out  # nothing reaches our stdout
    # one line of five million bytes: its first thousand are shown, and the rest is said to be dropped
    assert 1000 <= err.count("y") <= 1000 + 100 and "the rest of a line over 1,000 bytes" in err


def test_printed_lines_are_capped_in_all(hostile: Path, capfd) -> None:
    student = create_agent(f"{hostile}:floods_in_lines,timeout=5,output_kb=4")
    try:
        assert student.choose(Board()).column == 0
    finally:
        student.close()
    out, err = output_until(capfd, "more output dropped: the limit is 4,096 bytes")
    lines = [line for line in err.splitlines() if line.startswith("[hostile.py] z")]
    assert "zzz" not in out and 35 <= len(lines) <= 42  # 4 KB of 100-byte lines: about 41, each whole
    assert all(line == "[hostile.py] " + "z" * 99 for line in lines[:-1])
    assert "more output dropped: the limit is 4,096 bytes" in err


@pytest.mark.skipif(os.name != "posix", reason="memory limits are POSIX only")
def test_the_memory_limit_holds(hostile: Path) -> None:
    reason, _ = forfeit_of(f"{hostile}:eats_memory,timeout=20,memory_mb=400")
    assert "MemoryError" in reason or "crashed" in reason


def test_a_stop_ends_a_hanging_import_at_once(hostile: Path) -> None:
    student = create_agent(f"{hostile.parent / 'slow_import.py'}:agent,load_timeout=600")
    stop = StopFlag()
    threading.Timer(0.3, stop.set).start()
    start = time.monotonic()
    try:
        with pytest.raises(AgentForfeit, match="was stopped"):
            student.choose(Board(), stop)
    finally:
        student.close()
    assert time.monotonic() - start < PROMPT  # not the 600 s of the import, nor a 30 s load limit


def test_the_load_limit_is_a_key(hostile: Path) -> None:
    reason, _ = forfeit_of(f"{hostile.parent / 'slow_import.py'}:agent,load_timeout=0.5")
    assert "did not answer within 0.5 s (loading)" in reason
