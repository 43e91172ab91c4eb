"""The adapters both ways: any board Kaggle allows, masks narrower than the legal moves, pickling, a Dask
tournament of adapters, OpenSpiel bots, our PettingZoo environment on every board, and Kaggle's clock from
an empty cache (measured with kaggle_environments itself, in processes of their own)."""

from __future__ import annotations

import importlib.util
import os
import pickle
import shutil

import numpy as np
import pytest

from engine.board import Board
from engine.geometry import Geometry
from engine.interop import as_kaggle_agent, as_pettingzoo_policy
from engine.interop.plain import plain_move
from engine.interop.player import EnginePlayer

HAS_SPIEL = importlib.util.find_spec("pyspiel") is not None
HAS_ZOO = importlib.util.find_spec("pettingzoo") is not None
HAS_KAGGLE = importlib.util.find_spec("kaggle_environments") is not None


@pytest.fixture(autouse=True)
def _sdl_audio_kept(monkeypatch):
    """Importing pettingzoo sets SDL_AUDIODRIVER for the whole process: put it back afterwards."""
    monkeypatch.setenv("SDL_AUDIODRIVER", os.environ.get("SDL_AUDIODRIVER", "dummy"))


def kaggle_observation(board: list[int], mark: int) -> dict[str, object]:
    return {"board": board, "mark": mark, "remainingOverageTime": 60}


def play_kaggle_game(agents, cols: int, rows: int, inarow: int) -> tuple[int | None, int]:
    """A game between two Kaggle agents under a referee of plain lists; (the winner's mark or None, moves)."""
    from engine.interop.plain import PlainBoard

    board = PlainBoard([0] * (cols * rows), cols, rows, inarow)
    configuration = {"columns": cols, "rows": rows, "inarow": inarow, "actTimeout": 2}
    for move in range(cols * rows):
        mark = 1 + move % 2
        column = agents[move % 2](kaggle_observation(list(board.cells), mark), configuration)
        assert 0 <= column < cols and board.free[column] > 0, (column, board.cells)
        won = board.wins(column, mark)
        board.play(column, mark)
        if won:
            return mark, move + 1
    return None, cols * rows


# -- boards the engine does not play -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cols", "rows", "inarow"),
    [
        pytest.param(10, 3, 7, marks=pytest.mark.slow),
        pytest.param(12, 10, 5, marks=pytest.mark.slow),
        (1, 1, 1),
        (3, 2, 2),
        (5, 4, 9),
    ],
)
def test_the_kaggle_adapter_plays_legal_moves_on_any_board_kaggle_allows(cols, rows, inarow, capsys) -> None:
    agents = [as_kaggle_agent("hard"), as_kaggle_agent("random:seed=3")]
    play_kaggle_game(agents, cols, rows, inarow)
    said = capsys.readouterr().err
    assert 1 <= said.count("a plain-Python search plays instead") <= 2  # once by each agent that moved, at most


def test_the_plain_search_takes_a_win_and_blocks_a_loss_on_a_big_board() -> None:
    cols, rows = 12, 10
    cells = [0] * (cols * rows)
    bottom = (rows - 1) * cols
    for col in (2, 3, 4, 5):
        cells[bottom + col] = 1  # the mover has four in a row at the bottom: a fifth wins
    for col in (8, 9, 10):
        cells[bottom + col] = 2
    cells[bottom + 0] = 2
    assert plain_move(cells, cols, rows, 5, seconds=0.5) in (1, 6)
    cells[bottom + 2] = 2  # now only the other side threatens: four of 2 need blocking
    cells[bottom + 11] = 2
    cells[bottom + 0] = 1
    assert plain_move(cells, cols, rows, 5, seconds=0.5) == 7


# -- masks, pickling --------------------------------------------------------------------------------------
def test_a_mask_narrower_than_the_legal_moves_is_chosen_from() -> None:
    from tests.engine.test_interop_observations import planes

    policy = as_pettingzoo_policy("perfect:seed=1")
    for allowed in ([0], [0, 6], [1, 5]):  # the centre (the only winning first move) is never allowed
        mask = np.zeros(7, dtype=np.int8)
        mask[allowed] = 1
        assert policy({"observation": planes(), "action_mask": mask}) in allowed


