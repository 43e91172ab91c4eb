"""Positions from seed 004's text-grid files, and a move order that reaches them.

``--grid FILE`` (on ``move``, ``solve``, ``analyze``, ``play`` and ``main.py``)
reads a grid such as::

    - - - - - - -
    X X X - - O O

(rows top first; ``-`` empty, ``X`` the first player, ``O`` the second; the
seed's ``# --- #`` frame and ``|`` borders are allowed). A grid has no move
history, but every command also speaks move strings, so :func:`move_order`
finds one: an order in which the two sides drop exactly these stones,
alternating, without anyone completing a line before the last stone.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from engine.board import Board, Side
from engine.errors import PositionError
from engine.files import FileProblem, read_bounded
from engine.formats import format_moves, parse_grid
from engine.geometry import Geometry

#: Grid files larger than this are not read (a 9x9 grid with frame is well under 1 KB).
MAX_GRID_BYTES = 64 * 1024


def read_grid_file(path: str | Path, connect: int = 4) -> Board:
    """The position in the grid file ``path`` (:class:`PositionError` saying what is wrong)."""
    if not str(path).strip():
        raise PositionError("the grid file has no name: give --grid FILE")
    path = Path(path)
    try:  # one open, never waiting: a FIFO or a device swapped in for the file is refused, not read
        data = read_bounded(path, MAX_GRID_BYTES, "grid file")
    except FileNotFoundError:
        raise PositionError(f"cannot read the grid file {str(path)!r}: no such file") from None
    except FileProblem as exc:
        raise PositionError(f"cannot read the {exc}") from None
    text = data.decode("utf-8-sig", errors="replace")
    try:
        return parse_grid(text, connect)
    except PositionError as exc:
        raise PositionError(f"{path}: {exc}") from None


def grid_moves(path: str | Path, geometry: Geometry) -> str:
    """The move string of the grid file ``path``, which must be of ``geometry``'s size."""
    board = read_grid_file(path, geometry.connect)
    size = board.geometry
    if (size.cols, size.rows) != (geometry.cols, geometry.rows):
        raise PositionError(
            f"the grid {str(path)!r} is {size.cols}x{size.rows}, not {geometry.cols}x{geometry.rows}: "
            f"add --cols {size.cols} --rows {size.rows}"
        )
    return move_order(board)


def move_order(board: Board) -> str:
    """A move string that reaches ``board``'s stones from the empty board.

    Depth-first over the columns: the next stone of a column can be dropped
    when it belongs to the side to move; a branch ends when a line appears
    before the last stone. The state is just how many stones of each column
    are down, so dead ends are remembered and the search stays small.
    """
    if board.move_string is not None:
        return board.move_string
    geometry = board.geometry
    stacks = tuple(tuple(board.cell(col, row) for row in range(board.height(col))) for col in range(geometry.cols))
    total = sum(len(stack) for stack in stacks)
    order = _order(geometry, stacks, total)
    if order is None:
        raise PositionError("no order of moves reaches this grid without a line appearing early")
    return format_moves(order)


def _order(geometry: Geometry, stacks: tuple[tuple[Side | None, ...], ...], total: int) -> list[int] | None:
    @cache
    def search(heights: tuple[int, ...]) -> tuple[int, ...] | None:
        placed = sum(heights)
        if placed == total:
            return ()
        # Rebuild the position of ``heights`` (cheap: at most 81 stones).
        first = second = 0
        for col, height in enumerate(heights):
            for row in range(height):
                if stacks[col][row] is Side.FIRST:
                    first |= geometry.cell(col, row)
                else:
                    second |= geometry.cell(col, row)
        board = Board.from_stones(first, second, geometry)
        mover = Side.FIRST if placed % 2 == 0 else Side.SECOND
        for col in range(geometry.cols):
            if heights[col] < len(stacks[col]) and stacks[col][heights[col]] is mover:
                wins = board.is_winning_move(col)
                if wins and placed + 1 < total:
                    continue  # the game would end before the grid is complete
                rest = search((*heights[:col], heights[col] + 1, *heights[col + 1 :]))
                if rest is not None:
                    return (col, *rest)
        return None

    found = search((0,) * geometry.cols)
    return None if found is None else list(found)
