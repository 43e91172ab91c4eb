"""A plain-Python player for any board: legal, quick and sensible moves where the engine's agents are not.

Kaggle's ConnectX allows boards the engine does not play (``columns=10``,
``rows=3``, ``inarow=7``), and an engine agent on a fresh install needs
seconds of compiling before its first move. In both cases the adapters play
with this: an alpha-beta search in plain Python (no numpy, no numba) over a
flat list of cells, deepened one ply at a time until its time is up. It
takes a win it sees, blocks a loss it sees and otherwise prefers the
centre; it is no match for the engine's agents, only a sound stand-in.

The board is a flat list, row-major, top row first, as Kaggle sends it:
``0`` empty, ``1`` the player to move, ``2`` the other.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence

#: The deepest search (plies); far more than a second of plain Python reaches.
MAX_DEPTH = 64
#: Positions between two looks at the clock.
CLOCK_EVERY = 256
#: Value of a win: above any centre score, minus the plies it takes (a quicker win is better).
WIN = 1_000_000

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (row step, column step): across, down, two diagonals


class _OutOfTime(Exception):
    """The search's deadline passed: the last finished depth answers."""


class PlainBoard:
    """Cells of any size with play, undo and a win test around the last stone."""

    def __init__(self, cells: Sequence[int], cols: int, rows: int, connect: int) -> None:
        self.cells = list(cells)
        self.cols, self.rows, self.connect = cols, rows, connect
        # The number of empty cells of each column: the next stone lands in row free[col] - 1.
        self.free = [sum(1 for row in range(rows) if self.cells[row * cols + col] == 0) for col in range(cols)]
        centre = (cols - 1) / 2
        #: Each column's share of the evaluation: the centre's columns are in more lines.
        self.weight = [int(cols - abs(col - centre) * 2) for col in range(cols)]

    def legal(self) -> list[int]:
        return [col for col in range(self.cols) if self.free[col] > 0]

    def wins(self, col: int, who: int) -> bool:
        """Would a stone of ``who`` in ``col`` complete a line of ``connect``?"""
        row = self.free[col] - 1
        cells, cols, rows, need = self.cells, self.cols, self.rows, self.connect - 1
        for dr, dc in _DIRECTIONS:
            count = 0
            for sign in (1, -1):  # both ways along the line from the new stone
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < rows and 0 <= c < cols and cells[r * cols + c] == who and count < need:
                    count += 1
                    r, c = r + sign * dr, c + sign * dc
            if count >= need:
                return True
        return False

    def play(self, col: int, who: int) -> None:
        self.free[col] -= 1
        self.cells[self.free[col] * self.cols + col] = who

    def undo(self, col: int) -> None:
        self.cells[self.free[col] * self.cols + col] = 0
        self.free[col] += 1

    def has_line(self, who: int) -> bool:
        """Is there a line of ``connect`` stones of ``who`` anywhere (a finished game)?"""
        cells, cols, rows, need = self.cells, self.cols, self.rows, self.connect
        for row in range(rows):
            for col in range(cols):
                if cells[row * cols + col] != who:
                    continue
                for dr, dc in _DIRECTIONS:
                    end_r, end_c = row + dr * (need - 1), col + dc * (need - 1)
                    if not (0 <= end_r < rows and 0 <= end_c < cols):
                        continue
                    if all(cells[(row + dr * k) * cols + col + dc * k] == who for k in range(need)):
                        return True
        return False


class PlainSearch:
    """Iterative deepening alpha-beta from the mover's view (1 moves, 2 replies); see the module."""

    def __init__(self, board: PlainBoard, deadline: float) -> None:
        self.board, self.deadline = board, deadline
        self.nodes = 0
        centre = (board.cols - 1) / 2
        self.order = sorted(range(board.cols), key=lambda col: (abs(col - centre), col))

    def best(self, allowed: Collection[int] | None = None) -> int:
        """The best column among ``allowed`` (default: every legal one) found before the deadline."""
        board = self.board
        moves = [col for col in self.order if board.free[col] > 0 and (allowed is None or col in allowed)]
        if not moves:
            raise ValueError("no column is both free and allowed")
        for col in moves:
            if board.wins(col, 1):
                return col
        best = moves[0]
        empty = sum(board.free)
        for depth in range(1, min(MAX_DEPTH, empty) + 1):
            try:
                best, value = self._root(moves, depth)
            except _OutOfTime:
                break
            if abs(value) >= WIN - MAX_DEPTH * 2:  # a win or loss proven: deeper shows nothing new
                break
        return best

    def _root(self, moves: list[int], depth: int) -> tuple[int, int]:
        alpha, best = -WIN * 2, moves[0]
        for col in moves:
            self.board.play(col, 1)
            try:
                value = -self._negamax(2, depth - 1, -WIN * 2, -alpha, 1)
            finally:
                self.board.undo(col)
            if value > alpha:
                alpha, best = value, col
        return best, alpha

    def _negamax(self, who: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        board = self.board
        moves = [col for col in self.order if board.free[col] > 0]
        if not moves:
            return 0  # a full board: a draw
        for col in moves:
            if board.wins(col, who):
                return WIN - ply - 1
        if depth <= 0:
            return self._evaluate(who)
        other = 3 - who
        for col in moves:
            board.play(col, who)
            try:
                value = -self._negamax(other, depth - 1, -beta, -alpha, ply + 1)
            finally:
                board.undo(col)
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break  # the other side will not allow this line
        return alpha

    def _evaluate(self, who: int) -> int:
        """Stones nearer the centre count more (they are in more lines), from ``who``'s view."""
        board, score = self.board, 0
        for index, value in enumerate(board.cells):
            if value:
                weight = board.weight[index % board.cols]
                score += weight if value == who else -weight
        return score


def plain_move(
    cells: Sequence[int],
    cols: int,
    rows: int,
    connect: int,
    *,
    seconds: float,
    allowed: Collection[int] | None = None,
) -> int:
    """The column the plain search picks for the player whose stones are 1 (see the module), within ``seconds``."""
    deadline = time.perf_counter() + max(0.0, seconds)
    return PlainSearch(PlainBoard(cells, cols, rows, connect), deadline).best(allowed)
