"""Hand-made positions from the course assignments, with the move each one calls for.

Seeds 000 and 001 draw their boards as numpy arrays (1 / -1 / 0, top row
first) with the agent always playing 1; seed 004 as text grids. Boards whose
disc counts cannot arise in a game are left out. Columns here are 0-based.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.agents.classroom import board_for_player
from engine.board import Board
from engine.formats import parse_grid


@dataclass(frozen=True)
class SeedPosition:
    name: str
    board: Board
    moves: frozenset[int]  # the columns that do what the test asks (win, or block)


def _array(name: str, rows: list[list[int]], *moves: int) -> SeedPosition:
    return SeedPosition(name, board_for_player(np.array(rows), player=1, encoding="signed"), frozenset(moves))


def _grid(name: str, text: str, *moves: int) -> SeedPosition:
    return SeedPosition(name, parse_grid(text), frozenset(moves))


def _chars(rows: list[str]) -> list[list[int]]:
    """Seed 001 also writes boards with x, o and spaces."""
    values = {" ": 0, "x": 1, "o": -1}
    return [[values[char] for char in row] for row in rows]


#: The side to move wins at once by playing one of ``moves``.
WINS = [
    _array("000 4x4 a", [[0, 0, 0, 0], [0, 0, 1, -1], [-1, 1, -1, 1], [1, -1, 1, -1]], 3),
    _array("000 4x4 b", [[0, 0, 0, 0], [-1, 1, 1, -1], [-1, -1, 1, -1], [1, -1, 1, 1]], 0, 2),
    _array("000 4x4 c", [[0, 0, 0, 0], [-1, 0, 0, 0], [-1, -1, -1, 0], [1, 1, 1, 0]], 3),
    _array("000 4x4 d", [[-1, 0, 0, 0], [-1, 0, 0, 0], [-1, -1, 1, 0], [1, 1, 1, 0]], 3),
    _array("000 4x4 e", [[0, 0, 0, 0], [1, -1, 1, -1], [-1, 1, -1, -1], [1, 1, -1, 1]], 3),
    _array(
        "000 7x6",
        [[0] * 7, [0] * 7, [0] * 7, [0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0], [0, -1, -1, 1, -1, 0, 0]],
        3,
    ),
    # The opponent threatens too: winning comes first.
    _array("001 7x7 a", _chars([" " * 7, "x  o ox", "oxoxoxo", "xoxoxxo", "xoxoxxx", "xoooxoo", "oxoxoxo"]), 2),
    _array("001 7x7 b", _chars(["      x", "xoooxox", "oxoxoxo", "xoxoxxo", "xoxoxxx", "xoooxoo", "oxoxoxo"]), 5),
]

#: The side to move cannot win at once, and must play one of ``moves`` or lose at once.
BLOCKS = [
    _array("000 4x4", [[0, 0, 0, 1], [1, -1, -1, -1], [-1, 1, -1, 1], [1, -1, 1, -1]], 0),
    _array("001 7x7 a", _chars(["    xox", "xoooxox", "oxoxoxo", "xoxoxxo", "xoxoxxx", "xoooxoo", "oxoxoxo"]), 0),
    _array("001 7x7 b", _chars([" " * 7, "     o ", " xox x ", "xoxo ox", "ooxoxox", "xxooxoo", "oxoxoxx"]), 3),
    _grid("004 state 2", "-------\n-------\n-------\n-------\n-------\nXXX--OO\n", 3),
    _grid("004 state 3", "-------\n-------\n-------\nO-XX---\nOXOX---\nXXOOXO-\n", 3),
]
