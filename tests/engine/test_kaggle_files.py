"""Kaggle ConnectX agent files play wherever a classroom file does, with Kaggle's exact arguments."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.agents.classroom import AgentForfeit
from engine.agents.registry import create_agent
from engine.board import Board
from engine.geometry import Geometry
from engine.match import play_match

ROOT = Path(__file__).resolve().parents[2]

# Every check a Kaggle agent could make of its arguments; it answers with the first free column
# counted from the centre, or raises with what it found wrong (a forfeit names it).
STRICT = '''
def check(observation, configuration):
    for key in ("board", "mark", "step", "remainingOverageTime"):
        assert observation[key] == getattr(observation, key), key
    for key in ("columns", "rows", "inarow", "timeout", "actTimeout", "episodeSteps", "agentTimeout"):
        assert configuration[key] == getattr(configuration, key), key
    board, cols, rows = observation.board, configuration.columns, configuration.rows
    assert type(board) is list and len(board) == cols * rows and all(type(v) is int for v in board)
    assert set(board) <= {0, 1, 2}
    ones, twos = board.count(1), board.count(2)
    assert observation.mark == (1 if ones == twos else 2), (observation.mark, ones, twos)
    assert observation.step == ones + twos
    for col in range(cols):  # row-major, top row first: no stone floats above an empty cell
        column = [board[row * cols + col] for row in range(rows)]
        filled = [v != 0 for v in column]
        assert filled == sorted(filled), ("floating stone", col)


def my_agent(observation, configuration):
    check(observation, configuration)
    cols = configuration.columns
    order = sorted(range(cols), key=lambda c: abs(c - cols // 2))
    return next(c for c in order if observation.board[c] == 0)


def named_otherwise(a, b):
    return my_agent(a, b)


def inarow_is(observation, configuration):
    """Plays column inarow - 1: the test reads connect-N back from the move."""
    return configuration.inarow - 1


def mark_is(observation, configuration):
    """Plays column mark - 1: the test reads the mark back from the move."""
    return observation.mark - 1


def times_out_at(observation, configuration):
    return configuration.actTimeout
'''


@pytest.fixture(scope="module")
def kaggle_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("kaggle") / "submission.py"
    path.write_text(textwrap.dedent(STRICT))
    return path


def column(spec: str, moves: str = "", geometry: Geometry | None = None) -> int:
    agent = create_agent(spec)
    try:
        return agent.choose(Board.from_moves(moves, geometry or Geometry(7, 6, 4))).column
    finally:
        agent.close()


def test_a_kaggle_agent_is_recognised_by_its_parameters(kaggle_file: Path) -> None:
    assert column(f"{kaggle_file}:my_agent") == 3


def test_the_mark_is_1_for_the_first_player_and_2_for_the_second(kaggle_file: Path) -> None:
    assert column(f"{kaggle_file}:mark_is") == 0
    assert column(f"{kaggle_file}:mark_is", "4") == 1


def test_the_configuration_carries_the_board_and_the_time(kaggle_file: Path) -> None:
    assert column(f"{kaggle_file}:inarow_is", geometry=Geometry(9, 7, 5)) == 4
    assert column(f"{kaggle_file}:times_out_at,timeout=3") == 2  # Kaggle's actTimeout; the engine's 3 s stay outside


def test_other_names_need_the_interface_key(kaggle_file: Path) -> None:
    with pytest.raises(AgentForfeit, match="raised"):  # called as agent(board, player): its checks fail
        column(f"{kaggle_file}:named_otherwise")
    assert column(f"{kaggle_file}:named_otherwise,interface=kaggle") == 3


def test_a_kaggle_agent_plays_whole_matches_on_any_board(kaggle_file: Path) -> None:
    for geometry in (Geometry(7, 6, 4), Geometry(9, 7, 5), Geometry(5, 4, 3)):
        student = create_agent(f"{kaggle_file}:my_agent")
        try:
            result = play_match(student, create_agent("random"), 2, seed=1, start=Board.from_moves("", geometry))
        finally:
            student.close()
        assert all(game.forfeit is None for game in result.games), [game.reason for game in result.games]


TWO_GAMES = ["--games", "2", "--seed", "1"]


def test_match_on_the_command_line(kaggle_file: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "match", "--red", f"{kaggle_file}:my_agent", "--yellow", "random", *TWO_GAMES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "forfeit" not in done.stdout + done.stderr
    assert done.stdout.splitlines()[-2].startswith("red ")


# -- Kaggle's own conventions: the last callable, arguments trimmed, the overage bank --------------------------
CONVENTIONS = '''
import time

def helper(observation, configuration):
    return 0

def overage_told(observation):
    """One parameter (Kaggle then passes the observation alone); sleeps past actTimeout on its first move
    and plays 1 once the bank it is told has shrunk by that much."""
    if observation.step < 2:
        time.sleep(2.3)
        return 3
    return 1 if observation.remainingOverageTime <= 59.7 else 6

def agent(obs):
    return len(obs.board) // 7 - 1  # the last callable: column 5 on a 7x6 board
'''


@pytest.fixture(scope="module")
def conventions_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("conventions") / "bare.py"
    path.write_text(CONVENTIONS)
    return path


def test_a_bare_file_plays_its_last_callable_with_the_arguments_it_declares(conventions_file: Path) -> None:
    assert column(str(conventions_file)) == 5
    assert create_agent(f"{conventions_file},seconds=5").spec == str(conventions_file)


def test_the_overage_bank_is_told_truly(conventions_file: Path) -> None:
    agent = create_agent(f"{conventions_file}:overage_told")
    try:
        assert agent.choose(Board()).column == 3  # 2.3 s: 0.3 s of the bank spent
        assert agent.choose(Board.from_moves("44")).column == 1
    finally:
        agent.close()


def test_kaggles_clock_forfeits_a_move_past_actTimeout_and_the_bank() -> None:
    from engine.sandbox.child import KaggleClock

    clock = KaggleClock()
    assert clock.spend(1.9) and clock.overage == 60
    assert clock.spend(32.0) and clock.overage == 30
    assert not clock.spend(32.5)
