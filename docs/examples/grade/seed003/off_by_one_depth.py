"""Seed 003 with a typical bug: minMax searches one ply deeper than maxDepth."""

import sys

import numpy as np

blank, X, O = 0, 1, 2
N = 8
ERROR = -1
OWIN = sys.maxsize
XWIN = -OWIN
THREE_SCORE = 50
TWO_SCORE = 10
maxNodeLimit = 10000
maxDepth = 3
countNodes = 0


def getEmptyBoard():
    return np.zeros((N, N)).astype(int)


def illegalMove(m):
    return not (0 <= m <= 7)


def noRoomInColumn(move, board):
    return board[0][move] != blank


def dropPiece(player, move, board):
    if illegalMove(move) or noRoomInColumn(move, board):
        return ERROR
    for row in reversed(range(0, 8)):
        if board[row][move] == blank:
            board[row][move] = player
            break
    return board


def lines():
    found = []
    for row in range(N):
        for col in range(N):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = [(row + k * dr, col + k * dc) for k in range(4)]
                if all(0 <= r < N and 0 <= c < N for r, c in cells):
                    found.append(cells)
    return found


LINES = lines()


def checkWin(player, board):
    for line in LINES:
        if all(board[r][c] == player for r, c in line):
            return player
    return 0


def eval(board):
    if checkWin(O, board):
        return OWIN
    if checkWin(X, board):
        return XWIN
    score = 0
    for line in LINES:
        cells = [board[r][c] for r, c in line]
        if cells.count(blank) == 1 and cells.count(O) == 3:
            score += THREE_SCORE
        elif cells.count(blank) == 2 and cells.count(O) == 2:
            score += TWO_SCORE
        elif cells.count(blank) == 1 and cells.count(X) == 3:
            score -= THREE_SCORE
        elif cells.count(blank) == 2 and cells.count(X) == 2:
            score -= TWO_SCORE
    return score


def minMax(board, player, depth, alpha, beta):
    global countNodes
    countNodes += 1
    otherPlayer = O if player == X else X
    if countNodes > maxNodeLimit:
        return (0, None)
    if depth > maxDepth:
        return (eval(board), None)
    bestScore = -sys.maxsize - 1 if player == O else sys.maxsize + 1
    bestMove = None
    for move in range(8):
        row = None
        for i in range(len(board) - 1, -1, -1):
            if board[i][move] == blank:
                row = i
                break
        if row is not None:
            board[row][move] = player
            score, _ = minMax(board, otherPlayer, depth + 1, alpha, beta)
            board[row][move] = blank
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


def player(board):
    global countNodes
    countNodes = 0
    return minMax(board, O, 0, -sys.maxsize, sys.maxsize)[1]


if __name__ == "__main__":
    print(player(getEmptyBoard()))
