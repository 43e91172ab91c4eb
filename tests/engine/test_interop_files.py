"""PettingZoo policies and OpenSpiel bots from files play in the engine's matches (in the sandbox), as
Kaggle submissions do: the child builds each library's observation from the board it is sent."""

from __future__ import annotations

import importlib.util
import random
import textwrap
from pathlib import Path

import numpy as np
import pytest

from engine.agents.registry import create_agent
from engine.board import Board
from engine.formats import to_array
from engine.geometry import Geometry
from engine.match import play_match
from engine.sandbox.child import move_order

POLICY = '''
import numpy as np

def policy(observation):
    """Checks connect_four_v3's dict, then plays the free column nearest the centre."""
    planes, mask = observation["observation"], observation["action_mask"]
    assert planes.dtype == np.int8 and planes.shape[2] == 2 and mask.dtype == np.int8
    assert not (planes[:, :, 0] & planes[:, :, 1]).any()
    mine, theirs = int(planes[:, :, 0].sum()), int(planes[:, :, 1].sum())
    assert mine in (theirs, theirs - 1), (mine, theirs)
    cols = len(mask)
    return min(np.flatnonzero(mask), key=lambda c: abs(c - cols // 2))
'''

BOT = """
import pyspiel

def make_bot(game, player_id):
    assert game.get_type().short_name == "connect_four"
    return pyspiel.make_uniform_random_bot(player_id, 1)
"""


def student(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


@pytest.mark.parametrize("geometry", [Geometry(7, 6, 4), Geometry(9, 7, 5)], ids=str)
def test_a_pettingzoo_policy_file_plays_whole_matches(tmp_path: Path, geometry: Geometry) -> None:
    path = student(tmp_path, "zoo.py", POLICY)
    red, yellow = create_agent(f"{path}:policy,interface=pettingzoo"), create_agent("random:seed=1")
    try:
        result = play_match(red, yellow, games=2, seed=1, start=Board(geometry))
    finally:
        red.close()
    assert all(game.forfeit is None for game in result.games), [game.forfeit for game in result.games]


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="open_spiel is not installed")
def test_an_openspiel_bot_file_plays_whole_matches(tmp_path: Path) -> None:
    path = student(tmp_path, "bot.py", BOT)
    red, yellow = create_agent(f"{path}:make_bot,interface=openspiel"), create_agent("random:seed=2")
    try:
        result = play_match(red, yellow, games=2, seed=1)
    finally:
        red.close()
    assert all(game.forfeit is None for game in result.games), [game.forfeit for game in result.games]


@pytest.mark.parametrize("seed", range(20))
def test_a_move_order_is_found_for_every_board_a_game_reaches(seed: int) -> None:
    generator = random.Random(seed)
    geometry = Geometry(generator.randint(4, 9), generator.randint(4, 9), generator.randint(3, 4))
    board = Board(geometry)
    for _ in range(generator.randint(0, geometry.cells)):
        if board.is_over:
            break
        board.play(generator.choice(board.legal_columns()))
    cells = to_array(board, "012", "top")
    assert np.array_equal(to_array(Board.from_moves(move_order(cells, geometry.connect), geometry), "012"), cells)
