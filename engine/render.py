"""The board as text for people: the terminal game's picture and the grid's cell letters."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the Board imports this module for its __str__
    from engine.board import Board, Side


def cell_symbol(side: Side | None, empty: str) -> str:
    """``X`` or ``O`` for a side's stone, ``empty`` for an empty cell."""
    return empty if side is None else side.symbol


def render(board: Board, last_move: bool = True) -> str:
    """The board with column numbers, as the terminal game prints it.

    The last stone played is shown in lower case when ``last_move`` is set.
    """
    g = board.geometry
    marked = None
    if last_move and board.history:
        col = board.history[-1]
        marked = (col, board.height(col) - 1)
    numbers = " " + " ".join(str(c + 1) for c in range(g.cols))
    lines = [numbers]
    for row in reversed(range(g.rows)):
        cells = []
        for col in range(g.cols):
            symbol = cell_symbol(board.cell(col, row), ".")
            cells.append(symbol.lower() if (col, row) == marked else symbol)
        lines.append("|" + " ".join(cells) + "|")
    lines.append("+" + "-" * (2 * g.cols - 1) + "+")
    return "\n".join(lines)
