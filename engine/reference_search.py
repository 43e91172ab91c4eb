"""Alpha-beta in plain Python over the public :class:`~engine.board.Board` API.

The readable reference for :func:`engine.kernels.search.alphabeta`: the same
negamax with the same values and the same move order, without the
transposition table and without numba (only the evaluation function is the
kernel's). The tests check that both visit the same positions and find the same
values; ``bench search`` measures how much faster the kernel is.
"""

from __future__ import annotations

from engine.board import Board
from engine.geometry import centre_order
from engine.kernels.evaluation import evaluate_board
from engine.kernels.search import INF, WIN


class ReferenceSearch:
    """Depth-limited alpha-beta with an evaluation; counts the positions it visits."""

    def __init__(self, eval_name: str = "f4", order: str = "center") -> None:
        if order not in ("natural", "center"):
            raise ValueError(f"the reference search orders moves naturally or from the centre, not {order!r}")
        self.eval_name = eval_name
        self.order = order
        self.nodes = 0

    def _moves(self, board: Board) -> list[int]:
        legal = board.legal_columns()
        if self.order == "natural":
            return legal
        return [col for col in centre_order(board.geometry.cols) if col in legal]

    def value(self, board: Board, depth: int, alpha: int = -INF, beta: int = INF) -> int:
        """The negamax value of ``board`` (game not over) searched ``depth`` plies deep."""
        self.nodes += 1
        if board.is_full:
            return 0  # a draw
        if depth == 0:
            return evaluate_board(board, self.eval_name)
        moves = self._moves(board)
        for col in moves:
            if board.is_winning_move(col):
                return WIN - (board.ply + 1)  # the quicker the win, the higher its value
        best = -INF
        for col in moves:
            board.play(col)
            score = -self.value(board, depth - 1, -beta, -alpha)
            board.undo()
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break  # the opponent will not allow this position: skip the other moves
        return best

    def best_move(self, board: Board, depth: int) -> tuple[int, int]:
        """``(column, value)`` of the best move, searching ``depth`` plies (at least 1)."""
        self.nodes += 1
        best_col, alpha = -1, -INF
        for col in self._moves(board):
            if board.is_winning_move(col):
                score = WIN - (board.ply + 1)
            else:
                board.play(col)
                score = -self.value(board, depth - 1, -INF, -alpha)
                board.undo()
            if score > alpha:
                best_col, alpha = col, score
        return best_col, alpha
