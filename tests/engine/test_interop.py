"""The engine's agents inside the real Kaggle ConnectX and PettingZoo environments.

PettingZoo comes with the development requirements. Kaggle's environments
come from requirements-kaggle.txt, installed without their dependencies (the
full set is over a gigabyte and replaces pygame-ce with pygame): the README's
test command installs it that way, so CI runs these tests; elsewhere they
skip and say how to install it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.board import Board
from engine.geometry import Geometry
from engine.interop import as_pettingzoo_policy, kaggle_board, pettingzoo_board

HARD = "hard:seed=1"
ROOT = Path(__file__).resolve().parents[2]


def test_a_kaggle_board_reads_top_row_first_with_1_moving_first() -> None:
    configuration = {"columns": 7, "rows": 6, "inarow": 4}
    cells = [0] * 42
    cells[5 * 7 + 3] = 1  # bottom row, column 4
    cells[4 * 7 + 3] = 2
    cells[5 * 7 + 2] = 1
    board = kaggle_board({"board": cells, "mark": 2}, configuration)
    assert board == Board.from_moves("443")


def test_a_pettingzoo_board_is_seen_by_the_player_to_move() -> None:
    planes = np.zeros((6, 7, 2), dtype=np.int8)
    planes[5, 3, 1] = 1  # the opponent (who moved first) has column 4
    planes[5, 2, 1] = 1
    planes[4, 3, 0] = 1  # the mover has one stone on top of it
    assert pettingzoo_board({"observation": planes}) == Board.from_moves("443")


# -- PettingZoo --------------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _sdl_audio_kept(monkeypatch):
    """Importing pettingzoo sets SDL_AUDIODRIVER=dsp for the whole process (Linux): put it back afterwards."""
    monkeypatch.setenv("SDL_AUDIODRIVER", os.environ.get("SDL_AUDIODRIVER", "dummy"))


def play_pettingzoo(policies: dict[str, object], seed: int) -> dict[str, float]:
    import pettingzoo

    env = pettingzoo.make("aec", "classic/connect_four-v3")
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.agents, 0.0)
    moves = 0
    for name in env.agent_iter(max_iter=100):
        observation, reward, termination, truncation, info = env.last()
        rewards[name] += reward
        assert "illegal" not in str(info).lower(), info
        if termination or truncation:
            env.step(None)
            continue
        action = policies[name](observation)
        assert observation["action_mask"][action], (name, action)
        env.step(action)
        moves += 1
    env.close()
    assert moves >= 7
    return rewards


def random_policy(seed: int):
    generator = np.random.default_rng(seed)

    def policy(observation) -> int:
        return int(generator.choice(np.flatnonzero(observation["action_mask"])))

    return policy


@pytest.mark.parametrize("first", [True, False])
def test_pettingzoo_games_end_without_an_illegal_move(first: bool) -> None:
    pytest.importorskip("pettingzoo", reason="pip install -r requirements-dev.txt")
    ours = as_pettingzoo_policy(HARD)
    policies = {"player_0": ours, "player_1": random_policy(1)}
    if not first:
        policies = {"player_0": random_policy(2), "player_1": ours}
    rewards = play_pettingzoo(policies, seed=3)
    us = "player_0" if first else "player_1"
    assert rewards[us] == 1.0, rewards  # hard beats random, whoever starts


def test_two_engine_policies_play_a_whole_pettingzoo_game() -> None:
    pytest.importorskip("pettingzoo", reason="pip install -r requirements-dev.txt")
    rewards = play_pettingzoo(
        {"player_0": as_pettingzoo_policy("medium:seed=1"), "player_1": as_pettingzoo_policy(HARD)}, 4
    )
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


# -- Kaggle ConnectX -----------------------------------------------------------------------------------
# Kaggle's package loads every environment it has when imported, and some of them change the process
# (pygame's audio among them): its games run in a process of their own, which prints each game's end.
KAGGLE_GAME = """
import json, random, sys
from kaggle_environments import make
from engine.interop import as_kaggle_agent
configuration, names, seed = json.loads(sys.argv[1])
random.seed(seed)  # Kaggle's random and negamax agents draw from Python's random module
agents = [name if name in ("random", "negamax") else as_kaggle_agent(name) for name in names]
steps = make("connectx", configuration=configuration, debug=True).run(agents)
print(json.dumps([[state["status"], state["reward"]] for state in steps[-1]]))
"""


def kaggle_game(names: list[str], configuration: dict[str, int] | None = None, seed: int = 0) -> list[list]:
    if importlib.util.find_spec("kaggle_environments") is None:  # looked up, not imported (see above)
        pytest.skip("Kaggle's environments are not installed: pip install --no-deps -r requirements-kaggle.txt")
    done = subprocess.run(
        [sys.executable, "-c", KAGGLE_GAME, json.dumps([configuration or {}, names, seed])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("first", [True, False])
def test_hard_beats_kaggles_negamax(first: bool) -> None:
    """Kaggle's negamax breaks ties at random: three seeded games a colour, hard wins most of them."""
    wins = 0
    for seed in range(3):
        final = kaggle_game([HARD, "negamax"] if first else ["negamax", HARD], seed=seed)
        assert [status for status, _ in final] == ["DONE", "DONE"], final
        wins += final[0 if first else 1][1] == 1
    assert wins >= 2


@pytest.mark.parametrize(
    "geometry", [pytest.param(Geometry(9, 7, 5), marks=pytest.mark.slow), Geometry(5, 4, 3), Geometry(8, 8, 4)]
)
def test_a_kaggle_game_on_any_board_ends_without_an_invalid_move(geometry: Geometry) -> None:
    configuration = {"columns": geometry.cols, "rows": geometry.rows, "inarow": geometry.connect}
    final = kaggle_game(["random", "medium:seed=2"], configuration)
    assert [status for status, _ in final] == ["DONE", "DONE"], final
    assert final[1][1] == 1, final  # medium beats random
