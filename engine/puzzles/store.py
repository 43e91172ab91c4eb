"""A puzzle file: one JSON header line, then one puzzle a line, checked as a whole and line by line.

::

    {"format": "connect-four-puzzles", "version": 1, "seed": 46, "games": 400, "per_band": 60,
     "boards": ["7x6x4", ...], "count": 1500, "crc32": "89abcdef"}
    {"id": "7x6x4-1a2b3c", "cols": 7, "rows": 6, "connect": 4, "position": "4453...", ...}
    ...

``crc32`` is the CRC-32 of every byte after the header line, so a damaged
file is known as such; ``seed``, ``games``, ``per_band`` and ``boards`` are
what built it (``puzzles build`` with them makes the same file). Each puzzle
line goes through :func:`~engine.puzzles.puzzle.from_json`, ids must be
unique, and the file is read bounded (:data:`MAX_FILE_BYTES`). Anything
wrong is one :class:`~engine.puzzles.puzzle.PuzzleError` naming the file and
the line: the set is then not used (a command says so in one line; the game
shows the message), and nothing is written over it.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from engine.files import FileProblem, read_text_bounded, write_atomic
from engine.puzzles.puzzle import Puzzle, PuzzleError, from_json

FORMAT = "connect-four-puzzles"
VERSION = 1
#: The largest puzzle file read (the shipped one is well under a megabyte; the package allows it 2 MB).
MAX_FILE_BYTES = 4 * 2**20
#: The shipped set.
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "assets" / "puzzles.txt"


@dataclass(frozen=True)
class PuzzleSet:
    """The puzzles of a file and how they were built."""

    puzzles: tuple[Puzzle, ...]
    seed: int
    games: int
    per_band: int
    boards: tuple[str, ...]

    def by_id(self) -> dict[str, Puzzle]:
        return {puzzle.id: puzzle for puzzle in self.puzzles}


def dumps(puzzle_set: PuzzleSet) -> str:
    """The file's text (lines end with ``\\n``; keys in a fixed order, so a rebuild is byte for byte the same)."""
    body = "".join(json.dumps(p.to_json(), separators=(",", ":")) + "\n" for p in puzzle_set.puzzles)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "seed": puzzle_set.seed,
        "games": puzzle_set.games,
        "per_band": puzzle_set.per_band,
        "boards": list(puzzle_set.boards),
        "count": len(puzzle_set.puzzles),
        "crc32": f"{zlib.crc32(body.encode('utf-8')):08x}",
    }
    return json.dumps(header, separators=(",", ":")) + "\n" + body


def save(puzzle_set: PuzzleSet, path: Path | str) -> None:
    """Write the set in one step (a partial write never replaces a good file)."""
    write_atomic(path, dumps(puzzle_set))


def load(path: Path | str = DEFAULT_PATH) -> PuzzleSet:
    """The set in ``path``, every line checked; :class:`PuzzleError` (one line, naming the file) if not sound."""
    name = Path(path).name
    try:
        text = read_text_bounded(path, MAX_FILE_BYTES, "puzzle file")
    except FileNotFoundError:
        raise PuzzleError(f"no puzzle file {name}") from None
    except FileProblem as exc:
        raise PuzzleError(str(exc)) from None
    return loads(text, name)


def loads(text: str, name: str = "the puzzle file") -> PuzzleSet:
    first, newline, body = text.partition("\n")
    header = _json(first, name, 1)
    if not newline or not isinstance(header, dict) or header.get("format") != FORMAT:
        raise PuzzleError(f"{name} is not a puzzle file")
    if header.get("version") != VERSION:
        raise PuzzleError(f"{name}: puzzle file version {str(header.get('version'))[:20]} is not known")
    numbers: dict[str, int] = {}
    for key in ("seed", "games", "per_band", "count"):
        value = header.get(key)
        if type(value) is not int or value < 0:
            raise PuzzleError(f"{name} is damaged: its header's numbers are not whole numbers")
        numbers[key] = value
    boards = header.get("boards")
    if not isinstance(boards, list) or not all(isinstance(b, str) and len(b) <= 10 for b in boards):
        raise PuzzleError(f"{name} is damaged: its header's boards are not a list of names")
    if header.get("crc32") != f"{zlib.crc32(body.encode('utf-8')):08x}":
        raise PuzzleError(f"{name} is damaged: its checksum does not match its puzzles")
    lines = body.split("\n")
    if lines[-1] != "":
        raise PuzzleError(f"{name} is damaged: its last line is cut short")
    puzzles = []
    for number, line in enumerate(lines[:-1], start=2):
        try:
            puzzles.append(from_json(_json(line, name, number)))
        except PuzzleError as exc:
            raise PuzzleError(f"{name}, line {number}: {exc}") from None
    if len(puzzles) != numbers["count"]:
        raise PuzzleError(f"{name} is damaged: {len(puzzles)} puzzles where its header says {numbers['count']}")
    if len({p.id for p in puzzles}) != len(puzzles):
        raise PuzzleError(f"{name} is damaged: two puzzles share an id")
    return PuzzleSet(tuple(puzzles), numbers["seed"], numbers["games"], numbers["per_band"], tuple(boards))


def _json(line: str, name: str, number: int) -> object:
    if len(line) > 4096:
        raise PuzzleError(f"{name}, line {number}: too long for a puzzle")
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        raise PuzzleError(f"{name}, line {number}: not JSON") from None
