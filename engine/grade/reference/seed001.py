"""Seed 001's answers in seed 001's own form: numpy arrays of the characters ``'x'``, ``'o'`` and ``' '``.

Row 0 is the top row, any size; ``'x'`` moves first. The functions have the
names and arguments of seed 001's code:

- ``get_actions(board)``: the columns (0-based) with an empty top cell;
- ``result(state, player, action)``: a new board with ``player``'s disc in
  column ``action`` (``state`` is not changed);
- ``check_win(board)``: ``'x'`` or ``'o'`` for the player with four in a
  line, ``'d'`` for a full board without one, ``'n'`` while the game goes on;
- ``is_terminal(state)``: whether the game is over;
- ``utility(state, player='x')``: +1 if ``player`` has won, -1 if the other
  player has, 0 for a draw, None while the game goes on;
- ``random_player(board, player=None)``: a random legal column;
- ``alpha_beta_search(board, player='x')``: ``(value, move)`` of minimax with
  alpha-beta cuts for ``player`` to the end of the game, columns left to
  right, the first best kept.

:mod:`engine.grade.seed001` marks students against these.
"""

from __future__ import annotations

import math

import numpy as np

from engine.grade.reference import seed000

EMPTY = " "
#: The characters as seed 000's numbers (the searches are the same).
NUMBERS = {"x": 1, "o": -1, EMPTY: 0}


def empty_board(shape: tuple[int, int] = (6, 7)) -> np.ndarray:
    return np.full(shape=shape, fill_value=EMPTY)


def other(player: str) -> str:
    return "o" if player == "x" else "x"


def as_numbers(board: np.ndarray) -> np.ndarray:
    """The board in seed 000's numbers: 'x' 1, 'o' -1, ' ' 0."""
    return np.vectorize(NUMBERS.__getitem__, otypes=[int])(board)


def get_actions(board: np.ndarray) -> np.ndarray:
    """Non-full columns as a vector of indices."""
    return np.where(board[0] == EMPTY)[0]


def result(state: np.ndarray, player: str, action: int) -> np.ndarray:
    new = state.copy()
    row = max(r for r in range(state.shape[0]) if state[r][action] == EMPTY)  # the lowest empty cell
    new[row][action] = player
    return new


def check_win(board: np.ndarray) -> str:
    won = seed000.winner(as_numbers(board))
    if won:
        return "x" if won == 1 else "o"
    return "d" if not len(get_actions(board)) else "n"


def is_terminal(state: np.ndarray) -> bool:
    return check_win(state) != "n"


def utility(state: np.ndarray, player: str = "x") -> int | None:
    goal = check_win(state)
    if goal == player:
        return 1
    if goal == "d":
        return 0
    if goal == other(player):
        return -1
    return None


def random_player(board: np.ndarray, player: str | None = None) -> int:
    return int(np.random.choice(get_actions(board)))


def alpha_beta_search(board: np.ndarray, player: str = "x") -> tuple[float, int | None]:
    """``(value, move)`` for ``player``: +1 a forced win, 0 a draw, -1 a forced loss."""
    numbers = as_numbers(board)
    sign = NUMBERS[player]
    value, move = seed000._max_value(numbers, sign, -math.inf, math.inf, 0, math.inf)
    return value, move