def test_adapters_pickle_as_their_spec_and_play_after() -> None:
    kaggle = pickle.loads(pickle.dumps(as_kaggle_agent("medium:seed=4")))
    column = kaggle(kaggle_observation([0] * 42, 1), {"columns": 7, "rows": 6, "inarow": 4})
    assert 0 <= column < 7 and kaggle.player.spec == "medium:seed=4"
    policy = as_pettingzoo_policy("hard:seed=1")
    from tests.engine.test_interop_observations import planes

    policy({"observation": planes("44"), "action_mask": np.ones(7)})  # built and used: still pickles
    copy = pickle.loads(pickle.dumps(policy))
    assert copy({"observation": planes("44"), "action_mask": np.ones(7)}) in range(7)


@pytest.mark.slow
def test_a_dask_tournament_of_adapters_runs() -> None:
    distributed = pytest.importorskip("distributed", reason="pip install -r requirements-cluster.txt")
    agents = {name: as_kaggle_agent(name) for name in ("random:seed=1", "easy:seed=2", "medium:seed=3")}
    pairs = [(a, b) for a in agents for b in agents if a != b]
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
    with cluster, distributed.Client(cluster) as client:
        futures = [client.submit(play_kaggle_game, (agents[a], agents[b]), 7, 6, 4, pure=False) for a, b in pairs]
        results = client.gather(futures)
    assert len(results) == 6 and all(7 <= moves <= 42 for _, moves in results)


# -- the stand-in while the agent is prepared -------------------------------------------------------------
def test_a_background_player_answers_at_once_then_plays_with_its_agent() -> None:
    player = EnginePlayer("alphabeta:depth=2,eval=zero,seed=1", background=True)
    board = Board.from_moves("44")
    assert board.is_legal(player.move(board, seconds=0.5))  # the stand-in's move (the agent is being prepared)
    assert player.wait_until_ready(board.geometry, timeout=300)
    assert player.move(Board.from_moves("11223", board.geometry), seconds=1.0) == 3  # blocks the three
    assert player._agent is not None  # (the agent's move, not the stand-in's)
    assert pickle.loads(pickle.dumps(player)).spec == player.spec


# -- OpenSpiel ------------------------------------------------------------------------------------------
@pytest.mark.skipif(not HAS_SPIEL, reason="open_spiel is not installed (pip install -r requirements-dev.txt)")
@pytest.mark.parametrize("parameters", ["", "(columns=9,rows=7,x_in_row=5)", "(columns=10,rows=3,x_in_row=3)"])
def test_an_engine_bot_beats_openspiels_random_bot(parameters: str) -> None:
    import pyspiel

    from engine.interop import as_openspiel_bot, openspiel_board

    game = pyspiel.load_game(f"connect_four{parameters}")
    ours = pickle.loads(pickle.dumps(as_openspiel_bot("medium:seed=1")))
    for first in (True, False):
        bots = [ours, pyspiel.make_uniform_random_bot(1 if first else 0, 5)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots if first else bots[::-1], 7)
        assert returns[0 if first else 1] == 1.0, returns
    if not parameters:
        state = game.new_initial_state()
        for action in (3, 3, 4):
            state.apply_action(action)
        assert openspiel_board(state) == Board.from_moves("445")


# -- our PettingZoo environment -------------------------------------------------------------------------------
SAMPLE = [Geometry(7, 6, 4), Geometry(4, 4, 3), Geometry(9, 9, 6), Geometry(8, 5, 5)]
EVERY = [
    Geometry(cols, rows, connect)
    for cols in range(4, 10)
    for rows in range(4, 10)
    for connect in range(3, 7)
    if connect <= max(cols, rows)
]


