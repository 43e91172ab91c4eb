"""The :class:`Board`: a Connect-N position with its rules, history and undo.

This is the engine's public position type, used by the GUI, the command line,
the formats and the tests. It keeps the two bitboards of
:mod:`engine.geometry` as Python ints (so every board size works the same
way) and hands them to the numba kernels with :meth:`Board.kernel_state`.
Columns are 0-based here; move strings (:mod:`engine.formats`) are 1-based.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from engine.errors import IllegalMoveError, PositionError
from engine.geometry import DEFAULT, Geometry, KernelBits
from engine.notation import columns_of, format_moves
from engine.validate import as_integer, is_column_value, shown


class Side(IntEnum):
    """The two players, by the order in which they move."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def symbol(self) -> str:
        """``X`` for the first player, ``O`` for the second (the seeds' letters)."""
        return "XO"[self]


def has_line(bits: int, geometry: Geometry) -> bool:
    """Do ``bits`` hold ``connect`` stones in a row? (The plain-Python twin of
    :func:`engine.kernels.rules.has_alignment`, on Python-int bitboards.)"""
    h = geometry.height
    for step in (1, h - 1, h, h + 1):  # up, down-right, right, up-right
        run = bits
        for k in range(1, geometry.connect):
            run &= bits >> (k * step)
        if run:
            return True
    return False


