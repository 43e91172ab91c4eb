"""A deliberately naive Connect-N, written for the tests to check the engine against.

A list of columns, each a list of owners bottom up; a win is found by walking
every cell in every direction. Slow and obviously right.
"""

from __future__ import annotations


class ReferenceGame:
    def __init__(self, cols: int, rows: int, connect: int) -> None:
        self.cols, self.rows, self.connect = cols, rows, connect
        self.columns: list[list[int]] = [[] for _ in range(cols)]
        self.moves = 0
        self.winner: int | None = None  # 0 = first player, 1 = second

    def legal(self) -> list[int]:
        if self.winner is not None or self.moves == self.cols * self.rows:
            return []
        return [c for c in range(self.cols) if len(self.columns[c]) < self.rows]

    def owner(self, col: int, row: int) -> int | None:
        if 0 <= col < self.cols and 0 <= row < len(self.columns[col]):
            return self.columns[col][row]
        return None

    def play(self, col: int) -> None:
        player = self.moves % 2
        self.columns[col].append(player)
        self.moves += 1
        if self.has_line(player):
            self.winner = player

    def has_line(self, player: int) -> bool:
        for col in range(self.cols):
            for row in range(self.rows):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(self.owner(col + k * dc, row + k * dr) == player for k in range(self.connect)):
                        return True
        return False

    @property
    def draw(self) -> bool:
        return self.winner is None and self.moves == self.cols * self.rows
