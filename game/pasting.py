"""A position shared as text: what Ctrl+C copies, and the board a pasted one is played on.

A text grid brings its own size. A move string ("4453") does not: it is read
on the board in use when it fits there, else on the classic 7x6 board (what
a friend most likely shared), else on the smallest board it fits, and the
player is told which (a 7x6 game pasted after a 4x4 one opens on 7x6).
Pasted text is untrusted: bounded, and only ever read as a position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.board import Board
from engine.errors import EngineError
from engine.formats import format_grid, parse_grid
from engine.geometry import DEFAULT, MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS, Geometry
from game.labels import board_name
from game.saves import SaveFileError

if TYPE_CHECKING:
    from game.players import MatchConfig

MAX_PASTE = 10_000  # characters of pasted text: a 9x9 grid with comments is far less
#: The boards a move string is tried on after the one in use and the classic one: the smallest first.
SMALLEST_FIRST = sorted(
    (Geometry(cols, rows) for cols in range(MIN_COLS, MAX_COLS + 1) for rows in range(MIN_ROWS, MAX_ROWS + 1)),
    key=lambda geometry: (geometry.cols * geometry.rows, geometry.cols),
)


@dataclass(frozen=True)
class Pasted:
    """The match to start from a pasted position, and a note when it is on another board than before."""

    config: MatchConfig
    note: str = ""


def position_text(board: Board) -> str:
    """The position as text to share: its move string, or a text grid when the game began from a grid."""
    return board.move_string if board.move_string is not None else format_grid(board)


def pasted_position(text: str, config: MatchConfig) -> Pasted:
    """``config`` starting from a pasted move string or text grid; raises SaveFileError if it is not legal.

    A grid keeps the current connect-N when it fits, else four in a row.
    """
    text = text.strip()
    if not text:
        raise SaveFileError("the clipboard is empty: copy a move string such as 4453 or a grid of - X O")
    if len(text) > MAX_PASTE:
        raise SaveFileError(f"not a position: {len(text):,} characters, more than any board needs")
    digits = re.sub(r"[\s,]+", "", text)  # "4 4 5 3" and "4,4,5,3" are move strings too
    try:
        if digits.isascii() and digits.isdigit():
            board = board_for(digits, config.geometry)
            moves, grid = digits, ""
        else:
            board = parse_grid(text, min(config.geometry.connect, _largest_connect(text)))
            moves, grid = board.move_string or "", "" if board.ply == 0 else text
    except (ValueError, TypeError, LookupError) as exc:  # EngineError says why; anything else is still one line
        raise SaveFileError(f"not a position: {exc if isinstance(exc, EngineError) else 'unreadable'}") from None
    if board.is_over:
        raise SaveFileError("that position is already decided: nobody could move")
    pasted = replace(config, geometry=board.geometry, start_moves=moves, start_grid=grid, replay="")
    moved = grid == "" and board.geometry != config.geometry
    note = f"on {board_name(board.geometry)}: the moves do not fit {board_name(config.geometry)}" if moved else ""
    return Pasted(pasted, note)


def board_for(moves: str, current: Geometry) -> Board:
    """The position of ``moves`` on ``current`` if they fit there, else on 7x6, else on the smallest board
    they fit; raises the error of ``current`` when they fit none."""
    try:
        return Board.from_moves(moves, current)
    except EngineError as first:
        for geometry in (DEFAULT, *SMALLEST_FIRST):
            try:
                return Board.from_moves(moves, geometry)
            except EngineError:
                continue
        raise first from None


def _largest_connect(grid: str) -> int:
    """The largest connect-N a grid's board allows (so a 4x4 grid opens with a current connect of 5)."""
    rows = [line for line in grid.splitlines() if line.strip() and not line.strip().startswith("#")]
    cols = len([char for char in rows[0] if char not in " |\t"]) if rows else DEFAULT.connect
    return max(3, min(6, cols, len(rows)))
