"""What the adapters are handed, checked before a move is chosen: one error naming the field, never a guess.

An observation comes from another program (Kaggle's environment, PettingZoo,
OpenSpiel, a script of someone's), so every field is checked: its type, its
length or shape, its values, and that together they make a position a game
can reach (no stone above an empty cell, the right number of stones for the
player whose turn it is, no finished game). Anything else raises one
:class:`ObservationError` (a :class:`ValueError`) whose message names the
field, e.g. ``observation.board has 41 cells, but columns x rows is 42``.
No check calls a method of a value it was handed other than reading it.

Each reader returns a :class:`Cells`: the board as a flat list, row-major,
top row first, ``1`` for the stones of the player to move and ``2`` for the
other's, whatever the source's convention.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.board import Board
from engine.errors import EngineError
from engine.formats import from_array
from engine.geometry import MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS, Geometry
from engine.interop.plain import PlainBoard

#: The largest side of a board the adapters accept (any size Kaggle allows up to it plays).
MAX_SIDE = 1000
#: The most cells (a board of 1000 x 1000 would be a million: refused before it is read).
MAX_CELLS = 100_000
#: The longest time limit taken as given (seconds; a day).
MAX_SECONDS = 86_400.0
#: Connect-N the engine's agents play (4..9 x 4..9 is the engine's board range; see engine.geometry).
MIN_CONNECT, MAX_CONNECT = 3, 6


class ObservationError(EngineError):
    """An observation or configuration that is not a position of a game in progress; the message names the field."""


@dataclass(frozen=True)
class Cells:
    """A checked position: ``cells`` row-major, top row first, 1 the mover's stones, 2 the other's, 0 empty.

    ``first``: the mover moved first (as many stones as the other).
    """

    cells: tuple[int, ...]
    cols: int
    rows: int
    connect: int
    first: bool

    @property
    def geometry(self) -> Geometry | None:
        """The engine's board of this size, or None where the engine does not play (the plain player does)."""
        fits = MIN_COLS <= self.cols <= MAX_COLS and MIN_ROWS <= self.rows <= MAX_ROWS
        if not fits or not MIN_CONNECT <= self.connect <= min(MAX_CONNECT, max(self.cols, self.rows)):
            return None
        return Geometry(self.cols, self.rows, self.connect)

    def board(self) -> Board:
        """The engine's board (only where :attr:`geometry` is not None)."""
        first, second = (1, 2) if self.first else (2, 1)  # the engine's 012: 1 moved first
        values = [0 if cell == 0 else first if cell == 1 else second for cell in self.cells]
        grid = np.array(values, dtype=np.int64).reshape(self.rows, self.cols)
        return from_array(grid, connect=self.connect, encoding="012", origin="top")


# -- pieces ---------------------------------------------------------------------------------------------
def describe(value: object) -> str:
    """A short, safe description of a value for a message: its repr if plain and short, else its type."""
    if value is None or isinstance(value, (bool, int, float, str)):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return f"a {type(value).__name__}"


def field(value: Any, name: str, where: str) -> Any:
    """``value[name]`` of a mapping, else ``value.name``; an error naming ``where.name`` if it has none."""
    if isinstance(value, Mapping):
        if name not in value:
            raise ObservationError(f"{where} has no {name!r}")
        return value[name]
    try:
        return getattr(value, name)
    except Exception:  # (an attribute that raises when read is missing all the same)
        raise ObservationError(f"{where} has no {name!r}") from None


def optional_field(value: Any, name: str) -> Any:
    """``value[name]`` or ``value.name``, None if absent."""
    if isinstance(value, Mapping):
        return value.get(name)
    try:
        return getattr(value, name, None)
    except Exception:
        return None


