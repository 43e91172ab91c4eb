"""A match in progress, without any drawing: the board, the players and the rules of undo.

The match screen owns one :class:`MatchModel` and asks it who is to move,
plays moves into it and takes them back. Keeping this free of pygame makes
the turn logic easy to read and to test.
"""

from __future__ import annotations

from engine.agents.base import SearchResult
from engine.board import Board, Side
from game.players import MatchConfig, Player
from game.settings import Colour


class MatchModel:
    """The board of one game plus who plays which colour, and each move's statistics."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.start = Board.from_moves(config.start_moves, config.geometry)
        self.board = self.start.copy()
        self._base = len(self.start.history)  # moves of the start position, which undo never takes back
        self.results: list[SearchResult | None] = []  # per move since the start; None for a person's move
        self._winning: tuple[tuple[int, int] | None, list[tuple[int, int]]] = (None, [])

    # -- who is who ------------------------------------------------------------------
    def colour_of(self, side: Side) -> Colour:
        """The colour of a side: the first player (X) has the colour that starts."""
        return self.config.first if side is Side.FIRST else self.config.first.other

    @property
    def colour_to_move(self) -> Colour:
        return self.colour_of(self.board.turn)

    @property
    def player_to_move(self) -> Player:
        return self.config.player(self.colour_to_move)

    @property
    def human_to_move(self) -> bool:
        return not self.board.is_over and self.player_to_move.is_human

    @property
    def winner(self) -> Colour | None:
        return None if self.board.winner is None else self.colour_of(self.board.winner)

    def winning_cells(self) -> list[tuple[int, int]]:
        """The cells of the winning line(s), worked out once per position (drawn every frame)."""
        key = (self.board.ply, self.board.key())
        if self._winning[0] != key:
            self._winning = (key, self.board.winning_cells())
        return self._winning[1]

    def owner(self, col: int, row: int) -> Colour | None:
        side = self.board.cell(col, row)
        return None if side is None else self.colour_of(side)

    @property
    def last_move(self) -> tuple[int, int] | None:
        """The ``(col, row)`` of the last disc played in this game."""
        if not self.moves_played:
            return None
        col = self.board.history[-1]
        return col, self.board.height(col) - 1

    @property
    def moves_played(self) -> int:
        """Moves played since the start position."""
        return len(self.board.history) - self._base

    def mover(self, index: int) -> Colour:
        """The colour that played the ``index``-th move since the start position."""
        return self.colour_of(Side((self.start.ply + index) % 2))

    def last_result(self, colour: Colour) -> SearchResult | None:
        """The statistics of ``colour``'s latest computer move, if any."""
        for index in range(len(self.results) - 1, -1, -1):
            if self.mover(index) is colour:
                return self.results[index]
        return None

    # -- moves --------------------------------------------------------------------------
    def play(self, col: int, result: SearchResult | None = None) -> None:
        """Play ``col`` for the side to move (raises IllegalMoveError)."""
        self.board.play(col)
        self.results.append(result)

    def undo_count(self) -> int:
        """How many moves an undo takes back: back to before the latest move of a person (0: none).

        Against the computer that is the computer's reply plus your move, so it
        is your turn again; in a two-player game, one move.
        """
        for index in range(self.moves_played - 1, -1, -1):
            if self.config.player(self.mover(index)).is_human:
                return self.moves_played - index
        return 0

    def undo(self) -> list[tuple[int, int]]:
        """Take back :meth:`undo_count` moves; returns the ``(col, row)`` cells emptied."""
        emptied = []
        for _ in range(self.undo_count()):
            col = self.board.undo()
            self.results.pop()
            emptied.append((col, self.board.height(col)))
        return emptied
