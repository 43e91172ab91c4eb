"""Seed 000 with a typical bug: terminal(s) misses a full board (a draw), and utility(s) returns 1 for both wins.

Otherwise numpy boards of 1 / -1 / 0, row 0 on top, any size.

The assignment asks for these functions, "for boards of different sizes":

- ``actions(s)``: the columns (0-based) that still have an empty cell;
- ``result(s, a)``: a new board with the next disc in column ``a``; ``s`` is
  not changed. The player to move is the one with fewer discs, 1 (red) when
  both have as many: red moves first, as in the course's environment;
- ``terminal(s)``: True once a player has four in a line or the board is full;
- ``utility(s)``: on a terminal board 1 if player 1 has a line, -1 if player
  -1 has one, 0 for a draw (None on a board that is not terminal);
- ``random_player(board, player=1)``: a random legal column;
- ``alpha_beta_minimax(board, limit_moves=math.inf, player=1)``: the column
  minimax with alpha-beta cuts chooses for ``player``, looking at most
  ``limit_moves`` moves ahead (a position cut off there is worth 0, as in the
  seed), trying columns left to right and keeping the first best.

:mod:`engine.grade.seed000` marks students against these.
"""

from __future__ import annotations

import math

import numpy as np

#: Discs in a row that win.
CONNECT = 4


def empty_board(shape: tuple[int, int] = (6, 7)) -> np.ndarray:
    return np.full(shape=shape, fill_value=0)


def actions(s: np.ndarray) -> list[int]:
    """Columns whose top cell is empty, left to right."""
    return [col for col in range(s.shape[1]) if s[0][col] == 0]


def to_move(s: np.ndarray) -> int:
    """The player whose turn it is: the one with fewer discs, 1 when both have as many."""
    return -1 if np.count_nonzero(s == 1) > np.count_nonzero(s == -1) else 1


def play(s: np.ndarray, a: int, player: int) -> np.ndarray:
    """A copy of ``s`` with ``player``'s disc dropped into column ``a``."""
    new = s.copy()
    row = max(r for r in range(s.shape[0]) if s[r][a] == 0)  # the lowest empty cell
    new[row][a] = player
    return new


def result(s: np.ndarray, a: int) -> np.ndarray:
    """The board after the player to move drops a disc into column ``a``; ``s`` itself is not changed."""
    return play(s, a, to_move(s))


def winner(s: np.ndarray) -> int:
    """1 or -1 if that player has four in a row, a column or a diagonal, else 0."""
    cells = np.asarray(s).tolist()  # plain lists: reading a numpy cell one at a time is slow
    rows, cols = len(cells), len(cells[0])
    for r in range(rows):
        for c in range(cols):
            player = cells[r][c]
            if player == 0:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                end_r, end_c = r + (CONNECT - 1) * dr, c + (CONNECT - 1) * dc
                inside = 0 <= end_r < rows and 0 <= end_c < cols
                if inside and all(cells[r + k * dr][c + k * dc] == player for k in range(CONNECT)):
                    return int(player)
    return 0


def terminal(s: np.ndarray) -> bool:
    return winner(s) != 0


def utility(s: np.ndarray) -> int | None:
    """1 or -1 for the player with a line, 0 for a full board without one, None while the game goes on."""
    won = winner(s)
    if won:
        return 1
    return 0 if not actions(s) else None


def random_player(board: np.ndarray, player: int = 1) -> int:
    return int(np.random.choice(actions(board)))


def alpha_beta_minimax(board: np.ndarray, limit_moves: float = math.inf, player: int = 1) -> int | None:
    """The column minimax with alpha-beta chooses for ``player`` (see the module docstring)."""
    _, move = _max_value(board, player, -math.inf, math.inf, 0, limit_moves)
    return move


def _value_for(s: np.ndarray, player: int) -> int | None:
    value = utility(s)
    return None if value is None else value * player


def _max_value(s: np.ndarray, player: int, alpha: float, beta: float, depth: int, limit: float):
    value = _value_for(s, player)
    if value is not None:
        return value, None
    if depth >= limit:
        return 0, None
    best, move = -math.inf, None
    for a in actions(s):
        child, _ = _min_value(play(s, a, player), player, alpha, beta, depth + 1, limit)
        if child > best:
            best, move = child, a
            alpha = max(alpha, best)
        if best >= beta:
            return best, move
    return best, move


def _min_value(s: np.ndarray, player: int, alpha: float, beta: float, depth: int, limit: float):
    value = _value_for(s, player)
    if value is not None:
        return value, None
    if depth >= limit:
        return 0, None
    best, move = math.inf, None
    for a in actions(s):
        child, _ = _max_value(play(s, a, -player), player, alpha, beta, depth + 1, limit)
        if child < best:
            best, move = child, a
            beta = min(beta, best)
        if best <= alpha:
            return best, move
    return best, move


def agent(board, player=1):
    """The class tournament's agent: alpha-beta a few moves deep (limit_moves), else the first best column."""
    return alpha_beta_minimax(board, 4, player)
