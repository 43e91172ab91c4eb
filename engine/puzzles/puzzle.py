"""A puzzle: a position, the one column that solves it, and how it was graded.

Two kinds, both proven by the solver (:mod:`engine.puzzles.finder`):

- ``win``: exactly one column wins. In a win in N the winner's later moves
  are unique too, against the defence the program plays (the slowest loss,
  centre-most on ties), so ``line`` (the solution, the defence, ... up to
  the winning stone) is the one way through.
- ``save``: no column wins and exactly one does not lose.

A puzzle made from a player's own mistake (:mod:`engine.puzzles.mistakes`)
may have more than one answer: ``solution`` then lists every column that
keeps the value the mistake gave away, and a win's ``line`` may be that
first move alone (find a winning move, not the whole win).

A puzzle's JSON object (one line of ``puzzles export --json`` and of the
shipped file) has ``id``, ``cols``, ``rows``, ``connect``, ``position`` (a
move string), ``kind``, ``solution`` (the 1-based columns that solve it:
exactly one in the shipped set), ``band`` (1 easiest to 5), ``motifs`` and ``line`` (1-based).
:func:`from_json` checks every field of such an object, which may come from
a file anyone could have edited: a puzzle that does not hold together is a
:class:`PuzzleError`, never a wrong "solution".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.board import Board
from engine.errors import EngineError, GeometryError
from engine.geometry import Geometry

KINDS = ("win", "save")
BANDS = (1, 2, 3, 4, 5)
#: The motifs a puzzle may be tagged with (``win-in-N`` for every N from 1), see :mod:`engine.puzzles.motifs`.
MOTIFS = ("forced-block", "double-threat", "odd-threat", "claimeven")
#: The longest line kept: a win in 21 on the largest board the puzzles use.
MAX_LINE = 41
#: The most characters of an id (``7x6x4-`` and a key of up to 16 hex digits, or ``mine-`` and the same).
MAX_ID = 40


class PuzzleError(EngineError):
    """A puzzle (or a puzzle file) that does not hold together."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle; columns are 0-based here (1-based in JSON)."""

    id: str
    geometry: Geometry
    position: str  # a move string (1-based digits)
    kind: str  # "win" or "save"
    solution: tuple[int, ...]  # the columns that solve it (one in the shipped set), ascending
    band: int  # 1 (easiest) to 5
    motifs: tuple[str, ...]
    line: tuple[int, ...]  # the solution, then (a win) the defence and the winner's moves to the win

    @property
    def board(self) -> Board:
        """The puzzle's position (a new board each time)."""
        return Board.from_moves(self.position, self.geometry)

    @property
    def winner_moves(self) -> int:
        """How many moves the solver must find: the win in N's N, 1 for a save."""
        return (len(self.line) + 1) // 2

    def to_json(self) -> dict[str, Any]:
        g = self.geometry
        return {
            "id": self.id,
            "cols": g.cols,
            "rows": g.rows,
            "connect": g.connect,
            "position": self.position,
            "kind": self.kind,
            "solution": [col + 1 for col in self.solution],
            "band": self.band,
            "motifs": list(self.motifs),
            "line": [col + 1 for col in self.line],
        }


def board_id(geometry: Geometry) -> str:
    """``7x6x4``: the board part of an id and the name people type (``--board``)."""
    return f"{geometry.cols}x{geometry.rows}x{geometry.connect}"


def puzzle_id(board: Board, prefix: str | None = None) -> str:
    """The id of the puzzle at ``board``: the board and the position's symmetric key, so a rebuild
    keeps each puzzle's id (and a player's progress with it) whatever order it finds them in."""
    return f"{prefix or board_id(board.geometry)}-{board.symmetric_key():x}"


def motif_known(name: object) -> bool:
    if not isinstance(name, str):
        return False
    if name.startswith("win-in-"):
        digits = name[len("win-in-") :]
        return digits.isascii() and digits.isdigit() and len(digits) <= 2 and int(digits) >= 1
    return name in MOTIFS


