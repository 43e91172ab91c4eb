"""Seed 001 with a typical bug: the search checks the moves in a centre-first order of its own."""

import math

import numpy as np


def get_actions(board):
    """Returns non-full columns as a vector of indices."""
    return np.where(board[0] == " ")[0]


def other(player):
    return "o" if player == "x" else "x"


def result(state, player, action):
    state = state.copy()
    for row in range(state.shape[0] - 1, -1, -1):
        if state[row][action] == " ":
            state[row][action] = player
            return state
    raise ValueError("column full")


def winner(board):
    rows, cols = board.shape
    for r in range(rows):
        for c in range(cols):
            piece = board[r][c]
            if piece == " ":
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= y < rows and 0 <= x < cols and board[y][x] == piece for y, x in cells):
                    return piece
    return None


def check_win(board):
    won = winner(board)
    if won:
        return won
    return "d" if len(get_actions(board)) == 0 else "n"


def is_terminal(state):
    return check_win(state) != "n"


def utility(state, player="x"):
    goal = check_win(state)
    if goal == player:
        return 1
    if goal == "d":
        return 0
    if goal == other(player):
        return -1
    return None


def random_player(board, player=None):
    return np.random.choice(get_actions(board))


def alpha_beta_search(board, player="x"):
    return max_value_ab(board, player, -math.inf, math.inf)


def max_value_ab(state, player, alpha, beta):
    v = utility(state, player)
    if v is not None:
        return v, None
    v, move = -math.inf, None
    for a in sorted(get_actions(state), key=lambda c: abs(c - state.shape[1] // 2)):
        v2, _ = min_value_ab(result(state, player, a), player, alpha, beta)
        if v2 > v:
            v, move = v2, a
            alpha = max(alpha, v)
        if v >= beta:
            return v, move
    return v, move


def min_value_ab(state, player, alpha, beta):
    v = utility(state, player)
    if v is not None:
        return v, None
    v, move = math.inf, None
    for a in get_actions(state):
        v2, _ = max_value_ab(result(state, other(player), a), player, alpha, beta)
        if v2 < v:
            v, move = v2, a
            beta = min(beta, v)
        if v <= alpha:
            return v, move
    return v, move


def agent(board, player="x"):
    if np.count_nonzero(board != " ") < 30:
        return int(np.random.choice(get_actions(board)))
    return int(alpha_beta_search(board, player)[1])
