"""A match in progress, without any drawing: the board, the players and the rules of undo.

The match screen owns one :class:`MatchModel` and asks it who is to move,
plays moves into it and takes them back. Keeping this free of pygame makes
the turn logic easy to read and to test.
"""

from __future__ import annotations

from engine.agents.base import SearchResult
from engine.board import Side
from game.model import Colour
from game.players import MatchConfig, Player


class MatchModel:
    """The board of one game plus who plays which colour, and each move's statistics."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.start = config.start_board()
        self.board = self.start.copy()
        self._base = len(self.start.history)  # moves of the start position, which undo never takes back
        self.results: list[SearchResult | None] = []  # per move since the start; None for a person's move
        # Moves taken back, the next one to replay last; kept until a different move is played.
        self.redo_stack: list[tuple[int, SearchResult | None]] = []
        self.version = 0  # counts the changes of the move line, so views redo their work only after one
        self._winning: tuple[tuple[int, int] | None, list[tuple[int, int]]] = (None, [])
        for char in config.replay:  # a saved game: its moves are played, and can be taken back
            self.play(int(char) - 1)

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

    @property
    def played_moves(self) -> str:
        """The move string of the moves played since the start position."""
        return "".join(str(col + 1) for col in self.board.history[self._base :])

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
        """Play ``col`` for the side to move (raises IllegalMoveError).

        The moves taken back stay available to redo if this is the move that
        comes next among them; a different move forgets them.
        """
        self.board.play(col)
        self.results.append(result)
        self.version += 1
        if self.redo_stack and self.redo_stack[-1][0] == col:
            self.redo_stack.pop()
        else:
            self.redo_stack.clear()

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
        return [self._take_back() for _ in range(self.undo_count())]

    def redo_count(self) -> int:
        """How many moves a redo replays: up to the next time a person is to move (0: none)."""
        board = self.board.copy()
        for count, (col, _) in enumerate(reversed(self.redo_stack), start=1):
            board.play(col)
            if board.is_over or self.config.player(self.colour_of(board.turn)).is_human:
                return count
        return len(self.redo_stack)

    def redo(self) -> list[tuple[int, int, Colour]]:
        """Replay :meth:`redo_count` moves; returns the ``(col, row, colour)`` of each disc played."""
        return [self._replay() for _ in range(self.redo_count())]

    @property
    def line(self) -> list[int]:
        """Every move of the game from the start position on, the moves that can be redone included."""
        return [*self.board.history[self._base :], *(col for col, _ in reversed(self.redo_stack))]

    def go_to(self, moves: int) -> tuple[list[tuple[int, int]], list[tuple[int, int, Colour]]]:
        """Take back or replay single moves until ``moves`` moves of :attr:`line` are on the board.

        Returns the cells emptied and the discs played, for the animations.
        """
        moves = max(0, min(moves, len(self.line)))
        emptied = [self._take_back() for _ in range(self.moves_played - moves)]
        played = [self._replay() for _ in range(moves - self.moves_played)]
        return emptied, played

    def _take_back(self) -> tuple[int, int]:
        col = self.board.undo()
        self.redo_stack.append((col, self.results.pop()))
        self.version += 1
        return col, self.board.height(col)

    def _replay(self) -> tuple[int, int, Colour]:
        col, result = self.redo_stack[-1]
        colour, row = self.colour_to_move, self.board.height(col)
        self.play(col, result)
        return col, row, colour