def whole(value: object, name: str, low: int, high: int) -> int:
    """``value`` as an int in ``low..high`` (ints and numpy integers, never bool, floats or text)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ObservationError(f"{name} must be a whole number from {low} to {high}, not {describe(value)}")
    number = int(value)
    if not low <= number <= high:
        raise ObservationError(f"{name} must be a whole number from {low} to {high}, not {number}")
    return number


def seconds(value: object, name: str, default: float) -> float:
    """A time in seconds (a finite number from 0 up; ``default`` when absent)."""
    if value is None:
        return default
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ObservationError(f"{name} must be a number of seconds, not {describe(value)}")
    number = float(value)
    if math.isnan(number) or number < 0:
        raise ObservationError(f"{name} must be a number of seconds from 0 up, not {number}")
    return min(number, MAX_SECONDS)


def checked_position(cells: list[int], cols: int, rows: int, connect: int, where: str) -> Cells:
    """The game's position of ``cells`` (0, 1 mover, 2 other, top row first): stones stacked, counts, no winner."""
    for col in range(cols):
        seen_stone = False
        for row in range(rows):
            if cells[row * cols + col]:
                seen_stone = True
            elif seen_stone:
                raise ObservationError(
                    f"{where}: column {col} has a stone above an empty cell (row {row} from the top);"
                    " stones fall to the bottom (is the board upside down, or transposed?)"
                )
    mine, theirs = cells.count(1), cells.count(2)
    if mine not in (theirs, theirs - 1):
        raise ObservationError(
            f"{where}: the player to move has {mine} stones and the other {theirs}: it must have as many, or one"
            " fewer (is the mark, or the plane order, the wrong way round?)"
        )
    board = PlainBoard(cells, cols, rows, connect)
    for who, name in ((1, "the player to move"), (2, "the other player")):
        if board.has_line(who):
            raise ObservationError(f"{where}: the game is over ({name} has {connect} in a row)")
    if not board.legal():
        raise ObservationError(f"{where}: the board is full: there is no move to make")
    return Cells(tuple(cells), cols, rows, connect, first=mine == theirs)


# -- Kaggle ConnectX ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class KaggleTurn:
    """A checked ConnectX turn: the position, and the clock as Kaggle tells it."""

    position: Cells
    mark: int
    act_timeout: float
    overage: float


def read_kaggle(observation: Any, configuration: Any) -> KaggleTurn:
    """Check a ConnectX ``observation`` and ``configuration`` (see the module); raises ObservationError."""
    for value, name in ((observation, "observation"), (configuration, "configuration")):
        if value is None or isinstance(value, (str, bytes, numbers.Number, Sequence, np.ndarray)):
            raise ObservationError(f"{name} must be Kaggle's {name} (a dict or a struct), not {describe(value)}")
    cols = whole(field(configuration, "columns", "configuration"), "configuration.columns", 1, MAX_SIDE)
    rows = whole(field(configuration, "rows", "configuration"), "configuration.rows", 1, MAX_SIDE)
    if cols * rows > MAX_CELLS:
        raise ObservationError(f"configuration: {cols} x {rows} is more than {MAX_CELLS:,} cells")
    connect = whole(field(configuration, "inarow", "configuration"), "configuration.inarow", 1, MAX_SIDE)
    act_timeout = seconds(optional_field(configuration, "actTimeout"), "configuration.actTimeout", 2.0)
    overage = seconds(optional_field(observation, "remainingOverageTime"), "observation.remainingOverageTime", 0.0)
    mark = field(observation, "mark", "observation")
    if isinstance(mark, (bool, np.bool_)) or not isinstance(mark, numbers.Integral) or int(mark) not in (1, 2):
        raise ObservationError(f"observation.mark must be 1 or 2, not {describe(mark)}")
    mark = int(mark)
    raw = _flat_cells(field(observation, "board", "observation"), cols * rows, cols, rows)
    ones, twos = raw.count(1), raw.count(2)
    if ones not in (twos, twos + 1):
        raise ObservationError(
            f"observation.board has {ones} stones of player 1 and {twos} of player 2: player 1 moves first,"
            " so it has as many or one more"
        )
    to_move = 1 if ones == twos else 2
    if mark != to_move:
        raise ObservationError(
            f"observation.mark is {mark}, but the board ({ones} stones of 1, {twos} of 2) has player {to_move} to move"
        )
    cells = [0 if cell == 0 else 1 if cell == mark else 2 for cell in raw]
    position = checked_position(cells, cols, rows, connect, "observation.board")
    return KaggleTurn(position, mark, act_timeout, overage)


def _flat_cells(board: object, length: int, cols: int, rows: int) -> list[int]:
    """``observation.board`` as a list of 0, 1 and 2 of ``length`` cells."""
    name = "observation.board"
    if isinstance(board, np.ndarray):
        if board.ndim != 1:
            raise ObservationError(f"{name} must be a flat list of {length} cells, not an array of shape {board.shape}")
        if board.dtype.kind not in "iu":
            raise ObservationError(f"{name} must hold whole numbers 0, 1 and 2, not {board.dtype} values")
        values: Sequence[object] = board.tolist()
    elif isinstance(board, (list, tuple)):
        values = board
    else:
        raise ObservationError(f"{name} must be a list of {length} cells (0, 1 or 2), not {describe(board)}")
    if len(values) != length:
        raise ObservationError(f"{name} has {len(values)} cells, but columns x rows is {cols} x {rows} = {length}")
    cells: list[int] = []
    for index, value in enumerate(values):
        whole_number = isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
        if not whole_number or int(value) not in (0, 1, 2):  # type: ignore[call-overload]
            raise ObservationError(
                f"{name} holds {describe(value)} at cell {index} (row {index // cols}, column {index % cols}):"
                " a cell is 0 (empty), 1 or 2"
            )
        cells.append(int(value))  # type: ignore[call-overload]  # (an Integral, checked above)
    return cells


