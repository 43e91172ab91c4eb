"""Seed 002's answers in seed 002's own form: a ``State`` with ``board[HEI][WID]``, and minimax on a tree.

The board is a list of ``HEI`` rows of ``WID`` ints, **row 0 at the bottom**
(the seed's ``execute_movement`` fills a column from index 0 up), 0 empty,
1 and 2 the players, player 1 first. Columns in ``Movem.col`` count from 1.

- ``nlines4(st, player)``: lines of four of ``player``'s pieces (every window
  of four cells in a row, a column or a diagonal that holds four of them);
- ``nlines3(st, player)``: windows of four cells with three of ``player``'s
  pieces and an empty cell, "possibilities to win the game";
- ``central(st, player)``: 2 points per piece of ``player`` in the centre
  column (column 4), 1 per piece in columns 3 and 5;
- ``evalF1`` .. ``evalF4``: the seed's evaluation functions, from player 1's
  point of view;
- ``minimax(state, depth, playerMax, alpha, beta)``: the seed's pseudocode for
  any state with ``isEndState()`` and ``validMoves()`` (the states one move
  away) scored by ``evalFunct(state)``; :class:`TreeState` is a node of an
  abstract tree (Exercise 3.1), whose ``evalFunct`` is its number.

:mod:`engine.grade.seed002` marks students against these.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

HEI = 6
WID = 7


class State:
    """The seed's state: the board, the player to move and the number of moves made."""

    def __init__(self, hei: int = HEI, wid: int = WID) -> None:
        self.board = [[0] * wid for _ in range(hei)]  # (the seed's [[0] * hei] * wid shares one row)
        self.player = 1
        self.nmoves = 0
        self.lastMoveX = -1
        self.lastMoveY = -1


class Movem:
    def __init__(self, col: int = 0) -> None:
        self.col = col  # 1..WID


def valid_movement(st: State, mov: Movem) -> bool:
    return 1 <= mov.col <= len(st.board[0]) and st.board[len(st.board) - 1][mov.col - 1] == 0


def execute_movement(st: State, mov: Movem) -> State:
    """Drop the player's piece into ``mov.col`` (in place, as the seed does), and pass the turn."""
    i = 0
    while st.board[i][mov.col - 1] != 0:
        i += 1
    st.board[i][mov.col - 1] = st.player
    st.lastMoveY, st.lastMoveX = i, mov.col - 1
    st.player = 3 - st.player
    st.nmoves += 1
    return st


def windows(board: Sequence[Sequence[int]], size: int = 4) -> list[list[int]]:
    """The cells of every window of ``size`` in a row, a column or a diagonal."""
    hei, wid = len(board), len(board[0])
    found = []
    for y in range(hei):
        for x in range(wid):
            for dy, dx in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                end_y, end_x = y + (size - 1) * dy, x + (size - 1) * dx
                if 0 <= end_y < hei and 0 <= end_x < wid:
                    found.append([board[y + k * dy][x + k * dx] for k in range(size)])
    return found


def nlines4(st: State, player: int) -> int:
    return sum(1 for cells in windows(st.board) if cells.count(player) == 4)


def nlines3(st: State, player: int) -> int:
    return sum(1 for cells in windows(st.board) if cells.count(player) == 3 and cells.count(0) == 1)


def central(st: State, player: int) -> int:
    """2 per piece in column 4, 1 per piece in columns 3 and 5 (columns counted from 1)."""
    weight = {3: 2, 2: 1, 4: 1}  # 0-based
    return sum(weight.get(x, 0) for row in st.board for x, cell in enumerate(row) if cell == player)


def evalF1(st: State) -> int:
    return nlines4(st, 1) - nlines4(st, 2)


def evalF2(st: State) -> int:
    return 100 * evalF1(st) + nlines3(st, 1) - nlines3(st, 2)


def evalF3(st: State) -> int:
    return 100 * evalF1(st) + central(st, 1) - central(st, 2)


def evalF4(st: State) -> int:
    return 5 * evalF2(st) + evalF3(st)


class TreeState:
    """A node of an abstract game tree: an end state holds a number, an inner one its children."""

    def __init__(self, children: Sequence[TreeState] = (), value: float | None = None) -> None:
        self.children = list(children)
        self.value = value

    @classmethod
    def from_lists(cls, tree: object) -> TreeState:
        """``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``: nested lists of numbers."""
        if isinstance(tree, list):
            return cls([cls.from_lists(child) for child in tree])
        return cls(value=float(tree) if isinstance(tree, float) else int(tree))  # type: ignore[call-overload]

    def isEndState(self) -> bool:
        return not self.children

    def validMoves(self) -> list[TreeState]:
        return list(self.children)


def evalFunct(state: TreeState) -> float:
    assert state.value is not None
    return state.value


def minimax(state: TreeState, depth: int, playerMax: bool, alpha: float, beta: float) -> float:
    """The seed's minimax with alpha-beta cuts: MAX raises alpha, MIN lowers beta, both stop at beta <= alpha."""
    if depth == 0 or state.isEndState():
        return evalFunct(state)
    if playerMax:
        maxEval = -math.inf
        for move in state.validMoves():
            evaluation = minimax(move, depth - 1, False, alpha, beta)
            maxEval = max(maxEval, evaluation)
            alpha = max(alpha, evaluation)
            if beta <= alpha:
                break
        return maxEval
    minEval = math.inf
    for move in state.validMoves():
        evaluation = minimax(move, depth - 1, True, alpha, beta)
        minEval = min(minEval, evaluation)
        beta = min(beta, evaluation)
        if beta <= alpha:
            break
    return minEval
