"""A student's agent that fails, as the match shows it: its own file and line (never ours), its file's name
on the panel, and the failure box beside the move list, never over its header."""

from __future__ import annotations

import textwrap

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
