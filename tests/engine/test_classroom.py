"""The classroom interface, both ways, and every way a student's function can fail."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from engine.agents.classroom import as_classroom_function, board_for_player
from engine.agents.registry import create_agent
from engine.board import Board, Side
from engine.errors import AgentFailure, AgentSpecError, EngineError, PositionError
from engine.formats import to_array
from engine.match import play_game, play_match

STUDENTS = '''
import numpy as np

def leftmost(board, player=1):
    """Plays the leftmost open column (row 0 is the top row)."""
    return int(np.where(board[0] == 0)[0][0])

def raises(board, player=1):
    return 1 // 0

def out_of_range(board, player=1):
    return 99

def text(board, player=1):
    return "three"

def hangs(board, player=1):
    while True:
        pass

def wrong_player(board, player=1):
    assert player in (1, -1)
    return 0 if player == 1 else 6
'''


@pytest.fixture(scope="module")
def students(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("class") / "students.py"
    path.write_text(textwrap.dedent(STUDENTS))
    return path


def test_an_engine_agent_as_a_classroom_function() -> None:
    agent = as_classroom_function("random:seed=1")
    board = np.zeros((6, 7), dtype=int)
    board[5, 3] = 1  # X in the bottom centre; O (-1) to move
    column = agent(board, player=-1)
    assert 0 <= column < 7


def test_the_player_argument_decides_who_moved_first() -> None:
    # A student who let -1 start: -1 has one disc, 1 has none, and 1 is to move.
    board = np.zeros((6, 7), dtype=int)
    board[5, 0] = -1
    position = board_for_player(board, player=1)
    assert position.turn is Side.SECOND and position.cell(0, 0) is Side.FIRST
    with pytest.raises(PositionError, match="not its turn"):
        board_for_player(board, player=-1)
    with pytest.raises(PositionError, match="player must be 1 or -1"):
        board_for_player(board, player=3)


def test_a_student_function_plays_a_match(students: Path) -> None:
    student = create_agent(f"{students}:leftmost")
    try:
        result = play_match(student, create_agent("random"), 2, seed=3)
    finally:
        student.close()
    assert result.red_wins + result.yellow_wins + result.draws == 2
    assert all(record.forfeit is None for record in result.games)
    # The student's first move in game 1 was the leftmost column.
    assert result.games[0].moves[0] == 0


@pytest.mark.parametrize(
    ("function", "spec_extra", "reason"),
    [
        ("raises", "", "raised ZeroDivisionError"),
        ("out_of_range", "", "chose column 100 (it answered 99, counted from 0): there is no column 100"),
        ("text", "", "returned 'three', not a column number"),
        ("hangs", ",timeout=0.5", "did not answer within 0.5 s"),
    ],
)
def test_a_failing_student_forfeits_and_nothing_else_breaks(
    students: Path, function: str, spec_extra: str, reason: str
) -> None:
    student = create_agent(f"{students}:{function}{spec_extra}")
    try:
        record = play_game(student, create_agent("random:seed=1"))
        assert record.forfeit is Side.FIRST and record.winner is Side.SECOND
        assert reason in record.reason
        # The same agent object is usable again: the next game starts a fresh process.
        again = play_game(create_agent("random:seed=2"), student, Board.from_moves("4"))
        assert again.forfeit is Side.SECOND
    finally:
        student.close()


def test_a_student_that_fails_is_an_agent_failure_not_bad_input(students: Path, cli) -> None:
    """A RuntimeError apart from the ValueErrors of bad input (python-chess's EngineError beside its
    IllegalMoveError); the `move` command answers that line with `?` and one message, no traceback."""
    student = create_agent(f"{students}:raises")
    try:
        with pytest.raises(AgentFailure, match="raised ZeroDivisionError") as failure:
            student.choose(Board())
    finally:
        student.close()
    assert isinstance(failure.value, RuntimeError) and not isinstance(failure.value, EngineError)
    status, out, err = cli(["move", "--agent", f"{students}:raises", "", "4"])
    assert status != 0 and out.splitlines() == [" ?", "4 ?"]
    assert err.count("raised ZeroDivisionError") == 2 and "Traceback" not in err


def test_the_player_value_is_passed_in_the_chosen_encoding(students: Path) -> None:
    student = create_agent(f"{students}:wrong_player")
    try:
        # O (-1) to move: the function answers 6 for player -1.
        assert student.choose(Board.from_moves("4")).column == 6
    finally:
        student.close()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("missing.py:agent", "no such file"),
        ("classroom", "needs path=FILE.py"),
        ("classroom:path=x.py,timeout=0", "from 0.1"),
    ],
)
def test_bad_classroom_specs(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        create_agent(spec)


def test_array_sent_to_the_student_is_the_seed_layout() -> None:
    board = Board.from_moves("44")
    assert (to_array(board)[4:, 3] == [-1, 1]).all()