def api_test(geometry: Geometry) -> None:
    from pettingzoo.test import api_test as pettingzoo_api_test

    from engine.interop import connect_four_env

    pettingzoo_api_test(connect_four_env(geometry.cols, geometry.rows, geometry.connect), num_cycles=60)


@pytest.mark.skipif(not HAS_ZOO, reason="pip install -r requirements-dev.txt")
@pytest.mark.parametrize("geometry", SAMPLE, ids=str)
def test_our_environment_passes_pettingzoos_api_test(geometry: Geometry) -> None:
    api_test(geometry)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_ZOO, reason="pip install -r requirements-dev.txt")
def test_our_environment_passes_pettingzoos_api_test_on_every_board() -> None:
    for geometry in EVERY:
        api_test(geometry)


@pytest.mark.skipif(not HAS_ZOO, reason="pip install -r requirements-dev.txt")
def test_an_engine_policy_wins_in_our_environment_on_a_bigger_board() -> None:
    from engine.interop import connect_four_env

    env = connect_four_env(9, 7, 5)
    env.reset(seed=1)
    policies = {"player_0": as_pettingzoo_policy("medium:seed=1", env.unwrapped.geometry), "player_1": None}
    generator = np.random.default_rng(2)
    for name in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        policy = policies[name]
        legal = np.flatnonzero(observation["action_mask"])
        env.step(policy(observation) if policy else int(generator.choice(legal)))
    assert env.unwrapped.board.winner is not None and "illegal_move" not in str(env.infos)


# -- Kaggle's clock, from an empty cache ---------------------------------------------------------------------
def kaggle_game(spec: str, board: tuple[int, int, int], no_cache: bool = False) -> dict:
    if not HAS_KAGGLE:
        pytest.skip("Kaggle's environments are not installed: pip install --no-deps -r requirements-kaggle.txt")
    from engine.bench.kaggle import line, play

    result = play(spec, board, no_cache)
    assert "error" not in result, result
    print(line(spec, board, result))  # the figures, for the closing notes (never asserted: the machine decides)
    return result


def test_the_bench_line_says_the_submissions_result_in_words() -> None:
    from engine.bench.kaggle import line

    result = {"durations": [0.5, 0.25, 0.75], "act_timeout": 2, "log": "", "overage": 60.0}
    assert line("hard", (9, 9, 4), {**result, "statuses": ["DONE", "DONE"], "rewards": [1, -1]}).endswith(" won")
    assert line("hard", (9, 9, 4), {**result, "statuses": ["DONE", "DONE"], "rewards": [-1, 1]}).endswith(" lost")
    assert line("hard", (9, 9, 4), {**result, "statuses": ["DONE", "DONE"], "rewards": [0, 0]}).endswith(" drawn")
    broken = line("hard", (9, 9, 4), {**result, "statuses": ["ERROR", "DONE"], "rewards": [None, 1]})
    assert broken.endswith("ERROR None/DONE 1") and " 0.50     0.75   0.50     0      3" in broken


@pytest.mark.slow
def test_a_submission_plays_a_whole_kaggle_game_on_a_board_the_engine_does_not_play() -> None:
    result = kaggle_game("hard", (10, 3, 7))
    assert result["statuses"] == ["DONE", "DONE"] and "plain-Python search plays" in result["log"]


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["hard", "expert", "perfect"])
def test_a_fresh_submission_plays_a_whole_kaggle_game_from_an_empty_cache(spec: str) -> None:
    result = kaggle_game(spec, (7, 6, 4))
    assert result["statuses"] == ["DONE", "DONE"] and result["rewards"][0] in (0, 1)
    assert "preparing" in result["log"]


@pytest.mark.slow
@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="no writable folder at all is made with a read-only mount namespace: root and unshare",
)
def test_a_fresh_submission_plays_where_no_folder_can_be_written() -> None:
    result = kaggle_game("hard", (7, 6, 4), no_cache=True)
    assert result["statuses"] == ["DONE", "DONE"]
    assert "preparing hard" in result["log"] and "could not be prepared" not in result["log"]
