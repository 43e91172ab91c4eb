"""What every assignment's cases need: seeded generators, random positions, arrays as requests, the usual checks.

Hidden cases are drawn from the grading seed (``--seed``) and the names of the
assignment, question and case (:func:`rng`), so the same seed gives every
student the same cases, whichever process or machine marks them, in any order.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.grade import values
from engine.grade.model import Reply, Verdict


def rng(seed: int, *parts: object) -> random.Random:
    """A generator of its own for ``parts`` (``"seed003", "eval", 4``) under the grading seed."""
    key = "\x1f".join([str(seed), *(str(part) for part in parts)])
    return random.Random(int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little"))


def random_cells(
    generator: random.Random, rows: int, cols: int, plies: int, connect: int = 4, stop_at_win: bool = True
) -> tuple[list[list[int]], list[int], int]:
    """A position of a random game: ``(cells top row first, 1 first player 2 second 0 empty, the columns
    played, the winner or 0)``. The game ends at ``plies`` moves, at a win (``stop_at_win``) or a full board."""
    cells = [[0] * cols for _ in range(rows)]
    played: list[int] = []
    winner = 0
    for ply in range(plies):
        open_columns = [c for c in range(cols) if cells[0][c] == 0]
        if not open_columns:
            break
        col = generator.choice(open_columns)
        row = max(r for r in range(rows) if cells[r][col] == 0)
        piece = 1 if ply % 2 == 0 else 2
        cells[row][col] = piece
        played.append(col)
        if has_line(cells, piece, connect):
            winner = piece
            if stop_at_win:
                break
    return cells, played, winner


def has_line(cells: list[list[int]], piece: int, connect: int = 4) -> bool:
    rows, cols = len(cells), len(cells[0])
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                end_r, end_c = r + (connect - 1) * dr, c + (connect - 1) * dc
                inside = 0 <= end_r < rows and 0 <= end_c < cols
                if inside and all(cells[r + k * dr][c + k * dc] == piece for k in range(connect)):
                    return True
    return False


def winning_columns(cells: list[list[int]], piece: int, connect: int = 4) -> list[int]:
    """The columns where ``piece`` completes a line at once."""
    found = []
    for col in range(len(cells[0])):
        if cells[0][col] != 0:
            continue
        row = max(r for r in range(len(cells)) if cells[r][col] == 0)
        cells[row][col] = piece
        if has_line(cells, piece, connect):
            found.append(col)
        cells[row][col] = 0
    return found


def request_array(cells: Any, dtype: str = "int64") -> dict[str, Any]:
    """An array argument of a request (see :func:`engine.grade.child.decode`)."""
    return {"array": np.asarray(cells).tolist(), "dtype": dtype}


def drawn(cells: Any, symbols: dict[Any, str], top_first: bool = True, numbers: bool = True) -> str:
    """A board as text for the feedback: columns numbered from 0, one line per row, top row first."""
    grid = np.asarray(cells).tolist()
    if not top_first:
        grid = grid[::-1]
    width = len(grid[0])
    lines = [" " + " ".join(str(col) for col in range(width))] if numbers else []
    lines += ["|" + " ".join(symbols.get(cell, "?") for cell in row) + "|" for row in grid]
    return "\n".join(lines)


def equal_int(expected: int, describe: str, extra: Callable[[int], str] | None = None) -> Callable[[Reply], Verdict]:
    """A check that the value is the whole number ``expected`` (an int of Python or numpy, not a bool)."""

    def check(reply: Reply) -> Verdict:
        got = values.integer(reply.get("value"))
        if got == expected:
            return Verdict.right()
        shown = values.shown(reply.get("value"))
        if got is None:
            return Verdict.wrong(
                f"returned {shown} ({values.type_name(reply.get('value'))}); {describe} is a whole number"
            )
        more = f" ({extra(got)})" if extra else ""
        return Verdict.wrong(f"returned {shown}; the reference gives {expected}{more}")

    return check
