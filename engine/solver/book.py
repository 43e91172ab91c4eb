"""Opening books: exact scores and best moves of early positions, loaded at once.

The first moves of a game are the hardest to solve (seconds to minutes each),
so the perfect agent looks them up instead. A book maps a position to its
exact score and, where known, a best column (the centre-most of the equally
good ones). Mirror images share one entry: the key of a position is the
smaller of its key and its mirror's (a stored column is mirrored back on the
way out).

**File format** (``assets/book_7x6.bin``), all little-endian::

    C4BOOK 2 <cols> <rows> <connect> <count> <crc32>\\n     an ASCII header line
    <count> uint64 entries, sorted ascending

``crc32`` (8 hex digits) is the CRC-32 of the four numbers before it (as
written, spaces between) followed by the entry bytes, so a damaged file
is recognised as such. Version 1 files (the same without the checksum) are
refused: without a checksum a damaged entry reads as a wrong "exact" answer,
so such a book is built again (``python -m engine book``) rather than trusted.
:meth:`Book.save` writes version 2, in one step (:func:`engine.files.write_atomic`).

An entry packs, from the top bit down::

    key (the rest of the word) | leaf (1 bit) | column + 1 (4 bits) | score + 64 (7 bits)

``key`` is Pons's position key (``current + mask``, see
:meth:`engine.board.Board.key`), symmetric as above; it fits boards of up to
52 bits (7x6 takes 49). Because the key is on top, sorting the entries sorts
the keys and a lookup is one binary search (:func:`numpy.searchsorted`).
``column + 1`` is 0 when no best column is stored. ``leaf`` is for the
builder (:mod:`engine.solver.book_builder`): a cold solve answers this
position and every one two plies on quickly, so the book does not follow it
further. Nine bytes would
be plainer; eight keep a 100,000-position book under a megabyte.

**Checks on loading.** A book is data from a file, so everything is checked
before it is used: only a regular file of at most :data:`MAX_FILE_BYTES`, the
header's fields (short ASCII numbers, a supported board), the count and the
checksum, keys strictly ascending and decoding to a position of the board,
scores within the board's range, and a stored column that exists and is not
full in its position. Any problem is a :class:`BookError`; the solver and the
perfect agent then go on without a book (:func:`load_default` warns once), as
they do when the file of a board holds the book of another board or connect-N.
"""

from __future__ import annotations

import os
import sys
import tempfile
import zlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from engine import files
from engine.board import Board
from engine.errors import EngineError, GeometryError
from engine.files import STALE_SECONDS, TEMPORARY_SUFFIX, FileProblem, read_bounded, write_atomic
from engine.geometry import Geometry

MAGIC = "C4BOOK"
VERSION = 2
#: Versions :meth:`Book.load` reads (version 1 had no checksum: it is refused).
READABLE_VERSIONS = (2,)
#: The largest book file read (the shipped one is 129 KB; 8 MB is a million positions).
MAX_FILE_BYTES = 64 * 2**20
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


