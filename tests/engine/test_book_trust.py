"""Opening books are checked data: old unchecked books are refused, a book of another board is ignored,
``book --output`` fails before the work, and saves leave no temporary files behind."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

import engine.solver.book as book_module
from engine.board import Board
from engine.geometry import Geometry
from engine.solver.book import Book, BookError, book_key, load_default, pack

SMALL_BOOK = ["book", "--cols", "5", "--rows", "4", "--plies", "3", "--leaf-nodes", "0", "--quiet"]


def _one_error(status: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def _version_1(path) -> bytes:
    """A version-1 book (no checksum) whose one entry is wrong: column 1, a loss, for the empty 7x6 board."""
    data = b"C4BOOK 1 7 6 4 1\n" + np.array([pack(book_key(Board())[0], -5, 0, False)], dtype="<u8").tobytes()
    path.write_bytes(data)
    return data


def test_a_version_1_book_is_refused(tmp_path) -> None:
    path = tmp_path / "old.bin"
    _version_1(path)
    with pytest.raises(BookError, match="format 1, which has no checksum"):
        Book.load(path)


def test_the_book_command_refuses_to_extend_a_version_1_book_and_leaves_it(cli, tmp_path) -> None:
    path = tmp_path / "old.bin"
    data = _version_1(path)
    line = _one_error(*cli(["book", "--plies", "2", "--quiet", "--output", str(path)])[::2])
    assert "format 1" in line and "python -m engine book" in line
    assert path.read_bytes() == data


@pytest.mark.parametrize("geometry", [Geometry(7, 6, 5), Geometry(6, 7, 4)], ids=["connect 5", "6x7"])
def test_a_book_of_another_board_in_place_of_the_default_is_ignored(cli, tmp_path, monkeypatch, geometry) -> None:
    Book(geometry, np.zeros(0, dtype=np.uint64)).save(tmp_path / "book_7x6.bin")
    monkeypatch.setattr(book_module, "ASSETS", tmp_path)
    monkeypatch.setattr(book_module, "_warned", set())
    late = "217127227233267733735414"  # 24 stones: the solver answers at once
    status, out, err = cli(["move", "--agent", "perfect:seed=1", late])
    assert status == 0, err
    assert out.startswith(late + " ") and "score=" in out
    assert err.count("going on without the opening book") == 1 and str(geometry) in err
    status, out, _ = cli(["solve", late])
    assert status == 0 and out.split()[0] == late
    assert load_default(Geometry()) is None


def test_book_output_in_a_place_that_cannot_be_written_fails_before_the_work(cli, tmp_path) -> None:
    started = time.monotonic()
    line = _one_error(*cli([*SMALL_BOOK, "--output", "/proc/no-such-folder/book.bin"])[::2])
    assert "cannot write the opening book" in line and "/proc/no-such-folder/book.bin" in line
    assert time.monotonic() - started < 20
    (tmp_path / "a-file").write_text("x")
    line = _one_error(*cli([*SMALL_BOOK, "--output", str(tmp_path / "a-file" / "book.bin")])[::2])
    assert "cannot write the opening book" in line
    line = _one_error(*cli([*SMALL_BOOK, "--output", str(tmp_path)])[::2])
    assert "is a folder" in line


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_book_output_in_a_read_only_folder_fails_before_the_work(cli, tmp_path) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        line = _one_error(*cli([*SMALL_BOOK, "--output", str(folder / "book.bin")])[::2])
    finally:
        folder.chmod(0o700)
    assert "cannot write the opening book" in line and "Permission denied" in line


def test_book_output_with_a_name_over_255_bytes_fails_before_the_work(cli, tmp_path) -> None:
    line = _one_error(*cli([*SMALL_BOOK, "--output", str(tmp_path / ("b" * 300 + ".bin"))])[::2])
    assert "File name too long" in line
    assert os.listdir(tmp_path) == []


def test_a_book_the_command_does_not_write_over_is_a_file_of_the_users(cli, tmp_path) -> None:
    thesis = tmp_path / "thesis.txt"
    thesis.write_text("chapter one\n")
    line = _one_error(*cli([*SMALL_BOOK, "--output", str(thesis)])[::2])
    assert "not an opening book" in line and thesis.read_text() == "chapter one\n"


def test_saves_use_unique_temporaries_and_clean_what_killed_saves_left(cli, tmp_path) -> None:
    path = tmp_path / "small.bin"
    old = time.time() - 2 * 3600
    leftovers = [tmp_path / ".small.bin.k1ll3d00.tmp", tmp_path / "small.bin.tmp"]  # today's and the old naming
    under_way = tmp_path / ".small.bin.n0wn0w00.tmp"  # another build's save, right now
    users = [tmp_path / ".other.bin.abcdefgh.tmp", tmp_path / "notes.tmp"]
    for stale in [*leftovers, under_way, *users]:
        stale.write_bytes(b"half a book")
    for stale in [*leftovers, *users]:
        os.utime(stale, (old, old))
    status, _, err = cli([*SMALL_BOOK, "--output", str(path)])
    assert status == 0, err
    assert Book.load(path).geometry == Geometry(5, 4, 4)
    assert not any(stale.exists() for stale in leftovers)
    assert under_way.exists() and all(user.exists() for user in users)
    assert sorted(os.listdir(tmp_path)) == sorted(["small.bin", under_way.name, *(user.name for user in users)])
