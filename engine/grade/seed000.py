"""Seed 000 (Adversarial Search: Playing Connect 4): the environment, a random agent and alpha-beta on 1 / -1 boards.

Boards are the seed's numpy arrays of 1 (red), -1 (yellow) and 0, row 0 on
top, of any size ("make sure that all these functions work with boards of
different sizes"); columns count from 0. The questions are the functions the
assignment names, with its signatures: ``actions(s)``, ``result(s, a)``,
``terminal(s)``, ``utility(s)``, ``random_player(board, player=1)``, and the
seed's search, ``alpha_beta_minimax(board, limit_moves, player)``, which
returns a column. Points follow the seed: Task 2's 25 are shared by its five
functions, Task 3's 20 go to the search.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.grade.environment import (
    SIGNED,
    Form,
    Patch,
    Search,
    actions_question,
    infinite,
    no_keys,
    random_question,
    result_question,
    search_question,
    terminal_question,
    utility_question,
)
from engine.grade.model import Assignment, Play
from engine.grade.reference import seed000 as ref
from engine.grade.seed_boards import SEED_000

#: The seed's own boards: every one for actions(s); its boards with a win or a block to find for the search.
BOARDS = [(f"seed 000's board {b.name} ({b.where})", np.array(b.data)) for b in SEED_000]
SEARCH_BOARDS = [
    (f"seed 000's board {b.name} ({b.where})", np.array(b.data))
    for b in SEED_000
    if b.purpose in ("win", "block") and not ref.terminal(np.array(b.data))
]


def _search_arguments(form: Form, board: np.ndarray, player: int) -> list[Any]:
    return [form.board(board), infinite(), player]


SEARCH = Search(
    "alpha_beta_minimax",
    "alpha_beta_minimax(board, limit_moves, player)",
    _search_arguments,
    returns_value=False,
    patches={
        "actions": Patch(0, [], no_keys, lambda cells, key, mover: ref.actions(cells)),
        "result": Patch(
            0,
            [1],
            lambda cells: [[a] for a in ref.actions(cells)],
            lambda cells, key, mover: SIGNED.board(ref.play(cells, key[0], mover)),
        ),
        "terminal": Patch(0, [], no_keys, lambda cells, key, mover: ref.terminal(cells)),
        "utility": Patch(0, [], no_keys, lambda cells, key, mover: ref.utility(cells)),
    },
)


def play_request(cells: list[list[int]], mover: int) -> dict[str, Any]:
    """``agent(board, player)``: the first player is 1, the second -1."""
    board = np.where(np.array(cells) == 2, -1, np.array(cells))
    return {"function": "agent", "args": [SIGNED.board(board), 1 if mover == 1 else -1]}


ASSIGNMENT = Assignment(
    name="seed000",
    title="Adversarial Search: Playing Connect 4 (boards of 1 / -1 / 0)",
    source="seeds/000",
    questions=(
        actions_question(SIGNED, "actions", "actions(s)", 5, BOARDS),
        result_question(SIGNED, "result", "result(s, a)", 5, lambda b, a, p: [SIGNED.board(b), a], mover_given=False),
        terminal_question(SIGNED, "terminal", "terminal(s)", 5),
        utility_question(SIGNED, "utility", "utility(s)", 5, lambda b, p: [SIGNED.board(b)], ongoing=False),
        random_question(SIGNED, "random_player", "random_player(board, player=1)", 5, player_arg=True),
        search_question(SIGNED, SEARCH, 20, SEARCH_BOARDS),
    ),
    play=Play("agent", "agent(board, player=1)", 7, 6, play_request),
    notes=(
        "Task 1 (the formulation, 10 points), Task 3's experiments and Task 4 (the heuristic and its cut-off, "
        "30 points) are read by a person; the tournament is Task 3's challenge.",
        "utility(s) is asked only on boards where the game is over, for player 1 (red).",
        "result(s, a) drops the disc of the player to move: the one with fewer discs, 1 when both have as many.",
        "alpha_beta_minimax runs with limit_moves = math.inf and player 1 on the seed's 4x4 boards.",
    ),
)