class Board:
    """A position, the moves that led to it and whether the game is over.

    ``Board()`` is the empty 7x6 board; ``Board.from_moves("4453")`` replays a
    move string. A board made from a grid or an array (see
    :mod:`engine.formats`) has no known move order before it: its
    :attr:`history` starts there, and :attr:`move_string` is ``None``.
    """

    def __init__(self, geometry: Geometry = DEFAULT) -> None:
        self.geometry = geometry
        self._mask = 0  # every stone
        self._current = 0  # stones of the side to move
        self._history: list[int] = []
        self._root_ply = 0
        self._root_known = True  # False when the board was built from a grid
        self._winner: Side | None = None

    # -- construction --------------------------------------------------------
    @classmethod
    def from_moves(cls, moves: str | Iterable[int], geometry: Geometry = DEFAULT) -> Board:
        """Replay a 1-based move string, or an iterable of 0-based columns."""
        board = cls(geometry)
        columns = columns_of(moves, geometry)
        for index, col in enumerate(columns):
            try:
                board.play(col)
            except IllegalMoveError as exc:
                raise PositionError(f"move {index + 1} (column {col + 1}): {exc}") from None
        return board

    @classmethod
    def from_stones(cls, first: int, second: int, geometry: Geometry = DEFAULT) -> Board:
        """A board from the stones of each side, checked for being reachable.

        Rejected: stones outside the board, stones of both sides on one cell,
        floating stones, impossible stone counts, two winners, and a won
        position that no single last move could have produced.
        """
        board_mask = geometry.board_mask
        if (first | second) & ~board_mask:
            raise PositionError("stones outside the board")
        if first & second:
            raise PositionError("a cell holds stones of both players")
        mask = first | second
        for col in range(geometry.cols):
            column = (mask >> (col * geometry.height)) & ((1 << geometry.rows) - 1)
            if column & (column + 1):  # the stones of a column must be a run of ones from the bottom
                hole = (column + 1) & ~column  # the lowest empty cell of the column
                raise PositionError(
                    f"column {col + 1}: a disc floats above the empty cell in row {hole.bit_length()} "
                    "(rows count from the bottom)"
                )
        n_first, n_second = first.bit_count(), second.bit_count()
        if n_first not in (n_second, n_second + 1):
            raise PositionError(
                f"impossible disc counts: {n_first} X and {n_second} O "
                "(X moves first, so X has as many discs as O or one more)"
            )
        first_won, second_won = has_line(first, geometry), has_line(second, geometry)
        if first_won and second_won:
            raise PositionError("both players have a line: a game stops at the first one")
        board = cls(geometry)
        board._mask = mask
        to_move = Side.FIRST if n_first == n_second else Side.SECOND
        board._current = first if to_move is Side.FIRST else second
        board._root_ply = n_first + n_second
        board._root_known = board._root_ply == 0
        if first_won or second_won:
            winner = Side.FIRST if first_won else Side.SECOND
            if winner is to_move:
                raise PositionError(
                    f"{winner.symbol} has a line but it is {winner.symbol}'s turn: "
                    f"the last move must have been the winner's"
                )
            if not board._could_be_last_move(first if first_won else second):
                raise PositionError(f"{winner.symbol} has lines that no single last move could complete")
            board._winner = winner
        return board

    def _could_be_last_move(self, winner_bits: int) -> bool:
        """Is there a top stone of the winner whose removal leaves no line?"""
        g = self.geometry
        for col in range(g.cols):
            top = self._top_stone(col)
            if top and top & winner_bits and not has_line(winner_bits & ~top, g):
                return True
        return False

    def _top_stone(self, col: int) -> int:
        column = self._mask & self.geometry.column_mask(col)
        return 1 << (column.bit_length() - 1) if column else 0

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        return other

    def root(self) -> Board:
        """The position :attr:`history` starts from: the empty board, or the grid the game began at."""
        root = self.copy()
        while root._history:
            root.undo()
        return root

    # -- state -------------------------------------------------------------------
    @property
    def mask(self) -> int:
        """Bitboard of every stone."""
        return self._mask

    @property
    def current(self) -> int:
        """Bitboard of the stones of the side to move."""
        return self._current

    def stones(self, side: Side) -> int:
        """Bitboard of one side's stones."""
        return self._current if side is self.turn else self._current ^ self._mask

    @property
    def ply(self) -> int:
        """Stones on the board."""
        return self._root_ply + len(self._history)

    @property
    def turn(self) -> Side:
        """The side to move (after a win: the side that would have moved)."""
        return Side(self.ply % 2)

    @property
    def history(self) -> tuple[int, ...]:
        """0-based columns played since the board's root position."""
        return tuple(self._history)

    @property
    def move_string(self) -> str | None:
        """The 1-based move string of the game, or None if its start is unknown."""
        return format_moves(self._history) if self._root_known else None

    @property
    def winner(self) -> Side | None:
        return self._winner

    @property
    def is_full(self) -> bool:
        return self._mask == self.geometry.board_mask

    @property
    def is_draw(self) -> bool:
        return self._winner is None and self.is_full

    @property
    def is_over(self) -> bool:
        return self._winner is not None or self.is_full

    def height(self, col: int) -> int:
        """How many stones column ``col`` holds."""
        return ((self._mask >> (col * self.geometry.height)) & ((1 << self.geometry.rows) - 1)).bit_count()

    def cell(self, col: int, row: int) -> Side | None:
        """Who owns cell ``(col, row)``; row 0 is the bottom."""
        bit = self.geometry.cell(col, row)
        if not self._mask & bit:
            return None
        return self.turn if self._current & bit else self.turn.other

    # -- moves -------------------------------------------------------------------
    def legality(self, col: object) -> str | None:
        """Why ``col`` cannot be played now, or None if it can."""
        if self._winner is not None:
            return f"the game is over: {self._winner.symbol} has won"
        if self.is_full:
            return "the game is over: the board is full"
        if not is_column_value(col):
            return f"a column must be a whole number, not {shown(col)}"
        column = as_integer(col)  # a plain int: a numpy integer would overflow in the shifts below
        if not 0 <= column < self.geometry.cols:
            return f"there is no column {column + 1} (columns are 1 to {self.geometry.cols})"
        if self._mask & self.geometry.top_cell(column):
            return f"column {column + 1} is full"
        return None

    def is_legal(self, col: object) -> bool:
        return self.legality(col) is None

    def legal_columns(self) -> list[int]:
        if self.is_over:
            return []
        return [c for c in range(self.geometry.cols) if not self._mask & self.geometry.top_cell(c)]

    def _landing(self, col: int) -> int:
        # Adding the column's bottom bit carries up through its stones and
        # lands on the first empty cell; the column mask drops anything else.
        return (self._mask + self.geometry.bottom_cell(col)) & self.geometry.column_mask(col)

    def is_winning_move(self, col: int) -> bool:
        """Would playing ``col`` (legal) complete a line for the side to move?"""
        return has_line(self._current | self._landing(col), self.geometry)

    def play(self, col: int) -> None:
        """Drop a stone for the side to move; raises :class:`IllegalMoveError`."""
        reason = self.legality(col)
        if reason:
            raise IllegalMoveError(reason)
        col = int(col)  # numpy integers are welcome, but the history and the shifts use Python ints
        mover = self.turn
        mine = self._current | self._landing(col)
        self._mask |= self._landing(col)
        self._current = mine ^ self._mask  # the opponent's stones: they move next
        self._history.append(col)
        if has_line(mine, self.geometry):
            self._winner = mover

    def undo(self) -> int:
        """Take back the last move and return its column."""
        if not self._history:
            raise IllegalMoveError("there is no move to undo")
        col = self._history.pop()
        top = self._top_stone(col)
        mover_stones = (self._current ^ self._mask) & ~top
        self._mask &= ~top
        self._current = mover_stones
        self._winner = None
        return col

    # -- keys -----------------------------------------------------------------------
    def key(self) -> int:
        """A unique number for the position (Pons: ``current + mask``).

        Adding ``mask`` to ``current`` sets, in each column, the bit just above
        the top stone, so the sum encodes both the heights and the owners.
        """
        return self._current + self._mask

    def mirrored(self) -> Board:
        """The position reflected left to right (no history)."""
        g = self.geometry
        first = second = 0
        for col in range(g.cols):
            shift_from, shift_to = col * g.height, (g.cols - 1 - col) * g.height
            column = (1 << g.rows) - 1
            first |= ((self.stones(Side.FIRST) >> shift_from) & column) << shift_to
            second |= ((self.stones(Side.SECOND) >> shift_from) & column) << shift_to
        return Board.from_stones(first, second, g)

    def symmetric_key(self) -> int:
        """The same number for a position and its mirror image."""
        return min(self.key(), self.mirrored().key())

    def kernel_state(self) -> tuple[KernelBits, KernelBits]:
        """``(current, mask)`` as the numba kernels take them."""
        return self.geometry.to_kernel(self._current), self.geometry.to_kernel(self._mask)

    # -- the winning line ----------------------------------------------------------
    def winning_cells(self) -> list[tuple[int, int]]:
        """The ``(col, row)`` cells of every completed line of the winner."""
        if self._winner is None:
            return []
        g = self.geometry
        bits = self.stones(self._winner)
        cells: set[tuple[int, int]] = set()
        for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for col in range(g.cols):
                for row in range(g.rows):
                    line = [(col + k * dc, row + k * dr) for k in range(g.connect)]
                    if all(0 <= c < g.cols and 0 <= r < g.rows and bits & g.cell(c, r) for c, r in line):
                        cells.update(line)
        return sorted(cells)

    # -- dunder ----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.geometry, self._mask, self._current) == (other.geometry, other._mask, other._current)

    #: A board changes with every move, so it is no dictionary key or set member: a position's
    #: number is :meth:`key` (with the geometry, where boards of several sizes meet).
    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        """The board with column numbers, as the terminal game prints it; the last stone in lower case."""
        g = self.geometry
        last = (self.history[-1], self.height(self.history[-1]) - 1) if self.history else None
        lines = [" " + " ".join(str(col + 1) for col in range(g.cols))]
        for row in reversed(range(g.rows)):
            cells = []
            for col in range(g.cols):
                side = self.cell(col, row)
                symbol = "." if side is None else side.symbol
                cells.append(symbol.lower() if (col, row) == last else symbol)
            lines.append("|" + " ".join(cells) + "|")
        lines.append("+" + "-" * (2 * g.cols - 1) + "+")
        return "\n".join(lines)

    def __repr__(self) -> str:
        where = repr(self.move_string) if self.move_string is not None else f"<{self.ply} stones>"
        return f"Board({where}, {self.geometry})"
