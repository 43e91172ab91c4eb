"""Varied starting positions, so that games of deterministic agents differ.

Twenty games of two deterministic agents from the empty board are only two
distinct games. Tournaments and studies instead start each pairing from a
seeded sample of short openings (every 2-ply opening when there are enough),
and play each one twice with the colours swapped.
"""

from __future__ import annotations

import itertools
import random

from engine.board import Board
from engine.formats import format_moves
from engine.geometry import Geometry


def all_openings(geometry: Geometry, plies: int) -> list[str]:
    """Every move string of ``plies`` moves that leaves a game still going, in column order."""
    return [
        format_moves(columns)
        for columns in itertools.product(range(geometry.cols), repeat=plies)
        if _still_going(geometry, columns)
    ]


def _still_going(geometry: Geometry, columns: tuple[int, ...]) -> bool:
    board = Board(geometry)
    for col in columns:
        if board.is_over or not board.is_legal(col):
            return False
        board.play(col)
    return not board.is_over


def sample_openings(geometry: Geometry, count: int, seed: int, plies: int = 2) -> list[str]:
    """``count`` distinct openings of ``plies`` moves (deeper if there are too few), shuffled by ``seed``.

    With ``plies=0`` every game starts from the empty board.
    """
    if count <= 0:
        return []
    if plies == 0:
        return [""] * count
    pool = all_openings(geometry, plies)
    while len(pool) < count and plies < 6:
        plies += 1
        pool = all_openings(geometry, plies)
    random.Random(seed).shuffle(pool)
    return [pool[index % len(pool)] for index in range(count)]
