"""Cells and groups as the rules name them: ``d2`` is column 4, row 2 counted from the bottom.

Allis calls a line of ``connect`` cells a *group*; every group of the board is
one bitmask here (Python ints in the layout of :mod:`engine.geometry`), and
every cell one bit. A group is named by its two ends, ``d2-g2``, the cell
further left (or lower, in a column) first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.geometry import Geometry

#: Column letters, as in Allis's diagrams (a is the leftmost column).
LETTERS = "abcdefghi"


@dataclass(frozen=True)
class Cells:
    """Every group of a geometry, the groups through each cell, and the names people read."""

    geometry: Geometry
    groups: tuple[int, ...]
    #: cell bit -> the indices (into ``groups``) of the groups that hold it
    through: dict[int, tuple[int, ...]]
    columns: tuple[int, ...]

    def col_row(self, cell: int) -> tuple[int, int]:
        """``(column, row)`` of a one-bit cell, both from 0."""
        return divmod(cell.bit_length() - 1, self.geometry.height)

    def cell(self, col: int, row: int) -> int:
        return self.geometry.cell(col, row)

    def name(self, cell: int) -> str:
        """``d2``: the column's letter and the row from 1 at the bottom."""
        col, row = self.col_row(cell)
        return f"{LETTERS[col]}{row + 1}"

    def names(self, bits: int) -> list[str]:
        """The names of every cell of ``bits``, column by column, bottom first."""
        return [self.name(cell) for cell in bits_of(bits)]

    def group_name(self, group: int) -> str:
        """``d2-g2``: a group by its two ends."""
        ends = bits_of(group)
        first = min(ends, key=lambda cell: self.col_row(cell))
        last = max(ends, key=lambda cell: self.col_row(cell))
        return f"{self.name(first)}-{self.name(last)}"

    def above(self, cell: int) -> int:
        """The cell directly above ``cell`` (0 above the top row)."""
        up = cell << 1
        return up if up & self.geometry.board_mask else 0

    def below(self, cell: int) -> int:
        """The cell directly below ``cell`` (0 below the bottom row)."""
        return 0 if cell & self.geometry.bottom_mask else cell >> 1

    def playable(self, mask: int) -> int:
        """The cell each column would take next: adding a column's bottom bit carries up through its stones."""
        return (mask + self.geometry.bottom_mask) & self.geometry.board_mask

    def column_of(self, cell: int) -> int:
        return self.col_row(cell)[0]

    def completes(self, stones: int, cell: int) -> bool:
        """Do ``stones`` (which hold ``cell``) complete a group through ``cell``?"""
        groups = self.groups
        for index in self.through[cell]:
            group = groups[index]
            if group & stones == group:
                return True
        return False


def listed(names: list[str]) -> str:
    """``a, b and c``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def bits_of(bits: int) -> list[int]:
    """The one-bit cells of ``bits``, lowest bit first (column by column, bottom first)."""
    cells = []
    while bits:
        low = bits & -bits  # the lowest set bit
        cells.append(low)
        bits ^= low
    return cells


@cache
def cells_of(geometry: Geometry) -> Cells:
    """The groups of ``geometry`` (made once per geometry)."""
    g = geometry
    groups = []
    for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):  # up, right, up-right, down-right
        for col in range(g.cols):
            for row in range(g.rows):
                ends = (col + (g.connect - 1) * dc, row + (g.connect - 1) * dr)
                if 0 <= ends[0] < g.cols and 0 <= ends[1] < g.rows:
                    groups.append(sum(g.cell(col + k * dc, row + k * dr) for k in range(g.connect)))
    through: dict[int, list[int]] = {}
    for index, group in enumerate(groups):
        for cell in bits_of(group):
            through.setdefault(cell, []).append(index)
    columns = tuple(g.column_mask(col) for col in range(g.cols))
    return Cells(g, tuple(groups), {cell: tuple(found) for cell, found in through.items()}, columns)
