"""Opening books: exact scores and best moves of early positions, loaded at once.

The first moves of a game are the hardest to solve (seconds to minutes each),
so the perfect agent looks them up instead. A book maps a position to its
exact score and, where known, a best column (the centre-most of the equally
good ones). Mirror images share one entry: the key of a position is the
smaller of its key and its mirror's (a stored column is mirrored back on the
way out).

**File format** (``assets/book_7x6.bin``), all little-endian::

    C4BOOK 1 <cols> <rows> <connect> <count>\\n     an ASCII header line
    <count> uint64 entries, sorted ascending

An entry packs, from the top bit down::

    key (the rest of the word) | leaf (1 bit) | column + 1 (4 bits) | score + 64 (7 bits)

``key`` is Pons's position key (``current + mask``, see
:meth:`engine.board.Board.key`), symmetric as above; it fits boards of up to
52 bits (7x6 takes 49). Because the key is on top, sorting the entries sorts
the keys and a lookup is one binary search (:func:`numpy.searchsorted`).
``column + 1`` is 0 when no best column is stored. ``leaf`` is for the
builder (:mod:`engine.solver.book_builder`): the solver answers this
position quickly, so the book does not follow it further. Nine bytes would
be plainer; eight keep a 100,000-position book under a megabyte.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.board import Board
from engine.errors import EngineError
from engine.geometry import Geometry

MAGIC = "C4BOOK"
VERSION = 1
DATA_BITS = 12
SCORE_BIAS = 64
LEAF_BIT = 1 << 11
MAX_KEY_BITS = 64 - DATA_BITS

#: Where the shipped books live: ``book_7x6.bin`` for 7x6 connect 4, ``book_6x5_5.bin`` for connect 5.
ASSETS = Path(__file__).resolve().parents[2] / "assets"


def book_path(geometry: Geometry) -> Path:
    """The shipped book's file for ``geometry`` (it may not exist)."""
    suffix = "" if geometry.connect == 4 else f"_{geometry.connect}"
    return ASSETS / f"book_{geometry.cols}x{geometry.rows}{suffix}.bin"


#: The book shipped with the game, for the standard board.
DEFAULT_PATH = book_path(Geometry())


class BookError(EngineError):
    """An opening book file that cannot be read or does not fit the board."""


@dataclass(frozen=True)
class BookEntry:
    """What the book knows about one position, from the view of the side to move."""

    score: int
    column: int | None  # a best column, if stored
    leaf: bool


def mirror_bits(bits: int, geometry: Geometry) -> int:
    """A bitboard reflected left to right (columns swap, rows stay)."""
    h, column = geometry.height, (1 << geometry.height) - 1
    out = 0
    for col in range(geometry.cols):
        out |= ((bits >> (col * h)) & column) << ((geometry.cols - 1 - col) * h)
    return out


def book_key(board: Board) -> tuple[int, bool]:
    """The symmetric key of ``board`` and whether it is the mirror's key."""
    key = board.key()
    mirrored = mirror_bits(key, board.geometry)  # the key's column bits mirror as a whole
    return (mirrored, True) if mirrored < key else (key, False)


def board_of_key(key: int, geometry: Geometry) -> Board:
    """The position with this Pons key (the inverse of :meth:`Board.key`).

    In each column the key is ``stones of the side to move + (2^h - 1)``
    for a column of height ``h``: that lies in ``[2^h - 1, 2^(h+1) - 2]``,
    so ``h`` is the bit length of ``key + 1``, minus one.
    """
    h = geometry.height
    current = mask = 0
    for col in range(geometry.cols):
        part = (key >> (col * h)) & ((1 << h) - 1)
        filled = (1 << ((part + 1).bit_length() - 1)) - 1
        current |= (part - filled) << (col * h)
        mask |= filled << (col * h)
    other = current ^ mask
    first, second = (current, other) if mask.bit_count() % 2 == 0 else (other, current)
    return Board.from_stones(first, second, geometry)


def check_geometry(geometry: Geometry) -> None:
    if geometry.bits > MAX_KEY_BITS:
        raise BookError(f"opening books hold boards of up to {MAX_KEY_BITS} bits; {geometry} needs {geometry.bits}")


class Book:
    """A read-only opening book in memory: one sorted ``uint64`` array."""

    def __init__(self, geometry: Geometry, entries: np.ndarray) -> None:
        check_geometry(geometry)
        self.geometry = geometry
        self.entries = entries

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def load(cls, path: Path | str = DEFAULT_PATH) -> Book:
        path = Path(path)
        try:
            with path.open("rb") as file:
                header = file.readline().decode("ascii", "replace").split()
                entries = np.fromfile(file, dtype="<u8")
        except OSError as exc:
            raise BookError(f"cannot read the opening book {path}: {exc.strerror or exc}") from None
        if len(header) != 6 or header[0] != MAGIC or not all(field.isdigit() for field in header[1:]):
            raise BookError(f"{path} is not an opening book")
        if header[1] != str(VERSION):
            raise BookError(f"{path}: book format {header[1]} is not known (this is version {VERSION})")
        cols, rows, connect, count = (int(field) for field in header[2:])
        if len(entries) != count:
            raise BookError(f"{path} is damaged: {len(entries)} entries where the header says {count}")
        return cls(Geometry(cols, rows, connect), entries.astype(np.uint64))

    def save(self, path: Path | str) -> None:
        """Write the book; a partial write never replaces a good file."""
        path = Path(path)
        g = self.geometry
        temporary = path.with_name(path.name + ".tmp")
        with temporary.open("wb") as file:
            file.write(f"{MAGIC} {VERSION} {g.cols} {g.rows} {g.connect} {len(self.entries)}\n".encode("ascii"))
            self.entries.astype("<u8").tofile(file)
        temporary.replace(path)

    def entry(self, board: Board) -> BookEntry | None:
        """What the book holds for ``board``, or None."""
        if board.geometry != self.geometry:
            return None
        key, mirrored = book_key(board)
        target = np.uint64(key << DATA_BITS)
        index = int(np.searchsorted(self.entries, target))
        if index == len(self.entries):
            return None
        word = int(self.entries[index])
        if word >> DATA_BITS != key:
            return None
        return unpack(word, board.geometry, mirrored)

    def positions(self) -> list[tuple[Board, BookEntry]]:
        """Every position of the book (as the stored mirror image) with its entry."""
        out = []
        for word in self.entries.tolist():
            out.append((board_of_key(word >> DATA_BITS, self.geometry), unpack(word, self.geometry, False)))
        return out

    def score(self, board: Board) -> int | None:
        found = self.entry(board)
        return None if found is None else found.score


def pack(key: int, score: int, column: int | None, leaf: bool) -> int:
    """One entry for a symmetric ``key`` (``column`` as seen from that key's side)."""
    word = key << DATA_BITS | (score + SCORE_BIAS)
    if column is not None:
        word |= (column + 1) << 7
    return word | LEAF_BIT if leaf else word


def unpack(word: int, geometry: Geometry, mirrored: bool) -> BookEntry:
    column = ((word >> 7) & 0xF) - 1
    if column < 0:
        best = None
    else:
        best = geometry.cols - 1 - column if mirrored else column
    return BookEntry((word & 0x7F) - SCORE_BIAS, best, bool(word & LEAF_BIT))


def load_default(geometry: Geometry) -> Book | None:
    """The shipped book if there is one for ``geometry``, else None."""
    path = book_path(geometry)
    if geometry.bits > MAX_KEY_BITS or not path.exists():
        return None
    return Book.load(path)
