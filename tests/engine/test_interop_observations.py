"""The adapters refuse bad observations: one ObservationError (a ValueError) naming the field, never a raw
exception and never a silent answer, for each way an attacker found to hand them something wrong."""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest

from engine.board import Board
from engine.errors import EngineError
from engine.formats import to_array
from engine.interop import ObservationError, as_kaggle_agent, as_pettingzoo_policy, kaggle_board, pettingzoo_board

CONFIG = {"columns": 7, "rows": 6, "inarow": 4}


def kaggle_cells(moves: str, rows: int = 6) -> list[int]:
    return [int(value) for value in to_array(Board.from_moves(moves), "012", "top").flat]


def with_cell(index: int, value: object, moves: str = "") -> list[object]:
    cells: list[object] = list(kaggle_cells(moves))
    cells[index] = value
    return cells


def upside_down(moves: str) -> list[int]:
    return [int(value) for value in to_array(Board.from_moves(moves), "012", "bottom").flat]


def transposed(moves: str) -> list[int]:
    return [int(value) for value in to_array(Board.from_moves(moves), "012", "top").T.flat]


EMPTY = [0] * 42
# (observation, configuration, what the message must name)
KAGGLE_CASES = {
    "41 cells": ({"board": [0] * 41, "mark": 1}, CONFIG, "has 41 cells"),
    "43 cells": ({"board": [0] * 43, "mark": 1}, CONFIG, "has 43 cells"),
    "no cells": ({"board": [], "mark": 1}, CONFIG, "has 0 cells"),
    "board None": ({"board": None, "mark": 1}, CONFIG, "observation.board"),
    "board text": ({"board": "0" * 42, "mark": 1}, CONFIG, "observation.board"),
    "board dict": ({"board": dict.fromkeys(range(42), 0), "mark": 1}, CONFIG, "observation.board"),
    "board 2-D": ({"board": np.zeros((6, 7), dtype=int), "mark": 1}, CONFIG, "shape (6, 7)"),
    "board floats": ({"board": np.zeros(42), "mark": 1}, CONFIG, "float64"),
    "cell 1.0": ({"board": with_cell(3, 1.0), "mark": 2}, CONFIG, "holds 1.0 at cell 3"),
    "cell True": ({"board": with_cell(38, True), "mark": 2}, CONFIG, "holds True at cell 38"),
    "cell text": ({"board": with_cell(38, "1"), "mark": 2}, CONFIG, "holds '1' at cell 38"),
    "cell None": ({"board": with_cell(0, None), "mark": 1}, CONFIG, "holds None at cell 0"),
    "cell 3": ({"board": with_cell(38, 3), "mark": 2}, CONFIG, "holds 3 at cell 38"),
    "cell -1": ({"board": with_cell(38, -1), "mark": 2}, CONFIG, "holds -1 at cell 38"),
    "observation None": (None, CONFIG, "observation must be"),
    "observation list": ([0] * 42, CONFIG, "observation must be"),
    "no board": ({"mark": 1}, CONFIG, "has no 'board'"),
    "no mark": ({"board": EMPTY}, CONFIG, "has no 'mark'"),
    "mark 3": ({"board": EMPTY, "mark": 3}, CONFIG, "observation.mark must be 1 or 2, not 3"),
    "mark 0": ({"board": EMPTY, "mark": 0}, CONFIG, "observation.mark"),
    "mark True": ({"board": EMPTY, "mark": True}, CONFIG, "observation.mark"),
    "mark text": ({"board": EMPTY, "mark": "1"}, CONFIG, "observation.mark"),
    "mark of the other player": ({"board": EMPTY, "mark": 2}, CONFIG, "observation.mark is 2"),
    "configuration None": ({"board": EMPTY, "mark": 1}, None, "configuration must be"),
    "no inarow": ({"board": EMPTY, "mark": 1}, {"columns": 7, "rows": 6}, "has no 'inarow'"),
    "no columns": ({"board": EMPTY, "mark": 1}, {"rows": 6, "inarow": 4}, "has no 'columns'"),
    "columns -7": ({"board": EMPTY, "mark": 1}, {**CONFIG, "columns": -7}, "configuration.columns"),
    "columns 0": ({"board": EMPTY, "mark": 1}, {**CONFIG, "columns": 0}, "configuration.columns"),
    "columns text": ({"board": EMPTY, "mark": 1}, {**CONFIG, "columns": "7"}, "configuration.columns"),
    "columns huge": ({"board": EMPTY, "mark": 1}, {**CONFIG, "columns": 10**9}, "configuration.columns"),
    "rows 7.5": ({"board": EMPTY, "mark": 1}, {**CONFIG, "rows": 7.5}, "configuration.rows"),
    "inarow 0": ({"board": EMPTY, "mark": 1}, {**CONFIG, "inarow": 0}, "configuration.inarow"),
    "a million cells": ({"board": EMPTY, "mark": 1}, {**CONFIG, "columns": 1000, "rows": 1000}, "100,000 cells"),
    "actTimeout text": ({"board": EMPTY, "mark": 1}, {**CONFIG, "actTimeout": "2"}, "configuration.actTimeout"),
    "actTimeout -1": ({"board": EMPTY, "mark": 1}, {**CONFIG, "actTimeout": -1}, "configuration.actTimeout"),
    "actTimeout NaN": ({"board": EMPTY, "mark": 1}, {**CONFIG, "actTimeout": math.nan}, "configuration.actTimeout"),
    "overage text": (
        {"board": EMPTY, "mark": 1, "remainingOverageTime": "x"},
        CONFIG,
        "observation.remainingOverageTime",
    ),
    "upside down": ({"board": upside_down("4453"), "mark": 1}, CONFIG, "above an empty cell"),
    "transposed": ({"board": transposed("4453"), "mark": 1}, CONFIG, "above an empty cell"),
    "two more of 1": ({"board": with_cell(39, 1, "4"), "mark": 2}, CONFIG, "player 1 moves first"),
    "more of 2": ({"board": with_cell(38, 2), "mark": 1}, CONFIG, "player 1 moves first"),
    "game over": ({"board": kaggle_cells("4343434"), "mark": 2}, CONFIG, "the game is over"),
    "full board": ({"board": [1, 2], "mark": 1}, {"columns": 2, "rows": 1, "inarow": 2}, "full"),
}


