"""What a student's process sees of the user's files: its own file and the files of its submission.

The sandbox never shows a folder of the user's. It shows *copies*, made
here by reading each file once (bounded, without following a link, never
opening a socket, FIFO or device) into the sandbox's own read-only folder
``/sandbox/student``. What is copied:

- **its own file**, always;
- **its submission's other files**: the regular files of its folder and of
  the folders below it (not hidden, no links), at most :data:`MAX_FILES`
  files and :data:`MAX_BYTES` bytes in all, top-level and Python files first
  (its helper modules and data load as they would beside it),

unless the folder is not a submission of its own:

- a **shared submissions folder** (a class's files side by side): another
  Python file at its top level defines a function of the name this student is
  played by (``def agent(``): each student then sees only its own file, so
  no classmate's module can be imported or read;
- a folder that holds the user's things rather than a submission: ``/``, the
  home folder, its Desktop, Documents and Downloads, and the temporary
  folders: the file alone again.

A caller that knows better (the grader, which lays out a class's files)
passes the list of files itself: :func:`view_of` with ``files``.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: Where the copies appear inside the sandbox (also the student's working folder).
INSIDE = "/sandbox/student"
#: At most this many files are copied, and at most this many bytes in all (the student's own file counts).
MAX_FILES = 100
MAX_BYTES = 64 * 2**20
#: Folders below the student's that are looked into (``data/weights`` is 2 deep).
MAX_DEPTH = 3
#: Bytes of a neighbour read to see whether it is another student's agent.
SCAN_BYTES = 2**20


@dataclass(frozen=True)
class View:
    """The copies a student sees: ``(path inside its folder, content)`` in order, and what was left out and why."""

    files: tuple[tuple[str, bytes], ...]
    note: str = ""

    def folders(self) -> list[str]:
        """The subfolders the copies need, parents first."""
        found: dict[str, None] = {}
        for name, _ in self.files:
            parts = name.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                found["/".join(parts[:depth])] = None
        return list(found)


def view_of(student: Path, function: str, files: Sequence[Path] | None = None) -> View:
    """The view of the student's file ``student`` played by ``function``: ``files`` if given, else its submission.

    ``files`` are paths beside or below ``student``'s folder (others are left out, and said so); the
    student's own file is always in. Raises ``OSError`` only when the student's own file cannot be read.
    """
    folder = student.parent
    data = _read(student, MAX_BYTES)
    if data is None:
        raise OSError(f"{student.name} is not a regular file of at most {MAX_BYTES // 2**20} MB")
    own = (student.name, data)
    if files is not None:
        return _collect(folder, [Path(f) for f in files], student, own)
    if _not_a_submission(folder):
        return View((own,), f"it sees only its own file: {folder} is not a folder of its own")
    rivals = _other_agents(folder, student, function)
    if rivals:
        shown = ", ".join(rivals[:3]) + (", …" if len(rivals) > 3 else "")
        return View((own,), f"it sees only its own file: its folder holds other students' agents ({shown})")
    return _collect(folder, _walk(folder), student, own)


def _collect(folder: Path, paths: list[Path], student: Path, own: tuple[str, bytes]) -> View:
    chosen = [own]
    total, left_out = len(own[1]), 0
    for path in paths:
        try:
            name = path.relative_to(folder).as_posix()
        except ValueError:
            left_out += 1  # not inside the student's folder
            continue
        if path == student or name.startswith("../") or any(part.startswith(".") for part in name.split("/")):
            continue
        if len(chosen) >= MAX_FILES:
            left_out += 1
            continue
        data = _read(path, MAX_BYTES - total)
        if data is None:
            left_out += 1
            continue
        chosen.append((name, data))
        total += len(data)
    note = ""
    if left_out:
        limits = f"over {MAX_FILES} files or {MAX_BYTES // 2**20} MB"
        files = f"{left_out} file{'s' if left_out != 1 else ''}"
        note = f"{files} of its folder left out (outside it, special, or {limits})"
    return View(tuple(chosen), note)


def _walk(folder: Path) -> list[Path]:
    """The files below ``folder`` as candidates: top level first, Python files first, by name (not into links)."""
    found: list[Path] = []
    level = [folder]
    for _ in range(MAX_DEPTH + 1):
        below: list[Path] = []
        for current in level:
            try:
                entries = sorted(os.scandir(current), key=lambda e: (not e.name.endswith(".py"), e.name))
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith(".") or entry.name == "__pycache__":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    below.append(Path(entry.path))
                else:  # links and special files too: they are left out when read, and said so
                    found.append(Path(entry.path))
                if len(found) > 4 * MAX_FILES:  # a huge tree: enough candidates to fill the view
                    return found
        level = below
    return found


def _read(path: Path, limit: int, whole: bool = True) -> bytes | None:
    """The bytes of the regular file ``path`` if it has at most ``limit`` (else None, or its first ``limit`` bytes
    when not ``whole``); never follows a link, never blocks."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or (whole and info.st_size > limit):
            return None
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(descriptor, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
        return data if size <= limit else None if whole else data[:limit]
    except OSError:
        return None
    finally:
        os.close(descriptor)


def _not_a_submission(folder: Path) -> bool:
    """``/``, the home folder and its Desktop, Documents and Downloads, and the temporary folders."""
    home = Path.home()
    places = {Path("/"), home, home / "Desktop", home / "Documents", home / "Downloads"}
    places |= {Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")}
    resolved = {_real(place) for place in places}
    return _real(folder) in resolved


def _real(path: Path) -> str:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return str(path)


def _other_agents(folder: Path, student: Path, function: str) -> list[str]:
    """The other Python files at the top of ``folder`` that define ``function`` (other students' agents)."""
    pattern = re.compile(rb"^(?:async[ \t]+)?def[ \t]+" + re.escape(function.encode()) + rb"[ \t]*\(", re.MULTILINE)
    found = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    for entry in entries:
        if not entry.name.endswith(".py") or entry.name == student.name:
            continue
        head = _read(Path(entry.path), SCAN_BYTES, whole=False)
        if head is not None and pattern.search(head):
            found.append(entry.name)
    return found
