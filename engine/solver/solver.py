"""The :class:`Solver`: exact scores of positions, for people and programs.

It owns a transposition table (kept between calls: its keys are exact, so
what it learnt about one position is sound for the next) and runs the
kernels of :mod:`engine.solver.negamax`. Every call may be limited by a node
budget, a time limit or a :class:`~engine.agents.base.StopFlag`; a search
that hits one reports ``finished=False`` and no score, never a guess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.agents.base import StopFlag
from engine.board import Board
from engine.geometry import Geometry
from engine.solver.negamax import ABORTED, LIMIT, NODES, new_order_buffer, new_stats, solve_kernel
from engine.solver.table import new_table, table_bits_for

#: Table size of a solver made without one: 64 MB (2^23 slots of 8 bytes on 7x6).
DEFAULT_TABLE_MB = 64


@dataclass(frozen=True)
class Solution:
    """The outcome of one solve.

    ``score`` is the exact score in Pons's convention (weak solves: its sign,
    1 / 0 / -1), or None when the search did not finish.
    """

    score: int | None
    nodes: int
    seconds: float

    @property
    def finished(self) -> bool:
        return self.score is not None


def game_over_score(board: Board) -> int:
    """The score of a finished game, from the view of the side that would move.

    The last stone (the ``ply``-th) won for the opponent, or filled the board.
    """
    if board.winner is None:
        return 0
    return -((board.geometry.cells + 2 - board.ply) // 2)


def win_now_score(board: Board) -> int:
    """The score of winning with the next stone."""
    return (board.geometry.cells + 1 - board.ply) // 2


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


class Solver:
    """Exact solving of positions of one geometry, with a reusable table."""

    def __init__(self, geometry: Geometry, table_mb: float = DEFAULT_TABLE_MB) -> None:
        self.geometry = geometry
        self.table_bits = table_bits_for(table_mb, geometry.wide)
        self.table = new_table(self.table_bits, geometry.wide)
        self._order = new_order_buffer(geometry.cols, geometry.cells)

    @property
    def table_bytes(self) -> int:
        return sum(array.nbytes for array in self.table)

    def reset(self) -> None:
        """Forget everything the table learnt."""
        for array in self.table:
            array.fill(0)

    def solve(
        self,
        board: Board,
        *,
        weak: bool = False,
        nodes: int = 0,
        seconds: float | None = None,
        stop: StopFlag | None = None,
    ) -> Solution:
        """Solve ``board`` within ``nodes`` (0: no limit) and ``seconds`` (None: no limit)."""
        self._check(board)
        start = time.perf_counter()
        if board.is_over:
            score = game_over_score(board)
            return Solution(sign(score) if weak else score, 0, 0.0)
        stats = new_stats(nodes)
        with (stop or StopFlag()).deadline(seconds) as flag:
            current, mask = board.kernel_state()
            score = solve_kernel(
                current, mask, board.ply, weak, self.geometry.kernel, self.table, self._order, stats, flag.array
            )
        elapsed = time.perf_counter() - start
        if stats[ABORTED]:
            return Solution(None, int(stats[NODES]), elapsed)
        return Solution(sign(score) if weak else int(score), int(stats[NODES]), elapsed)

    def _check(self, board: Board) -> None:
        if board.geometry != self.geometry:
            raise ValueError(f"this solver is for {self.geometry}, not {board.geometry}")


__all__ = ["LIMIT", "Solution", "Solver", "game_over_score", "sign", "win_now_score"]
