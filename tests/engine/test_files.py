"""The one reader and the one writer of other people's files: bounded, never blocking, atomic."""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import pytest

from engine.files import FileProblem, read_bounded, read_text_bounded, remove_stale_temporaries, write_atomic

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, devices and permissions")


def test_a_regular_file_within_the_limit_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf{}")  # with Notepad's byte-order mark
    assert read_bounded(path, 5) == b"\xef\xbb\xbf{}"
    assert read_text_bounded(path, 5) == "{}"


def test_a_file_over_the_limit_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b"x" * 101)
    with pytest.raises(FileProblem, match=r"huge\.json: 101 bytes"):
        read_bounded(path, 100, "saved game")


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "link to /dev/zero"])
def test_anything_but_a_regular_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "odd"
    if kind == "fifo":
        os.mkfifo(path)  # no writer: a blocking open would wait for ever
    elif kind == "device":
        path = Path("/dev/null")
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    started = time.monotonic()
    with pytest.raises(FileProblem, match="not a regular file"):
        read_bounded(path, 1000)
    assert time.monotonic() - started < 10  # answered, not blocked (a generous bound, not a speed test)


def test_a_missing_file_is_told_apart(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_bounded(tmp_path / "nothing", 10)


def test_bad_utf8_is_one_clear_problem(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(b"caf\xe9")
    with pytest.raises(FileProblem, match=r"latin\.txt: not UTF-8"):
        read_text_bounded(path, 10)


def test_write_atomic_replaces_whole_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write_atomic(path, "first")
    write_atomic(path, b"second")
    assert path.read_text() == "second"
    assert os.listdir(tmp_path) == ["settings.json"]


@posix_only
def test_write_atomic_keeps_the_mode_and_gives_new_files_the_umask_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    old = os.umask(0o027)
    try:
        write_atomic(path, "x")
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
        path.chmod(0o600)
        write_atomic(path, "y")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "book.bin"
    path.write_bytes(b"old")
    with pytest.raises(TypeError):
        write_atomic(path, 12345)  # type: ignore[arg-type]
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["book.bin"]


def test_only_the_targets_own_stale_temporaries_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "book.bin"
    ours_old = tmp_path / ".book.bin.abcd1234.tmp"
    ours_new = tmp_path / ".book.bin.efgh5678.tmp"
    legacy = tmp_path / "book.bin.tmp"
    users = [tmp_path / ".notes.tmp", tmp_path / ".book.bin.notes.tmp", tmp_path / "other.bin.tmp"]
    for path in [ours_old, ours_new, legacy, *users]:
        path.write_text("x")
    hour_ago = time.time() - 7200
    for path in [ours_old, legacy, *users]:
        os.utime(path, (hour_ago, hour_ago))
    assert remove_stale_temporaries(target, legacy=legacy) == 2
    assert not ours_old.exists() and not legacy.exists()
    assert ours_new.exists()  # a write may be under way
    assert all(path.exists() for path in users)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
def test_write_atomic_does_not_change_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        write_atomic(tmp_path / "a", "x")
        assert os.umask(0o077) == 0o077
    finally:
        os.umask(old)
