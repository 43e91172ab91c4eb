"""Seed 003's answers in its own form, to import and compare with: ``from engine.grade.reference.seed003 import *``.

The board is an 8x8 numpy array of ints, row 0 on top: 0 blank, 1 X, 2 O.
Columns (``move``) count from 0. Everything here has the name, the
arguments and the return value the seed's templates give it:

- ``dropPiece(player, move, board)`` drops in place and returns the same
  board, or ``ERROR`` (-1) for a move outside 0..7 or into a full column,
  leaving the board as it was;
- ``checkWin(player, board)`` returns ``player`` when it has four in a line,
  else 0;
- ``eval(board)`` scores from O's point of view: ``sys.maxsize`` for a line
  of O, ``-sys.maxsize`` for a line of X, else THREE_SCORE per window of four
  cells holding three O and a blank, TWO_SCORE per window with two O and two
  blanks, the same subtracted for X;
- ``minMax(board, player, depth, alpha, beta)`` returns ``(score, move)``;
  O maximises, X minimises; every call counts one node in the module global
  ``countNodes``; a call beyond ``maxNodeLimit`` returns ``(0, None)`` at
  once; a call at ``depth == maxDepth``, on a board someone has already
  won, or on a full board, returns ``(eval(board), None)``; children are tried in column order
  0..7, made on the board and undone (no copies);
- ``player(board)`` is O's move: ``minMax`` from depth 0 with the widest
  window, the node count started afresh.

The grader (:mod:`engine.grade.seed003`) marks students against these; it
runs them here, never inside a student's sandbox.
"""

from __future__ import annotations

import sys

import numpy as np

N = 8
blank, X, O = 0, 1, 2  # noqa: E741 - the seed's names
symbol = [" ", "X", "O"]

#: What ``dropPiece`` returns for a move it cannot make.
ERROR = -1

OWIN = sys.maxsize
XWIN = -OWIN
#: The weights the seed's tests of ``eval`` use.
THREE_SCORE = 50
TWO_SCORE = 10

maxNodeLimit = 10000
maxDepth = 3
countNodes = 0


def getEmptyBoard() -> np.ndarray:
    return np.zeros((N, N)).astype(int)


def isError(B: object) -> bool:
    """The seed's only safe test for ERROR: ``B == ERROR`` on an array compares every cell."""
    return type(B) is int and B == ERROR


def illegalMove(m: int) -> bool:
    return not 0 <= m <= N - 1


def noRoomInColumn(move: int, board: np.ndarray) -> bool:
    return bool(board[0][move] != blank)


def dropPiece(player: int, move: int, board: np.ndarray) -> np.ndarray | int:
    """Drop ``player``'s piece into column ``move`` of ``board`` in place; the board, or ERROR."""
    if illegalMove(move) or noRoomInColumn(move, board):
        return ERROR
    for row in range(N - 1, -1, -1):  # from the bottom row up to the first blank
        if board[row][move] == blank:
            board[row][move] = player
            break
    return board


def makeExample(moves: list[int]) -> np.ndarray | int:
    """The board after ``moves`` (X first, then O in turn), or ERROR for a move that cannot be made."""
    B: np.ndarray | int = getEmptyBoard()
    player, nextPlayer = X, O
    for m in moves:
        B = dropPiece(player, m, B)  # type: ignore[arg-type]
        if isError(B):
            return ERROR
        player, nextPlayer = nextPlayer, player
    return B


def printBoard(B: np.ndarray | int, ind: int = 0) -> None:
    indent = "\t" * ind
    if isError(B):
        print(indent, "ERROR: Overflow in column.")
        return
    assert isinstance(B, np.ndarray)
    print(indent, " " + " ".join(str(col) for col in range(N)))
    print(indent, "-" * (2 * N + 3))
    for row in range(N):
        print(indent, "|" + "".join(" " + symbol[B[row][col]] for col in range(N)) + " |")
    print(indent, "-" * (2 * N + 3))


def _lines() -> list[tuple[tuple[int, int], ...]]:
    """Every window of four cells in a row, a column or a diagonal: the lines a player can win on."""
    steps = ((0, 1), (1, 0), (1, 1), (-1, 1))  # right, down, down-right, up-right
    lines = []
    for row in range(N):
        for col in range(N):
            for dr, dc in steps:
                cells = tuple((row + k * dr, col + k * dc) for k in range(4))
                if all(0 <= r < N and 0 <= c < N for r, c in cells):
                    lines.append(cells)
    return lines


#: The 130 windows of an 8x8 board (40 in rows, 40 in columns, 50 on diagonals), found once.
LINES = _lines()


def checkWin(player: int, board: np.ndarray) -> int:
    """``player`` if it has four in a row, a column or a diagonal, else 0."""
    cells = np.asarray(board).tolist()  # plain lists: reading a numpy cell one at a time is slow
    for line in LINES:
        if all(cells[r][c] == player for r, c in line):
            return player
    return 0


def eval(board: np.ndarray) -> int:
    """The board from O's point of view (see the module docstring)."""
    if checkWin(O, board):
        return OWIN
    if checkWin(X, board):
        return XWIN
    cells = np.asarray(board).tolist()
    score = 0
    for line in LINES:
        window = [cells[r][c] for r, c in line]
        blanks, xs, os = window.count(blank), window.count(X), window.count(O)
        if blanks == 1 and os == 3:
            score += THREE_SCORE
        elif blanks == 2 and os == 2:
            score += TWO_SCORE
        elif blanks == 1 and xs == 3:
            score -= THREE_SCORE
        elif blanks == 2 and xs == 2:
            score -= TWO_SCORE
    return score


def minMax(board: np.ndarray, player: int, depth: int, alpha: int, beta: int) -> tuple[int, int | None]:
    """Alpha-beta from ``board`` with ``player`` to move; ``(score, move)`` (see the module docstring)."""
    global countNodes
    countNodes += 1
    if countNodes > maxNodeLimit:
        return (0, None)
    full = all(noRoomInColumn(move, board) for move in range(N))
    if depth == maxDepth or checkWin(X, board) or checkWin(O, board) or full:
        return (eval(board), None)
    otherPlayer = O if player == X else X
    bestScore = -sys.maxsize - 1 if player == O else sys.maxsize + 1  # below (above) every score
    bestMove = None
    for move in range(N):
        if noRoomInColumn(move, board):
            continue
        row = max(r for r in range(N) if board[r][move] == blank)
        board[row][move] = player  # make the move ...
        score, _ = minMax(board, otherPlayer, depth + 1, alpha, beta)
        board[row][move] = blank  # ... and undo it
        if player == O:
            if score > bestScore:
                bestScore, bestMove = score, move
            alpha = max(alpha, score)
        else:
            if score < bestScore:
                bestScore, bestMove = score, move
            beta = min(beta, score)
        if alpha >= beta:
            break
    return (bestScore, bestMove)


def player(board: np.ndarray) -> int | None:
    """O's move on ``board``: the move of ``minMax`` from depth 0, counting nodes afresh."""
    global countNodes
    countNodes = 0
    return minMax(board, O, 0, -sys.maxsize, sys.maxsize)[1]
