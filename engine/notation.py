"""Move strings: one 1-based column digit per move, ``"4453"`` = columns 4, 4, 5, 3.

This is how positions are written on the command line and in every file the
engine reads or writes; the empty string is the empty board. Only the ASCII
digits ``1``..``9`` are columns: ``str.isdigit`` would also accept ``'²'``,
``'٤'`` or ``'４'``, which nobody means as a move. Parsing checks the syntax
only; :meth:`engine.board.Board.from_moves` checks that the moves are legal.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import PositionError
from engine.geometry import DEFAULT, Geometry
from engine.validate import as_integer, column_digit, shown

#: Longest move string read: a game has at most 81 moves; a longer text is refused before it is scanned.
MAX_MOVES_CHARS = 1000


def parse_moves(text: str, geometry: Geometry = DEFAULT) -> list[int]:
    """0-based columns from a 1-based move string (syntax only, not legality)."""
    if not isinstance(text, str):
        raise PositionError(f"a move string must be text such as '4453', not {shown(text)}")
    text = text.strip()
    if len(text) > MAX_MOVES_CHARS:
        raise PositionError(f"a move string of {len(text):,} characters is longer than any game")
    columns = []
    for index, char in enumerate(text):
        try:
            columns.append(column_digit(char, geometry.cols))
        except ValueError:
            raise PositionError(
                f"move {index + 1} is {char!r}: expected a column digit from 1 to {geometry.cols}"
            ) from None
    return columns


def columns_of(moves: object, geometry: Geometry = DEFAULT) -> list[int]:
    """0-based columns from a move string or an iterable of 0-based column numbers."""
    if isinstance(moves, str):
        return parse_moves(moves, geometry)
    if isinstance(moves, (bytes, bytearray)) or not isinstance(moves, Iterable):
        raise PositionError(f"moves must be a move string or a list of columns, not {shown(moves)}")
    columns = []
    for index, item in enumerate(moves):
        if index >= geometry.cells:
            raise PositionError(f"more moves than the {geometry.cells} cells of a {geometry} board")
        try:
            columns.append(as_integer(item))
        except TypeError:
            raise PositionError(f"move {index + 1} is {shown(item)}: a column must be a whole number") from None
    return columns


def format_moves(columns: Iterable[int]) -> str:
    """The 1-based move string of 0-based columns."""
    return "".join(str(col + 1) for col in columns)