def stones_of(keys: np.ndarray, geometry: Geometry) -> np.ndarray:
    """The number of stones of each position of ``keys`` (Pons keys, ``uint64``), all at once."""
    # A column of h stones keys as a number of h + 1 bits (see board_of_key): stones = bits - 1.
    column = np.uint64((1 << geometry.height) - 1)
    stones = np.zeros(len(keys), dtype=np.int64)
    for col in range(geometry.cols):
        part = (keys >> np.uint64(col * geometry.height)) & column
        stones += np.floor(np.log2(part.astype(np.float64) + 1)).astype(np.int64)
    return stones


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
        """Read and check a book file (see the module docstring); :class:`BookError` if it is not sound."""
        path = Path(path)
        data = _read_file(path)
        line, newline, body = data.partition(b"\n")
        header = line.decode("ascii", "replace").split()
        if not newline or len(header) < 2 or header[0] != MAGIC:
            raise BookError(f"{path} is not an opening book")
        version = _field(header[1], path, "version")
        if version == 1:
            raise BookError(
                f"{path} is an opening book of format 1, which has no checksum: damage in it cannot be told "
                f"from data, so it is not used. Build it again with `python -m engine book` (format {VERSION})"
            )
        if version not in READABLE_VERSIONS:
            raise BookError(f"{path}: book format {header[1]} is not known (this program reads {READABLE_VERSIONS})")
        if len(header) != 7:
            raise BookError(f"{path} is damaged: its header has {len(header)} fields")
        cols, rows, connect, count = (_field(text, path, "header") for text in header[2:6])
        try:
            geometry = Geometry(cols, rows, connect)
            check_geometry(geometry)
        except GeometryError as exc:
            raise BookError(f"{path} is damaged: {exc}") from None
        if len(body) != count * 8:
            raise BookError(f"{path} is damaged: {len(body):,} bytes of entries where the header says {count:,}")
        if header[6].lower() != _checksum(header[2:6], body):
            raise BookError(f"{path} is damaged: its checksum does not match its entries")
        book = cls(geometry, np.frombuffer(body, dtype="<u8").astype(np.uint64))
        problem = book.problem()
        if problem is not None:
            raise BookError(f"{path} is damaged: {problem}")
        return book

    def save(self, path: Path | str) -> None:
        """Write the book (the current version) in one step; a partial write never replaces a good file.

        The temporary file has a unique name (two builders never share one),
        and what killed saves left beside the book is cleaned.
        """
        path = Path(path)
        g = self.geometry
        body = self.entries.astype("<u8").tobytes()
        fields = [str(value) for value in (g.cols, g.rows, g.connect, len(self.entries))]
        header = " ".join([MAGIC, str(VERSION), *fields, _checksum(fields, body)]) + "\n"
        write_atomic(path, header.encode("ascii") + body)
        remove_stale_temporaries(path)

    def problem(self) -> str | None:
        """What is wrong with the entries, or None: each check looks at all entries at once."""
        g, words = self.geometry, self.entries
        if len(words) == 0:
            return None
        keys = words >> np.uint64(DATA_BITS)
        if (np.diff(keys.astype(np.int64)) <= 0).any():  # keys are below 2**52, so int64 holds them
            return "its entries are not sorted by position"
        if (keys >> np.uint64(g.bits)).any():
            return "a position key is wider than the board"
        h, rows = g.height, g.rows
        column_field = ((words >> np.uint64(7)) & np.uint64(0xF)).astype(np.int64)  # column + 1, 0 for none
        if (column_field > g.cols).any():
            return f"a stored column is above {g.cols}"
        for col in range(g.cols):
            # Per column the key is (stones of the side to move) + 2^stones - 1: a full
            # column gives at least 2^rows - 1, and 2^height - 1 is no position at all.
            part = (keys >> np.uint64(col * h)) & np.uint64((1 << h) - 1)
            if (part == np.uint64((1 << h) - 1)).any():
                return f"a position key has more stones in column {col + 1} than the board has rows"
            full = part >= np.uint64((1 << rows) - 1)
            if (full & (column_field == col + 1)).any():  # the column is stored as seen from the key's side
                return f"a stored column {col + 1} is full in its position"
        scores = (words & np.uint64(0x7F)).astype(np.int64) - SCORE_BIAS
        limit = (g.cells + 1) // 2  # the fastest possible win (or loss)
        if (np.abs(scores) > limit).any():
            return f"a score is beyond the board's range -{limit}..{limit}"
        return None

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

    @cached_property
    def deepest_ply(self) -> int:
        """The most stones of a stored position (-1 for an empty book); scanned once, as the book never changes."""
        if len(self.entries) == 0:
            return -1
        return int(stones_of(self.entries >> np.uint64(DATA_BITS), self.geometry).max())

    def positions(self) -> list[tuple[Board, BookEntry]]:
        """Every position of the book (as the stored mirror image) with its entry."""
        out = []
        for word in self.entries.tolist():
            out.append((board_of_key(word >> DATA_BITS, self.geometry), unpack(word, self.geometry, False)))
        return out

    def score(self, board: Board) -> int | None:
        found = self.entry(board)
        return None if found is None else found.score

    def value(self, board: Board) -> int | None:
        """The exact score of ``board`` (a game not over) from the book: its entry, or the best of its
        children's where the book holds them all (one ply of look-ahead), else None.

        The book stores the positions where its player moves; a position where
        the other side moves is not stored, but every reply to it is (see
        :mod:`engine.solver.book_builder`), and a ply stored whole answers the
        ply before it the same way.
        """
        known = self.score(board)
        if known is not None or board.ply >= self.deepest_ply:
            return known
        best = None
        for col in board.legal_columns():
            if board.is_winning_move(col):
                return self.geometry.win_score(board.ply + 1)
            board.play(col)
            child = 0 if board.is_over else self.score(board)  # (over: a full board, a win was taken above)
            board.undo()
            if child is None:
                return None
            best = -child if best is None else max(best, -child)
        return best


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


