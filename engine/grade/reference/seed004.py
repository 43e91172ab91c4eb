"""Seed 004's answers in seed 004's own form: the ``Connect_Four_State`` class.

The board is a ``NROWS x NCOLS`` numpy array of int8, **row 0 on top**, 0
empty, 1 and 2 the players, player 1 first. A state also keeps, as the seed
does: ``columns_height[c]``, the row of the next piece in column ``c`` (-1
once full); ``actions``, the columns that are not full (an int8 array);
``current_player``; ``winner`` (-1 while the game goes on, 0 a tie, 1 or 2);
``move_history``, the boards so far.

- ``move(ncol)`` returns a **new** state with the piece dropped, the winner
  updated and the turn passed; ``self`` is not changed; a column that is not
  in ``actions`` returns ``self``;
- ``generate_new_states()`` returns ``[self.move(c) for c in self.actions]``;
- ``count_lines(n, player, nrow, ncol)`` says whether ``player`` has ``n``
  pieces in a row on one of the four lines through ``(nrow, ncol)``: the row,
  the column, and both diagonals.

One change from the seed's code: a move that fills the board *and* makes a
line is a win, not a tie (the seed checks for a full board first).
"""

from __future__ import annotations

from copy import deepcopy

import numpy as np

NROWS = 6
NCOLS = 7


class Connect_Four_State:
    def __init__(self) -> None:
        self.board = np.zeros(shape=(NROWS, NCOLS), dtype=np.int8)
        self.columns_height = np.full(shape=NCOLS, fill_value=NROWS - 1, dtype=np.int8)
        self.actions = np.arange(NCOLS, dtype=np.int8)
        self.current_player = 1
        self.winner = -1
        self.move_history: tuple[np.ndarray, ...] = (self.board,)

    def next_player(self) -> int:
        return 3 - self.current_player

    def previous_player(self) -> int:
        return self.next_player()

    def is_over(self) -> bool:
        return self.winner != -1

    def inside_board(self, x: int, y: int) -> bool:
        return 0 <= x < NROWS and 0 <= y < NCOLS

    def move(self, ncol: int) -> Connect_Four_State:
        if ncol not in self.actions:
            return self
        new_state = deepcopy(self)
        nrow = int(new_state.columns_height[ncol])
        new_state.board[nrow, ncol] = new_state.current_player
        new_state.columns_height[ncol] -= 1
        if new_state.columns_height[ncol] < 0:
            new_state.actions = np.delete(new_state.actions, np.where(new_state.actions == ncol))
        new_state.update_winner(nrow, ncol)
        new_state.current_player = new_state.next_player()
        new_state.move_history = (*new_state.move_history, new_state.board)
        return new_state

    def generate_new_states(self) -> list[Connect_Four_State]:
        return [self.move(int(ncol)) for ncol in self.actions]

    def count_lines(self, n: int, player: int, nrow: int, ncol: int) -> bool:
        """Whether ``player`` has ``n`` in a row on the row, the column or a diagonal through (nrow, ncol)."""
        for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
            row, col = nrow, ncol
            while self.inside_board(row - dr, col - dc):  # back to the line's first cell on the board
                row, col = row - dr, col - dc
            counter = 0
            while self.inside_board(row, col):
                counter = counter + 1 if self.board[row, col] == player else 0
                if counter == n:
                    return True
                row, col = row + dr, col + dc
        return False

    def update_winner(self, nrow: int, ncol: int) -> None:
        if self.count_lines(4, self.current_player, nrow, ncol):
            self.winner = self.current_player
        elif self.actions.size == 0:
            self.winner = 0

    def __str__(self) -> str:
        symbols = {0: "-", 1: "X", 2: "O"}
        line = "# " + "-" * (2 * NCOLS - 1) + " #"
        rows = ["|" + " ".join(symbols[int(cell)] for cell in row) + "|" for row in self.board]
        return "\n".join([line, *rows, line])