# -- PettingZoo connect_four_v3 -------------------------------------------------------------------------
def read_pettingzoo(observation: Any, geometry: Geometry | None) -> tuple[Cells, list[int] | None]:
    """Check a ``connect_four_v3`` observation dict; the position and the columns its mask allows (None: no mask).

    ``geometry``: the board the observation must be of (None: as its planes' shape says, with connect 4).
    Plane 0 holds the mover's stones, plane 1 the other's, top row first.
    """
    if not isinstance(observation, Mapping):
        kind = "an array: pass the whole dict" if isinstance(observation, np.ndarray) else describe(observation)
        raise ObservationError(
            f"the observation must be PettingZoo's dict of 'observation' and 'action_mask', not {kind}"
        )
    planes = _planes(field(observation, "observation", "the observation dict"))
    rows, cols = planes.shape[:2]
    if geometry is not None and (rows, cols) != (geometry.rows, geometry.cols):
        raise ObservationError(
            f"observation['observation'] has shape {planes.shape}, but a {geometry.cols}x{geometry.rows} board has"
            f" ({geometry.rows}, {geometry.cols}, 2): rows first, then columns (is it transposed?)"
        )
    connect = 4 if geometry is None else geometry.connect
    both = np.argwhere((planes[:, :, 0] == 1) & (planes[:, :, 1] == 1))
    if len(both):
        row, col = (int(number) for number in both[0])
        raise ObservationError(f"observation['observation'] has a stone in both planes at row {row}, column {col}")
    cells = [int(value) for value in (planes[:, :, 0] + 2 * planes[:, :, 1]).astype(np.int64).flat]
    position = checked_position(cells, cols, rows, connect, "observation['observation']")
    mask = observation.get("action_mask")
    return position, None if mask is None else _allowed(mask, position)


def _planes(value: object) -> np.ndarray:
    name = "observation['observation']"
    if isinstance(value, (str, bytes)) or value is None:
        raise ObservationError(f"{name} must be an array of shape (rows, columns, 2), not {describe(value)}")
    try:
        planes = np.asarray(value)
    except Exception:  # ragged lists and the like
        raise ObservationError(f"{name} must be an array of shape (rows, columns, 2)") from None
    if planes.ndim != 3 or planes.shape[2] != 2:
        raise ObservationError(f"{name} must have shape (rows, columns, 2), not {planes.shape}")
    rows, cols = planes.shape[:2]
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE and rows * cols <= MAX_CELLS):
        raise ObservationError(f"{name} has shape {planes.shape}: boards go up to {MAX_SIDE} a side")
    if planes.dtype.kind not in "biuf":
        raise ObservationError(f"{name} must hold 0 and 1, not {planes.dtype} values")
    odd = planes[(planes != 0) & (planes != 1)]  # (NaN is neither)
    if odd.size:
        raise ObservationError(f"{name} holds {describe(odd.flat[0].item())}: a plane's cell is 0 or 1")
    return planes.astype(np.int8)


def _allowed(mask: object, position: Cells) -> list[int]:
    """The columns ``action_mask`` allows: each a free column, at least one."""
    name = "observation['action_mask']"
    if isinstance(mask, (str, bytes, Mapping)):
        raise ObservationError(f"{name} must be a list of {position.cols} zeros and ones, not {describe(mask)}")
    try:
        values = np.asarray(mask)
    except Exception:
        raise ObservationError(f"{name} must be a list of {position.cols} zeros and ones") from None
    if values.shape != (position.cols,):
        raise ObservationError(f"{name} must have one entry per column ({position.cols}), not shape {values.shape}")
    if values.dtype.kind not in "biuf" or np.any((values != 0) & (values != 1)):
        raise ObservationError(f"{name} must hold 0 and 1 only")
    allowed = [int(col) for col in np.flatnonzero(values)]
    if not allowed:
        raise ObservationError(f"{name} allows no column")
    full = [col for col in allowed if position.cells[col] != 0]
    if full:
        raise ObservationError(f"{name} allows column {full[0]}, which is full")
    return allowed