def _read_file(path: Path) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES` (never a FIFO or a device)."""
    try:
        return read_bounded(path, MAX_FILE_BYTES, "opening book")
    except FileNotFoundError:
        raise BookError(f"cannot read the opening book {path}: no such file") from None
    except FileProblem as exc:
        raise BookError(f"{exc} ({path})") from None
    except OSError as exc:  # (read_bounded turns every other failure into a FileProblem)
        raise BookError(f"cannot read the opening book {path}: {exc.strerror or exc}") from None


def check_writable(path: Path) -> None:
    """Raise :class:`BookError` now if a book cannot be saved at ``path``: before hours of solving, not after.

    The folder is made if it is missing, and a file is made and removed
    there: under the book's own name when there is no book yet (so a name
    the file system refuses, e.g. over 255 bytes, is found out now).
    """
    try:
        if path.is_dir():
            raise BookError(f"{path} is a folder, not a book file")
        if path.exists() and not path.is_file():
            raise BookError(f"{path} is not a regular file: it cannot become a book")
        folder = path.parent
        folder.mkdir(parents=True, exist_ok=True)
        if path.exists():
            descriptor, probe = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=TEMPORARY_SUFFIX, dir=folder)
            os.close(descriptor)
            os.unlink(probe)
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            os.unlink(path)
    except OSError as exc:
        name = str(path) if len(str(path)) <= 160 else f"{str(path)[:80]}...{str(path)[-40:]}"
        raise BookError(f"cannot write the opening book {name}: {exc.strerror or exc}") from None


def remove_stale_temporaries(path: Path, older_than: float = STALE_SECONDS) -> int:
    """Remove the temporary files killed saves of the book ``path`` left beside it (also ``NAME.tmp``
    of the saves before :func:`engine.files.write_atomic`); returns how many."""
    return files.remove_stale_temporaries(path, older_than, legacy=path.with_name(path.name + ".tmp"))


def _checksum(fields: list[str], body: bytes) -> str:
    """CRC-32 of the header's board and count fields and of the entries, as 8 hex digits."""
    return f"{zlib.crc32(body, zlib.crc32(' '.join(fields).encode('ascii'))):08x}"


def _field(text: str, path: Path, what: str) -> int:
    """A header number: a few ASCII digits (a 5,000-digit count is damage, not a number)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 12):
        raise BookError(f"{path} is damaged: {text[:20]!r} in its {what} is not a number")
    return int(text)


_warned: set[str] = set()


def load_default(geometry: Geometry) -> Book | None:
    """The shipped book if there is one for ``geometry``, else None.

    A damaged book is not fatal: the solver answers without it (slower in the
    opening), and one warning per process says why.
    """
    path = book_path(geometry)
    if geometry.bits > MAX_KEY_BITS or not path.exists():
        return None
    try:
        book = Book.load(path)
        if book.geometry != geometry:  # e.g. a connect-5 book copied over the connect-4 one
            raise BookError(f"{path} is the book of {book.geometry}, not of {geometry}")
        return book
    except BookError as exc:
        if str(exc) not in _warned:
            _warned.add(str(exc))
            print(f"warning: {exc}; going on without the opening book", file=sys.stderr, flush=True)
        return None
