"""A class's submissions: one ``.py`` file or one folder per student, read once, bounded, as data.

``SUBMISSIONS`` is a folder holding a ``NAME.py`` file or a ``NAME/`` folder
per student (the student is ``NAME``), or a single ``.py`` file (a student
checking their own work). Files are read here, without following links and
within :data:`MAX_FILES` files and :data:`MAX_BYTES` bytes a student; the
grader then gives each student's process copies of that student's files only.
In a folder of several Python files, the one that defines most of the
assignment's functions is the one marked (its helpers load beside it).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.errors import EngineError
from engine.files import FileProblem, files_below, read_bounded
from engine.validate import shown

#: A student's submission holds at most this many files and bytes.
MAX_FILES = 100
MAX_BYTES = 16 * 2**20
#: Folders below a student's folder that are looked into.
MAX_DEPTH = 3
#: Students a class may have.
MAX_STUDENTS = 2000


@dataclass(frozen=True)
class Submission:
    """One student's files (path inside the submission -> bytes) and the file that is marked."""

    student: str
    files: tuple[tuple[str, bytes], ...]
    main: str  # "" when the submission holds no Python file
    note: str = ""  # what was left out, or why no file is marked

    @property
    def digest(self) -> str:
        """The submission's fingerprint: marks kept from an earlier run are kept only for the same files."""
        hasher = hashlib.blake2b(digest_size=12)
        for name, data in self.files:
            hasher.update(name.encode("utf-8", "surrogatepass") + b"\0" + len(data).to_bytes(8, "little") + data)
        hasher.update(self.main.encode("utf-8", "surrogatepass"))
        return hasher.hexdigest()


def find_submissions(path: Path, functions: Sequence[str]) -> list[Submission]:
    """Every student's submission under ``path`` (see the module docstring), by name.

    ``functions`` are the assignment's function names, to pick a folder's main file. Raises
    :class:`EngineError` with one line for a missing path, an empty folder or too many students.
    """
    if not path.exists() and not path.is_symlink():
        raise EngineError(f"no such file or folder: {shown(str(path))}")
    if path.is_file():
        if path.suffix != ".py":
            raise EngineError(f"{shown(str(path))} is not a Python file (.py): give a student's file or a folder")
        return [_single(path)]
    if not path.is_dir():
        raise EngineError(f"{shown(str(path))} is neither a file nor a folder")
    entries = sorted(os.scandir(path), key=lambda entry: entry.name)
    found: list[Submission] = []
    for entry in entries:
        if entry.name.startswith((".", "_")) or entry.is_symlink():
            continue
        if entry.is_file() and entry.name.endswith(".py"):
            found.append(_single(Path(entry.path)))
        elif entry.is_dir():
            found.append(_folder(Path(entry.path), functions))
        if len(found) > MAX_STUDENTS:
            raise EngineError(f"{shown(str(path))} holds more than {MAX_STUDENTS:,} submissions")
    if not found:
        raise EngineError(
            f"no submissions in {shown(str(path))}: it holds no .py file and no folder (one of them per student)"
        )
    names = [submission.student for submission in found]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise EngineError(f"two submissions of {shown(twice[0])} (a file {twice[0]}.py and a folder {twice[0]}/)")
    return found


def _single(path: Path) -> Submission:
    try:
        data = read_bounded(path, MAX_BYTES, "submission")
    except (FileProblem, FileNotFoundError) as exc:
        return Submission(_text(path.stem), (), "", f"{_text(path.name)} could not be read: {exc}")
    return Submission(_text(path.stem), ((_text(path.name), data),), _text(path.name))


def _text(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (a name the file system holds as it was given) become U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _folder(folder: Path, functions: Sequence[str]) -> Submission:
    files: list[tuple[str, bytes]] = []
    total, left_out = 0, 0
    for file in files_below(folder, MAX_DEPTH):
        name = _text(file.relative_to(folder).as_posix())
        try:
            data = read_bounded(file, MAX_BYTES - total, "file", follow=False)
        except (FileProblem, FileNotFoundError):
            left_out += 1
            continue
        if len(files) >= MAX_FILES:
            left_out += 1
            continue
        files.append((name, data))
        total += len(data)
    note = (
        f"{left_out} file{'s' * (left_out != 1)} left out (links, special files, or over the limits)"
        if left_out
        else ""
    )
    python = [(name, data) for name, data in files if name.endswith(".py") and "/" not in name]
    if not python:
        return Submission(_text(folder.name), tuple(files), "", "the folder holds no Python file at its top")
    return Submission(_text(folder.name), tuple(files), _main(python, functions), note)


def _main(python: list[tuple[str, bytes]], functions: Sequence[str]) -> str:
    """The Python file that defines most of ``functions`` (the first by name on a tie)."""

    def defined(data: bytes) -> int:
        return sum(
            1 for name in functions if re.search(rb"^\s*(def|class)\s+" + re.escape(name.encode()) + rb"\b", data, re.M)
        )

    return max(python, key=lambda item: (defined(item[1]), -python.index(item)))[0]


def safe_name(student: str, taken: set[str]) -> str:
    """A file name for ``student``'s feedback: letters, digits, ``.-_`` only, unique among ``taken``."""
    base = re.sub(r"[^A-Za-z0-9._-]", "_", student).strip("._") or "student"
    base = base[:80]
    name, number = base, 2
    while name.lower() in taken:
        name, number = f"{base}-{number}", number + 1
    taken.add(name.lower())
    return name
