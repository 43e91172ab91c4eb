"""A plain exhaustive solver, independent of the engine, to check exact scores against.

Every position is a tuple of columns (owners bottom up); the search tries
every move to the end of the game, remembering positions it has seen. Slow,
short and obviously right: only for small boards or late positions.
"""

from __future__ import annotations

import random
from functools import cache

from engine.board import Board
from engine.geometry import Geometry


def make_solver(cols: int, rows: int, connect: int):
    """``score(columns, moves)``: Pons's score for the side to move (see docs/cli.md)."""
    cells = cols * rows

    def owner(columns, col, row):
        if 0 <= col < cols and 0 <= row < len(columns[col]):
            return columns[col][row]
        return None

    def wins(columns, col, player) -> bool:
        row = len(columns[col]) - 1  # the stone just played
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                k = 1
                while owner(columns, col + sign * k * dc, row + sign * k * dr) == player:
                    run += 1
                    k += 1
            if run >= connect:
                return True
        return False

    @cache
    def score(columns: tuple[tuple[int, ...], ...], moves: int) -> int:
        player = moves % 2
        best = None
        for col in range(cols):
            if len(columns[col]) == rows:
                continue
            child = (*columns[:col], (*columns[col], player), *columns[col + 1 :])
            if wins(child, col, player):
                value = (cells + 2 - (moves + 1)) // 2  # our stone number moves + 1 wins
            elif moves + 1 == cells:
                value = 0
            else:
                value = -score(child, moves + 1)
            best = value if best is None else max(best, value)
        return 0 if best is None else best

    def column_scores(columns, moves):
        """The score of playing each column (None: full)."""
        out = []
        player = moves % 2
        for col in range(cols):
            if len(columns[col]) == rows:
                out.append(None)
                continue
            child = (*columns[:col], (*columns[col], player), *columns[col + 1 :])
            if wins(child, col, player):
                out.append((cells + 2 - (moves + 1)) // 2)
            elif moves + 1 == cells:
                out.append(0)
            else:
                out.append(-score(child, moves + 1))
        return out

    return score, column_scores, wins


def columns_of(moves: list[int], cols: int) -> tuple[tuple[int, ...], ...]:
    columns: list[tuple[int, ...]] = [() for _ in range(cols)]
    for index, col in enumerate(moves):
        columns[col] += (index % 2,)
    return tuple(columns)


def random_position(geometry: Geometry, plies: int, rng: random.Random) -> list[int]:
    """The columns of a random game of ``plies`` moves that is not over."""
    while True:
        board, moves = Board(geometry), []
        for _ in range(plies):
            col = rng.choice(board.legal_columns())
            board.play(col)
            moves.append(col)
            if board.is_over:
                break
        if not board.is_over:
            return moves