@pytest.mark.parametrize("case", KAGGLE_CASES)
def test_the_kaggle_adapter_names_the_bad_field(case: str) -> None:
    observation, configuration, named = KAGGLE_CASES[case]
    agent = as_kaggle_agent("random:seed=1")
    with pytest.raises(ObservationError, match=None) as raised:
        agent(observation, configuration)
    assert named in str(raised.value), str(raised.value)
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, EngineError)
    with pytest.raises(ObservationError):
        kaggle_board(observation, configuration)


def planes(moves: str = "", shape: tuple[int, int] = (6, 7)) -> np.ndarray:
    """connect_four_v3's planes of ``moves`` (7x6), seen by the player to move."""
    board = Board.from_moves(moves)
    grid = to_array(board, "012", "top")
    mover = 1 if board.ply % 2 == 0 else 2
    out = np.zeros((*grid.shape, 2), dtype=np.int8)
    out[:, :, 0] = grid == mover
    out[:, :, 1] = (grid != 0) & (grid != mover)
    return out


def zoo(observation: object, mask: object = None) -> dict[str, object]:
    return {"observation": observation} if mask is None else {"observation": observation, "action_mask": mask}


def changed(moves: str, row: int, col: int, plane: int, value: object) -> np.ndarray:
    out = planes(moves).astype(object if isinstance(value, str) else float)
    out[row, col, plane] = value
    return out


PETTINGZOO_CASES = {
    "observation None": (None, "PettingZoo's dict"),
    "the planes alone": (planes(), "pass the whole dict"),
    "no planes": ({"action_mask": np.ones(7)}, "has no 'observation'"),
    "planes 2-D": (zoo(np.zeros((6, 7))), "shape (rows, columns, 2)"),
    "planes transposed": (zoo(np.zeros((7, 6, 2))), "transposed"),
    "planes text": (zoo("planes"), "observation['observation']"),
    "both planes set": (zoo(changed("44", 5, 3, 1, 1)), "both planes"),
    "a plane at 0.5": (zoo(changed("", 5, 3, 0, 0.5)), "holds 0.5"),
    "a plane at NaN": (zoo(changed("", 5, 3, 0, math.nan)), "holds nan"),
    "a plane at 2": (zoo(changed("", 5, 3, 0, 2)), "holds 2"),
    "planes of text": (zoo(changed("", 5, 3, 0, "x")), "object values"),
    "planes swapped": (zoo(planes("4")[:, :, ::-1]), "plane order"),
    "floating stone": (zoo(changed("", 0, 3, 0, 1)), "above an empty cell"),
    "mask too short": (zoo(planes(), np.ones(6)), "one entry per column"),
    "mask allows a full column": (zoo(planes("444444"), np.ones(7)), "column 3, which is full"),
    "mask allows nothing": (zoo(planes(), np.zeros(7)), "allows no column"),
    "mask of 2": (zoo(planes(), np.full(7, 2)), "0 and 1 only"),
    "mask text": (zoo(planes(), "1111111"), "action_mask"),
}


@pytest.mark.parametrize("case", PETTINGZOO_CASES)
def test_the_pettingzoo_adapter_names_the_bad_field(case: str) -> None:
    observation, named = PETTINGZOO_CASES[case]
    with pytest.raises(ObservationError) as raised:
        as_pettingzoo_policy("random:seed=1")(observation)  # type: ignore[arg-type]
    assert named in str(raised.value), str(raised.value)
    with pytest.raises(ObservationError):
        pettingzoo_board(observation)  # type: ignore[arg-type]


def test_at_least_the_attackers_44_cases_are_covered() -> None:
    assert len(KAGGLE_CASES) + len(PETTINGZOO_CASES) >= 44


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="open_spiel is not installed")
def test_the_openspiel_bot_names_what_is_wrong_with_a_state() -> None:
    import pyspiel

    from engine.interop import as_openspiel_bot

    bot = as_openspiel_bot("random:seed=1")
    other = pyspiel.load_game("tic_tac_toe").new_initial_state()
    finished = pyspiel.load_game("connect_four").new_initial_state()
    for action in (3, 2, 3, 2, 3, 2, 3):
        finished.apply_action(action)
    for state, named in (
        (object(), "OpenSpiel connect_four state"),
        (other, "not of connect_four"),
        (finished, "terminal"),
    ):
        with pytest.raises(ObservationError, match=named):
            bot.step(state)


def test_good_observations_still_read() -> None:
    assert kaggle_board({"board": kaggle_cells("443"), "mark": 2}, CONFIG) == Board.from_moves("443")
    assert pettingzoo_board(zoo(planes("443"), np.ones(7))) == Board.from_moves("443")
