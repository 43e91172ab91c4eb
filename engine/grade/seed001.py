"""Seed 001 (Adversarial Search: Playing Connect 4, its x/o version): the same questions on arrays of characters.

Boards are numpy arrays of ``'x'``, ``'o'`` and ``' '``, row 0 on top, any
size; ``'x'`` moves first. The questions use the seed's own functions and
arguments: ``get_actions(board)``, ``result(state, player, action)``,
``is_terminal(state)``, ``utility(state, player)``, ``random_player(board,
player=None)`` and ``alpha_beta_search(board, player='x')``, which returns
``(value, move)``. Points follow the seed: Task 2's 2 go to the random
player; Task 3's 4 are shared by the search (2) and the four functions it
stands on (0.5 each).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.grade.environment import (
    CHARACTERS,
    Form,
    Patch,
    Search,
    actions_question,
    no_keys,
    random_question,
    result_question,
    search_question,
    terminal_question,
    utility_question,
)
from engine.grade.model import Assignment, Play
from engine.grade.reference import seed000, seed001
from engine.grade.seed_boards import SEED_001

NUMBERS = {"signed": lambda cells: np.array(cells), "xo": lambda cells: seed001.as_numbers(np.array(cells))}
BOARDS = [(f"seed 001's board {b.name}", NUMBERS[b.encoding](b.data)) for b in SEED_001]
SEARCH_BOARDS = [(label, board) for label, board in BOARDS if int((board == 0).sum()) <= 7]


def _search_arguments(form: Form, board: np.ndarray, player: int) -> list[Any]:
    return [form.board(board), form.player(player)]


def _check_win(cells: np.ndarray) -> str:
    won = seed000.winner(cells)
    return ("x" if won == 1 else "o") if won else ("d" if not seed000.actions(cells) else "n")


def _utility(cells: np.ndarray, player: str) -> int | None:
    value = seed000.utility(cells)
    return None if value is None else value * (1 if player == "x" else -1)


SEARCH = Search(
    "alpha_beta_search",
    "alpha_beta_search(board, player='x')",
    _search_arguments,
    returns_value=True,
    patches={
        "get_actions": Patch(
            0, [], no_keys, lambda cells, key, mover: {"array": seed000.actions(cells), "dtype": "int64"}
        ),
        "result": Patch(
            0,
            [1, 2],
            lambda cells: [[p, a] for p in ("x", "o") for a in seed000.actions(cells)],
            lambda cells, key, mover: CHARACTERS.board(seed000.play(cells, key[1], 1 if key[0] == "x" else -1)),
        ),
        "is_terminal": Patch(0, [], no_keys, lambda cells, key, mover: seed000.terminal(cells)),
        "check_win": Patch(0, [], no_keys, lambda cells, key, mover: _check_win(cells)),
        "utility": Patch(
            0,
            [1],
            lambda cells: [["x"], ["o"]],
            lambda cells, key, mover: _utility(cells, key[0]),
        ),
    },
)


def play_request(cells: list[list[int]], mover: int) -> dict[str, Any]:
    """``agent(board, player)``: the first player is 'x', the second 'o'."""
    board = np.where(np.array(cells) == 2, -1, np.array(cells))
    return {"function": "agent", "args": [CHARACTERS.board(board), "x" if mover == 1 else "o"]}


ASSIGNMENT = Assignment(
    name="seed001",
    title="Adversarial Search: Playing Connect 4 (boards of 'x' / 'o' / ' ')",
    source="seeds/001",
    questions=(
        actions_question(CHARACTERS, "get_actions", "get_actions(board)", 0.5, BOARDS),
        result_question(
            CHARACTERS,
            "result",
            "result(state, player, action)",
            0.5,
            lambda b, a, p: [CHARACTERS.board(b), CHARACTERS.player(p), a],
            mover_given=True,
        ),
        terminal_question(CHARACTERS, "is_terminal", "is_terminal(state)", 0.5),
        utility_question(
            CHARACTERS,
            "utility",
            "utility(state, player='x')",
            0.5,
            lambda b, p: [CHARACTERS.board(b), CHARACTERS.player(p)],
            ongoing=True,
        ),
        random_question(CHARACTERS, "random_player", "random_player(board, player=None)", 2, player_arg=False),
        search_question(CHARACTERS, SEARCH, 2, SEARCH_BOARDS),
    ),
    play=Play("agent", "agent(board, player='x')", 7, 6, play_request),
    notes=(
        "Task 1 (1 point), Task 4 (3 points) and the experiments are read by a person.",
        "alpha_beta_search searches to the end of the game: it is asked on boards with at most 7 empty cells.",
    ),
)
