"""Replaying move strings straight into bitboards, for solving many positions fast.

:meth:`engine.board.Board.from_moves` checks every move in plain Python and
explains what is wrong; that costs more than solving an end-game position.
:func:`replay` does the same replay in a kernel and only says *whether* the
result is a game still going on: for anything else (a bad string, a finished
game) the caller turns to :class:`~engine.board.Board`, which explains.

:func:`solve_replays` goes one step further for a whole list of positions:
one kernel call replays and solves them all, so that an end-game position
(a dozen nodes, a few microseconds) does not pay the ten or more microseconds
of a call from Python each.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engine.geometry import Geometry
from engine.kernels.bitops import bxor, is_zero
from engine.kernels.jit import NO_REFCOUNTS
from engine.kernels.rules import can_play, is_winning_move, play
from engine.kernels.stop import monotonic_ns
from engine.solver.arrays import SolveContext
from engine.solver.negamax import solve_kernel
from engine.stats import ABORTED, NODES


@njit(cache=True, nogil=True, inline="always")
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


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def _solve_replays(columns, starts, weak, g, ctx, out):
    """Replay and solve position ``i`` = ``columns[starts[i]:starts[i + 1]]`` for every ``i``.

    ``out[i]`` is ``(playing, score, nodes, nanoseconds)``: not playing (a bad string or a
    game that is over) means not solved.
    """
    stats = ctx.stats
    for i in range(len(starts) - 1):
        start, nodes = monotonic_ns(), stats[NODES]
        current, mask, playing = _replay(columns[starts[i] : starts[i + 1]], g)
        out[i, 0] = playing
        if playing:
            out[i, 1] = solve_kernel(current, mask, starts[i + 1] - starts[i], weak, g, ctx)
            if stats[ABORTED]:
                out[i, 0] = False
                return
        out[i, 2] = stats[NODES] - nodes
        out[i, 3] = monotonic_ns() - start


def solve_replays(texts: list[str], weak: bool, geometry: Geometry, ctx: SolveContext) -> np.ndarray:
    """Move strings solved in one kernel call (see the module): a row ``(playing, score, nodes,
    nanoseconds)`` each.

    ``ctx`` is the solver's kernel context. A position that is not ``playing`` needs a Board: a bad string or a game
    that is over.
    """
    starts = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(text) for text in texts], out=starts[1:])
    # (a character that is not ASCII becomes one "?", which no column is)
    raw = np.frombuffer("".join(texts).encode("ascii", "replace"), dtype=np.uint8).astype(np.int64) - ord("1")
    out = np.zeros((len(texts), 4), dtype=np.int64)
    _solve_replays(raw, starts, weak, geometry.kernel, ctx, out)
    return out
