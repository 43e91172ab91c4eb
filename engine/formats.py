"""Reading and writing positions: move strings, text grids, numpy boards.

- **Move strings** (:mod:`engine.notation`, re-exported here): one 1-based
  ASCII column digit per move, ``"4453"``.
- **Text grids** (seed 004): one line per row, top row first, ``-`` empty,
  ``X`` the first player, ``O`` (or ``0``) the second. Spaces and the seed's
  ``|`` and ``# --- #`` frame are allowed. Whose turn it is follows from the
  disc counts.
- **Numpy boards** as the classroom seeds use them: ``encoding="signed"``
  (1 / -1 / 0, seeds 000 and 001; seed 001's arrays of ``'x'`` / ``'o'`` /
  ``' '`` are read as 1 / -1 / 0) or ``encoding="012"`` (1 / 2 / 0, seeds 003
  and 004); ``origin="top"`` when row 0 is the top row, as all seeds draw it,
  or ``origin="bottom"``.

Every reader validates what it reads and raises :class:`PositionError` with a
message that says what is wrong and where.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from engine.board import Board, Side
from engine.errors import PositionError
from engine.geometry import MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS, Geometry
from engine.notation import format_moves, parse_moves
from engine.validate import shown

__all__ = [
    "ENCODINGS",
    "Encoding",
    "Origin",
    "encoding_values",
    "format_grid",
    "format_moves",
    "from_array",
    "integer_grid",
    "parse_grid",
    "parse_moves",
    "to_array",
]

Encoding = Literal["signed", "012"]
Origin = Literal["top", "bottom"]

#: The value each encoding gives the first player, the second player and an empty cell.
ENCODINGS: dict[str, tuple[int, int, int]] = {"signed": (1, -1, 0), "012": (1, 2, 0)}


# -- text grids -------------------------------------------------------------------
_GRID_SYMBOLS = {
    "-": None,
    ".": None,
    "X": Side.FIRST,
    "x": Side.FIRST,
    "O": Side.SECOND,
    "o": Side.SECOND,
    "0": Side.SECOND,
}


def parse_grid(text: str, connect: int = 4) -> Board:
    """A board from a text grid (seed 004); its size is read from the grid."""
    if not isinstance(text, str):
        raise PositionError(f"a grid must be text, not {shown(text)}")
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue  # blank lines and the seed's "# ----- #" frame
        cells = [char for char in line if char not in " |\t"]
        for char in cells:
            if char not in _GRID_SYMBOLS:
                raise PositionError(f"grid line {number}: {char!r} is not one of - X O")
        rows.append((number, cells))
    if not rows:
        raise PositionError("the grid is empty")
    widths = {len(cells) for _, cells in rows}
    if len(widths) != 1:
        number = next(n for n, cells in rows if len(cells) != len(rows[0][1]))
        raise PositionError(f"grid line {number}: rows have different lengths ({sorted(widths)})")
    cols = widths.pop()
    if not (MIN_COLS <= cols <= MAX_COLS and MIN_ROWS <= len(rows) <= MAX_ROWS):
        raise PositionError(
            f"a grid {cols} wide and {len(rows)} high: boards are {MIN_COLS} to {MAX_COLS} wide "
            f"and {MIN_ROWS} to {MAX_ROWS} high"
        )
    geometry = Geometry(cols=cols, rows=len(rows), connect=connect)
    first = second = 0
    for top_index, (_, cells) in enumerate(rows):
        row = geometry.rows - 1 - top_index
        for col, char in enumerate(cells):
            side = _GRID_SYMBOLS[char]
            if side is Side.FIRST:
                first |= geometry.cell(col, row)
            elif side is Side.SECOND:
                second |= geometry.cell(col, row)
    return Board.from_stones(first, second, geometry)


def _grid_symbol(side: Side | None) -> str:
    return "-" if side is None else side.symbol


def format_grid(board: Board) -> str:
    """The text grid of ``board`` (top row first), readable by :func:`parse_grid`."""
    g = board.geometry
    lines = []
    for row in reversed(range(g.rows)):
        lines.append(" ".join(_grid_symbol(board.cell(col, row)) for col in range(g.cols)))
    return "\n".join(lines) + "\n"


# -- numpy boards ------------------------------------------------------------------
def to_array(board: Board, encoding: Encoding = "signed", origin: Origin = "top") -> np.ndarray:
    """The board as a ``rows x cols`` integer array in a seed's encoding."""
    first, second, empty = encoding_values(encoding)
    g = board.geometry
    array = np.full((g.rows, g.cols), empty, dtype=np.int64)
    for col in range(g.cols):
        for row in range(g.rows):
            side = board.cell(col, row)
            if side is not None:
                array[_array_row(row, g.rows, origin), col] = first if side is Side.FIRST else second
    return array


