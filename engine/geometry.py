"""Board geometry: the size of the board, the connect-N rule and the bit layout.

Every position in the engine is a pair of bitboards in the layout of Pascal
Pons's solver. Each column takes ``rows + 1`` bits, bottom cell first; the
extra bit on top of each column is a *sentinel* that is never set. On the
default 7x6 board the bit indices are::

        col:  0  1  2  3  4  5  6
              6 13 20 27 34 41 48   <- sentinel row (always 0)
              5 12 19 26 33 40 47   <- top row
              4 11 18 25 32 39 46
              3 10 17 24 31 38 45
              2  9 16 23 30 37 44
              1  8 15 22 29 36 43
              0  7 14 21 28 35 42   <- bottom row

So cell (col, row) is bit ``col * height + row`` with ``height = rows + 1``.
Moving one step in a direction is a fixed shift: ``1`` up a column,
``height`` one column to the right, ``height + 1`` diagonally up-right and
``height - 1`` diagonally down-right. The sentinel row is what makes these
shifts safe: a run of stones can never wrap from the top of one column into the
bottom of the next, because the wrap always passes through a sentinel cell.

A board needs ``cols * (rows + 1)`` bits. Up to 64 bits (7x6, 7x7, 8x7, 9x6,
...) a position is a single ``uint64`` in the numba kernels. Larger boards (8x8,
9x9, ...) use a pair of ``uint64`` words ``(low, high)``; the kernels are written
once against :mod:`engine.kernels.bitops`, which works on both. In plain Python
a bitboard is simply an ``int`` of any width.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.errors import GeometryError
from engine.validate import shown, whole_number

if TYPE_CHECKING:
    import numpy as np

MIN_COLS, MAX_COLS = 4, 9
MIN_ROWS, MAX_ROWS = 4, 9
MIN_CONNECT, MAX_CONNECT = 3, 6

#: Bitboards wider than this many bits use the two-word kernel representation.
WORD_BITS = 64
#: A bitboard as the kernels take it: a numpy ``uint64``, or a ``(low, high)`` pair of them on wide boards.
KernelBits = Any


def centre_order(cols: int) -> tuple[int, ...]:
    """Every column from the centre outwards, left before right at the same distance: 3 2 4 1 5 0 6 on
    7 columns, 3 4 2 5 1 6 0 7 on 8 (whose centre lies between columns 3 and 4).

    The order alpha-beta and the solver try moves in, and the tie-break between equally good moves.
    (:func:`engine.solver.moves.centre_column` is its twin inside the kernels.)
    """
    return tuple(sorted(range(cols), key=lambda col: (abs(2 * col - (cols - 1)), col)))


class KernelGeometry(NamedTuple):
    """The geometry as the numba kernels receive it.

    ``one``, ``bottom``, ``full`` and ``follow_rows`` are bitboards in the kernel representation
    (a ``uint64``, or a ``(low, high)`` pair of them on wide boards); their
    type is what makes numba compile the narrow or the wide kernel.
    """

    cols: int
    rows: int
    height: int
    connect: int
    one: object
    bottom: object
    full: object
    follow_rows: object


@dataclass(frozen=True)
class Geometry:
    """Columns, rows and how many in a row win; validated on creation."""

    cols: int = 7
    rows: int = 6
    connect: int = 4

    def __post_init__(self) -> None:
        for name, value, low, high in (
            ("columns", self.cols, MIN_COLS, MAX_COLS),
            ("rows", self.rows, MIN_ROWS, MAX_ROWS),
            ("connect", self.connect, MIN_CONNECT, MAX_CONNECT),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise GeometryError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
        if self.connect > max(self.cols, self.rows):
            raise GeometryError(
                f"connect {self.connect} cannot fit on a {self.cols}x{self.rows} board "
                f"(it must be at most the longer side, {max(self.cols, self.rows)})"
            )

    def __str__(self) -> str:
        return f"{self.cols}x{self.rows} connect {self.connect}"

    @classmethod
    def parse(cls, text: str) -> Geometry:
        """A board as people write it: ``COLSxROWS`` (connect 4) or ``COLSxROWSxCONNECT``, e.g. ``9x5``.

        Raises :class:`~engine.errors.EngineError` with one clear line for anything else.
        """
        parts = text.strip().lower().split("x") if isinstance(text, str) else []
        if len(parts) not in (2, 3):
            raise GeometryError(f"a board is written COLSxROWS or COLSxROWSxCONNECT (9x5, 8x8x5), not {shown(text)}")
        names = ("columns", "rows", "connect")[: len(parts)]
        return cls(*(whole_number(part, name) for part, name in zip(parts, names, strict=True)))

    # -- derived sizes -------------------------------------------------------
    @property
    def height(self) -> int:
        """Bits per column: the rows plus the sentinel bit."""
        return self.rows + 1

    @property
    def cells(self) -> int:
        return self.cols * self.rows

    @property
    def bits(self) -> int:
        return self.cols * self.height

    @property
    def wide(self) -> bool:
        """True when a bitboard needs two 64-bit words in the kernels."""
        return self.bits > WORD_BITS

    # -- masks as Python ints -------------------------------------------------
    def bottom_cell(self, col: int) -> int:
        return 1 << (col * self.height)

    def top_cell(self, col: int) -> int:
        return 1 << (col * self.height + self.rows - 1)

    def column_mask(self, col: int) -> int:
        return ((1 << self.rows) - 1) << (col * self.height)

    def cell(self, col: int, row: int) -> int:
        return 1 << (col * self.height + row)

    @cached_property
    def bottom_mask(self) -> int:
        """One bit at the bottom of every column."""
        return sum(self.bottom_cell(c) for c in range(self.cols))

    @cached_property
    def board_mask(self) -> int:
        """Every playable cell (no sentinels)."""
        return self.bottom_mask * ((1 << self.rows) - 1)

    @cached_property
    def follow_rows_mask(self) -> int:
        """Every cell of the top row and of every second row below it (see engine.solver.claimeven)."""
        # Row indices rows - 1, rows - 3, ... of one column (1, 3, 5 on six rows; 0, 2, 4 on five).
        column = sum(1 << row for row in range(self.rows - 1, -1, -2))
        return self.bottom_mask * column

    def win_score(self, stone: int) -> int:
        """Pons's score of a win whose last stone is the ``stone``-th of the game.

        Quicker wins score more: ``(cells + 2 - stone) // 2`` (docs/cli.md).
        """
        return (self.cells + 2 - stone) // 2

    # -- the kernel representation ------------------------------------------
    def to_kernel(self, bits: int) -> KernelBits:
        """A Python-int bitboard as the kernels take it."""
        import numpy as np  # (only the compiled search needs numpy: see engine.solver.quick)

        if self.wide:
            return (np.uint64(bits & 0xFFFF_FFFF_FFFF_FFFF), np.uint64(bits >> 64))
        return np.uint64(bits)

    def from_kernel(self, bits: KernelBits) -> int:
        """The inverse of :meth:`to_kernel`."""
        if self.wide:
            low, high = bits
            return int(low) | (int(high) << 64)
        return int(bits)

    def empty_array(self, length: int) -> np.ndarray:
        """An array of ``length`` bitboards for the kernels (see ``bitops.load``)."""
        import numpy as np

        shape = (length, 2) if self.wide else (length,)
        return np.zeros(shape, dtype=np.uint64)

    @cached_property
    def kernel(self) -> KernelGeometry:
        return KernelGeometry(
            self.cols,
            self.rows,
            self.height,
            self.connect,
            self.to_kernel(1),
            self.to_kernel(self.bottom_mask),
            self.to_kernel(self.board_mask),
            self.to_kernel(self.follow_rows_mask),
        )


DEFAULT = Geometry()
