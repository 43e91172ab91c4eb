"""A student's agent that fails, as the match shows it: its own file and line (never ours), its file's name
on the panel, and the failure box beside the move list, never over its header."""

from __future__ import annotations

import contextlib
import sys
import textwrap
import time
from pathlib import Path

import pygame
import pytest

from game.labels import agent_words
from game.match import texts
from tests.game.test_match import config, open_match

BUGGY = """
import numpy as np


def agent(board, player=1):
    columns = np.array([3, 2, 4])
    return int(columns[len(columns)])  # line 6: one past the end
"""


@pytest.fixture
def buggy(tmp_path):
    path = tmp_path / "buggy_bot.py"
    path.write_text(textwrap.dedent(BUGGY).lstrip("\n"))
    return path


def test_a_classroom_spec_is_named_by_its_file():
    assert agent_words("classroom:path=/home/ann/course/buggy_bot.py,function=agent,timeout=2") == (
        "buggy_bot.py:agent",
        ["timeout=2"],
    )


def test_the_failure_names_the_students_file_and_line(start, buggy):
    driver = start()
    spec = f"classroom:path={buggy},function=agent,timeout=20"
    match = open_match(driver, config(spec, "random:seed=1"))
    driver.run_until(lambda: match.turns.failure is not None, timeout=60, what="the student's failure")
    failure = match.turns.failure
    assert "IndexError" in failure and "line 6 of buggy_bot.py" in failure, failure
    assert "classroom.py" not in failure and "AgentForfeit" not in failure and str(buggy.parent) not in failure
    assert failure.startswith("Red computer (buggy_bot.py:agent")  # the panel's name: the file, not "Classroom"
    box, _ = texts.error_box(match.view, driver.app.screen.get_width())
    assert box.width > 200 and not box.colliderect(match.view.move_list.rect)  # the list's header stays readable


def test_the_first_student_match_says_what_its_sandbox_holds_here(start, buggy, monkeypatch):
    """On the screen, not only on stderr: the note computed from this machine's boundary, missing parts named."""
    from engine.sandbox import boundary
    from game import start as starting

    monkeypatch.setattr(starting, "_sandbox_said", False)
    plain = boundary.Boundary(None, boundary.UNCONFINED, "bubblewrap is not installed")
    monkeypatch.setattr(boundary, "current", lambda: plain)
    driver = start()
    open_match(driver, config("random:seed=1", "random:seed=2"))
    assert not any("sandbox" in text or "rights" in text for text in driver.app.toasts.texts)  # no student: no note
    match = open_match(driver, config(f"{buggy}:agent,timeout=20", "random:seed=1"))
    said = [text for text in driver.app.toasts.texts if text.startswith("buggy_bot.py")]
    warning = "on this machine it runs with your rights (bubblewrap is not installed): load only files you trust"
    assert said == [f"buggy_bot.py: {warning}"]
    assert match.turns.model.config.red.spec.endswith("buggy_bot.py:agent,timeout=20")
    open_match(driver, config(f"{buggy}:agent,timeout=20", "random:seed=1"))
    assert len([text for text in driver.app.toasts.texts if text.startswith("buggy_bot.py")]) == 1  # once a run


SLEEPY = """
import time


def agent(board, player=1):
    time.sleep(600)
    return 0
"""


def in_session(session: int) -> list[int]:
    """The processes of a session (the student's process leads one of its own, with all it started): /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[3]) == session:
                    found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="looks for the student's processes in /proc")
@pytest.mark.parametrize(  # the retry itself in the default run; the two later moments (3-6 s each) are slow
    "moment",
    ["with the retry", *(pytest.param(at, marks=pytest.mark.slow) for at in ("while it starts", "while it sleeps"))],
)
def test_closing_the_window_while_a_sleeping_students_move_is_retried_quits_at_once(start, tmp_path, moment):
    """A close was once seen ignored for 614 s while a sleeping student's move was retried: the frame that
    gets the close ends the game at whatever stage the retried move is, and the student's process goes."""
    path = tmp_path / "sleepy_bot.py"
    path.write_text(textwrap.dedent(SLEEPY).lstrip("\n"))
    driver = start()
    match = open_match(driver, config(f"classroom:path={path},function=agent,seconds=2", None))
    driver.run_until(lambda: match.turns.failure is not None, timeout=60, what="the first forfeit")
    assert "did not answer within 2 s" in match.turns.failure
    agent = match.turns.computer.agents[match.turns.model.colour_to_move]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    if moment == "with the retry":
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # in the same frame as the Retry key
    else:
        driver.step()
        assert match.turns.failure is None and match.turns.thinking  # retried: asked again
        if moment == "while it starts":
            driver.run_until(lambda: agent._student is not None, timeout=60, what="the student's process to start")
        else:  # its process runs, and a moment later its function sleeps
            driver.run_until(lambda: agent._student is not None and agent._student.alive, timeout=60, what="it")
            asleep = time.monotonic() + 0.5
            driver.run_until(lambda: time.monotonic() > asleep, what="the student to fall asleep")
            assert match.turns.failure is None
        pygame.event.post(pygame.event.Event(pygame.QUIT))
    student = agent._student._process if agent._student is not None else None
    driver.app.step()  # the frame that gets the close
    assert not driver.app.running
    driver.app.close()
    assert driver.app.closed
    deadline = time.monotonic() + 30
    while student is not None and in_session(student.pid):  # nothing of the student survives the game
        assert time.monotonic() < deadline, f"left running: {in_session(student.pid)}"
        time.sleep(0.05)