def from_json(data: object) -> Puzzle:
    """The puzzle of a JSON object, every field checked (see the module); :class:`PuzzleError` if not sound.

    What is checked is what a player or a program relies on: the position is
    legal and not over, the solution and every move of the line are legal
    where they are played, a win's line ends in a win and a save's is its one
    move. That the solution is *right* is the solver's to say
    (:func:`engine.puzzles.verify.check`).
    """
    if not isinstance(data, dict):
        raise PuzzleError("a puzzle is a JSON object")
    fields = ("id", "cols", "rows", "connect", "position", "kind", "solution", "band", "motifs", "line")
    missing = [name for name in fields if name not in data]
    if missing:
        raise PuzzleError(f"a puzzle lacks {', '.join(missing)}")
    ident, position, kind = data["id"], data["position"], data["kind"]
    if not isinstance(ident, str) or not 0 < len(ident) <= MAX_ID or not ident.isascii() or not ident.isprintable():
        raise PuzzleError("a puzzle's id must be up to 40 printable ASCII characters")
    numbers = [data[name] for name in ("cols", "rows", "connect", "band")]
    if any(type(value) is not int for value in numbers):
        raise PuzzleError(f"{ident}: cols, rows, connect and band must be whole numbers")
    try:
        geometry = Geometry(data["cols"], data["rows"], data["connect"])
    except GeometryError as exc:
        raise PuzzleError(f"{ident}: {exc}") from None
    if kind not in KINDS:
        raise PuzzleError(f"{ident}: kind must be one of {', '.join(KINDS)}")
    if data["band"] not in BANDS:
        raise PuzzleError(f"{ident}: band must be 1 to 5")
    motifs = data["motifs"]
    if not isinstance(motifs, list) or len(motifs) > 8 or not all(motif_known(name) for name in motifs):
        raise PuzzleError(f"{ident}: motifs must be a list of known motifs")
    if not isinstance(position, str) or len(position) > geometry.cells:
        raise PuzzleError(f"{ident}: position must be a move string")
    try:
        board = Board.from_moves(position, geometry)
    except EngineError as exc:
        raise PuzzleError(f"{ident}: position {position[:50]!r}: {exc}") from None
    if board.is_over:
        raise PuzzleError(f"{ident}: the game of position {position!r} is already over")
    solution, line = _columns(data["solution"], geometry, ident, "solution"), _columns(data["line"], geometry, ident)
    if not solution or solution != sorted(set(solution)):
        raise PuzzleError(f"{ident}: its solution must be one or more columns, ascending")
    if not line or line[0] not in solution or len(line) % 2 == 0 or (kind == "save" and len(line) != 1):
        raise PuzzleError(f"{ident}: its line must start with a solution (and be that move alone for a save)")
    if not all(board.is_legal(col) for col in solution):
        raise PuzzleError(f"{ident}: a column of its solution is full")
    _check_line(board, line, kind, ident)
    return Puzzle(ident, geometry, position, kind, tuple(solution), data["band"], tuple(motifs), tuple(line))


def _columns(value: object, geometry: Geometry, ident: str, what: str = "line") -> list[int]:
    """A JSON list of 1-based columns as 0-based ones."""
    if not isinstance(value, list) or len(value) > MAX_LINE:
        raise PuzzleError(f"{ident}: {what} must be a list of at most {MAX_LINE} columns")
    if not all(type(col) is int and 1 <= col <= geometry.cols for col in value):
        raise PuzzleError(f"{ident}: {what} holds something that is not a column from 1 to {geometry.cols}")
    return [col - 1 for col in value]


def _check_line(board: Board, line: list[int], kind: str, ident: str) -> None:
    """Every move of ``line`` is legal where it is played; a win's line of more than one move ends with
    the winner's line of four."""
    board = board.copy()
    for index, col in enumerate(line):
        if board.is_over or not board.is_legal(col):
            raise PuzzleError(f"{ident}: move {index + 1} of its line (column {col + 1}) cannot be played")
        board.play(col)
    if kind == "win" and len(line) > 1 and board.winner is None:
        raise PuzzleError(f"{ident}: its line does not end in a win")
