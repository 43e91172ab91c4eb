"""Replaying a move string straight into bitboards, for solving many positions fast.

:meth:`engine.board.Board.from_moves` checks every move in plain Python and
explains what is wrong; that costs more than solving an end-game position.
:func:`replay` does the same replay in a kernel and only says *whether* the
result is a game still going on: for anything else (a bad string, a finished
game) the caller turns to :class:`~engine.board.Board`, which explains.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engine.geometry import Geometry
from engine.kernels.bitops import bxor, is_zero
from engine.kernels.rules import can_play, is_winning_move, play


@njit(cache=True, nogil=True)
def _replay(columns, g):
    """``(current, mask, playing)``: the position after ``columns`` (0-based), and if all is well."""
    current = mask = bxor(g.bottom, g.bottom)  # an empty bitboard
    for i in range(len(columns)):
        col = columns[i]
        if col < 0 or col >= g.cols or not can_play(mask, g, col) or is_winning_move(current, mask, g, col):
            return current, mask, False
        current, mask = play(current, mask, g, col)
    return current, mask, not is_zero(bxor(mask, g.full))


def replay(text: str, geometry: Geometry) -> tuple[Any, Any, int] | None:
    """``(current, mask, ply)`` as kernels take them, or None if ``text`` needs a Board.

    None means a bad move string, or a game that is over.
    """
    raw = np.frombuffer(text.encode("ascii", "replace"), dtype=np.uint8).astype(np.int64) - ord("1")
    current, mask, playing = _replay(raw, geometry.kernel)
    if not playing:
        return None
    # numba hands uint64 back as Python ints: retype them for the next kernel.
    return geometry.to_kernel(geometry.from_kernel(current)), geometry.to_kernel(geometry.from_kernel(mask)), len(raw)