def from_array(array: object, connect: int = 4, encoding: Encoding | None = None, origin: Origin = "top") -> Board:
    """A board from an array in a seed's encoding (guessed when not given).

    The guess: any -1 means ``signed``, any 2 means ``012``; a board with only
    zeros and ones has no second-player stone, so either reading agrees.
    """
    grid = integer_grid(array)
    values = set(np.unique(grid).tolist())
    if encoding is None:
        encoding = "012" if 2 in values else "signed"
    first_value, second_value, empty = encoding_values(encoding)
    unknown = values - {first_value, second_value, empty}
    if unknown:
        raise PositionError(f"values {sorted(unknown)} are not used by the {encoding!r} encoding {ENCODINGS[encoding]}")
    geometry = Geometry(cols=int(grid.shape[1]), rows=int(grid.shape[0]), connect=connect)
    first = second = 0
    for r in range(geometry.rows):
        row = _array_row(r, geometry.rows, origin)
        for col in range(geometry.cols):
            if grid[r, col] == first_value:
                first |= geometry.cell(col, row)
            elif grid[r, col] == second_value:
                second |= geometry.cell(col, row)
    return Board.from_stones(first, second, geometry)


def integer_grid(array: object) -> np.ndarray:
    """``array`` as a 2-D ``int64`` array of a board's size, or :class:`PositionError` saying why not.

    Ragged lists, strings, objects, fractions, NaN and huge values are all refused here,
    before any cell is read.
    """
    if isinstance(array, (str, bytes, bytearray)):
        raise PositionError(f"a board must be a 2-D array of whole numbers, not {shown(array)}")
    try:
        grid = np.asarray(array)
    except Exception as exc:  # ragged lists and the like
        raise PositionError(f"not a rectangular board: {str(exc)[:100]}") from None
    if grid.ndim != 2:
        raise PositionError(f"a board must be a 2-D array, not {grid.ndim}-D")
    if not (MIN_ROWS <= grid.shape[0] <= MAX_ROWS and MIN_COLS <= grid.shape[1] <= MAX_COLS):
        raise PositionError(
            f"a {grid.shape[0]}x{grid.shape[1]} array is no board: rows {MIN_ROWS} to {MAX_ROWS}, "
            f"columns {MIN_COLS} to {MAX_COLS}"
        )
    if grid.dtype.kind in "US":  # seed 001's arrays of 'x', 'o' and ' ': the signed encoding's 1, -1 and 0
        return _characters(grid)
    if grid.dtype.kind not in "biuf":
        raise PositionError(f"a board may hold only whole numbers, not {grid.dtype} values")
    with np.errstate(invalid="ignore", over="ignore"):
        whole = grid.astype(np.int64)
        if not np.array_equal(whole, grid):
            raise PositionError("a board may hold only whole numbers")
    return whole


#: Seed 001's characters, as the signed encoding's values ('x' moves first).
CHARACTERS = {"x": 1, "o": -1, " ": 0, "": 0}


def _characters(grid: np.ndarray) -> np.ndarray:
    """An array of seed 001's characters as the signed encoding (1, -1, 0), or :class:`PositionError`."""
    cells = [str(cell, "ascii", "replace") if isinstance(cell, bytes) else str(cell) for cell in grid.flat]
    unknown = sorted({cell for cell in cells if cell.lower() not in CHARACTERS})
    if unknown:
        listed = ", ".join(shown(cell) for cell in unknown[:5])
        raise PositionError(f"a board holds whole numbers, or seed 001's characters 'x', 'o' and ' ', not {listed}")
    return np.array([CHARACTERS[cell.lower()] for cell in cells], dtype=np.int64).reshape(grid.shape)


def encoding_values(name: object) -> tuple[int, int, int]:
    """The (first player, second player, empty) values of an encoding's name."""
    if not isinstance(name, str) or name not in ENCODINGS:
        raise PositionError(f"unknown encoding {shown(name)}: use one of {', '.join(ENCODINGS)}")
    return ENCODINGS[name]


def _array_row(row: int, rows: int, origin: Origin) -> int:
    """Array row index of board row ``row`` (0 = bottom), and back: the map is its own inverse."""
    if origin == "top":
        return rows - 1 - row
    if origin == "bottom":
        return row
    raise PositionError(f"unknown origin {origin!r}: use 'top' or 'bottom'")
