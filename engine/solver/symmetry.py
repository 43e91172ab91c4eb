"""Mirror images: a position and its left-right reflection have the same score.

Near the root many positions have their mirror image in the same search
(after 4 and 3, the mirror of 4 and 5), and sharing one table entry between
them saves a whole subtree. The table therefore stores early positions
under the smaller key of the two images (:func:`smaller_image`); a remembered
best column is mirrored back on the way out. Deeper down mirror images
rarely meet, and the search skips the extra work.
"""

from __future__ import annotations

from numba import njit, types
from numba.extending import overload

from engine.kernels.bitops import add, band, bor, bxor, shl, shr
from engine.kernels.rules import column_cells

#: Positions with fewer stones than this are stored as the smaller mirror image.
SYMMETRY_PLIES = 14


def key_less(a, b) -> bool:
    """``a < b`` for two bitboards."""
    return a < b


@overload(key_less, inline="always")
def _key_less(a, b):
    if not isinstance(a, types.UniTuple):
        return lambda a, b: a < b

    def wide(a, b):
        # Compare the high words first, the low words on a tie.
        if a[1] != b[1]:
            return a[1] < b[1]
        return a[0] < b[0]

    return wide


@njit(cache=True, nogil=True, inline="always")
def mirror(bits, g):
    """``bits`` reflected left to right: column ``c`` moves to ``cols - 1 - c``."""
    first_column = column_cells(g, 0)
    out = bxor(bits, bits)  # an empty bitboard
    for col in range(g.cols):
        # Bring column col down to column 0, keep it, and send it to its mirror place.
        part = band(shr(bits, col * g.height), first_column)
        out = bor(out, shl(part, (g.cols - 1 - col) * g.height))
    return out


@njit(cache=True, nogil=True, inline="always")
def _key(current, mask):
    """Pons's key ``current + mask`` (its own function: inlining the wide addition
    twice into one comparison trips an internal check of numba)."""
    return add(current, mask)


@njit(cache=True, nogil=True)
def mirror_cell(cell, col, g):
    """A single cell of column ``col`` moved to the same row of the mirrored column."""
    shift = (g.cols - 1 - 2 * col) * g.height
    return shl(cell, shift) if shift >= 0 else shr(cell, -shift)


@njit(cache=True, nogil=True, inline="always")
def smaller_image(current, mask, mirror_current, mirror_mask):
    """``(current, mask, mirrored)``: of a position and its mirror image, the one with the smaller key."""
    if key_less(_key(mirror_current, mirror_mask), _key(current, mask)):
        return mirror_current, mirror_mask, True
    return current, mask, False
