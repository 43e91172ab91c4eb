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
  Python file it would see defines an agent (:func:`defines_an_agent`, read
  with :mod:`ast`, never imported) or is played as a student by this program
  (:func:`note_contestant`): each student then sees only its own file, so no
  classmate's module can be imported or read, whatever its function is named;
- a folder that holds the user's things rather than a submission: ``/``, the
  home folder, its Desktop, Documents and Downloads, and the temporary
  folders: the file alone again.

A caller that knows better (the grader, which lays out a class's files)
passes the list of files itself: :func:`view_of` with ``files``; the files of
other students this program plays are left out of it too.
"""

from __future__ import annotations

import ast
import os
import re
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.files import FileProblem, files_below, read_bounded

#: Where the copies appear inside the sandbox (also the student's working folder).
INSIDE = "/sandbox/student"
#: At most this many files are copied, and at most this many bytes in all (the student's own file counts).
MAX_FILES = 100
MAX_BYTES = 64 * 2**20
#: Folders below the student's that are looked into (``data/weights`` is 2 deep).
MAX_DEPTH = 3
#: Function names that make a file a student's agent: the classroom's, Kaggle's, the usual policy names and
#: OpenSpiel's bot factory.
AGENT_NAMES = frozenset({"agent", "my_agent", "act", "policy", "make_bot"})
#: Parameters that make a function an agent: the classroom's ``(board, player...)`` and Kaggle's
#: ``(observation, configuration)`` (or ``obs, config``; an ``observation`` alone too, as Kaggle trims the
#: arguments to what a function declares and PettingZoo passes one), whatever the function's name.
CLASSROOM_PARAMETERS = (frozenset({"board"}), frozenset({"player", "piece", "mark"}))
KAGGLE_PARAMETERS = (frozenset({"observation", "obs"}), frozenset({"configuration", "config", "conf", "cfg"}))

#: Every student file this program plays (a match's sides, a tournament's entrants), with the functions
#: it is played by: none of them is ever shown to another student (see :func:`note_contestant`).
_CONTESTANTS: dict[Path, set[str]] = {}
_CONTESTANTS_LOCK = threading.Lock()


def note_contestant(path: Path, function: str) -> None:
    """This program plays ``path`` as a student, by ``function``: no other student will see that file, and a
    file beside a student that defines ``function`` counts as another student's agent. Kept for the program's
    life (a name more can only hide more)."""
    with _CONTESTANTS_LOCK:
        functions = _CONTESTANTS.setdefault(Path(os.path.realpath(path)), set())
        if function:  # "": its last callable plays, whatever its name
            functions.add(function)


def _contestants() -> dict[Path, frozenset[str]]:
    with _CONTESTANTS_LOCK:
        return {path: frozenset(functions) for path, functions in _CONTESTANTS.items()}


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

    ``files`` are paths beside or below ``student``'s folder (others, and other contestants' files, are left
    out, and said so); the student's own file is always in. Raises ``OSError`` only when the student's own
    file cannot be read.
    """
    folder = student.parent
    data = _read(student, MAX_BYTES)
    if data is None:
        raise OSError(f"{student.name} is not a regular file of at most {MAX_BYTES // 2**20} MB")
    own = (student.name, data)
    contestants = _contestants()
    others = {path for path in contestants if path != Path(os.path.realpath(student))}
    if files is not None:
        return _collect(folder, [Path(f) for f in files], student, own, others)
    if _not_a_submission(folder):
        return View((own,), f"it sees only its own file: {folder} is not a folder of its own")
    found = _collect(folder, _walk(folder), student, own, set())
    names = AGENT_NAMES.union({function} - {""}, *contestants.values())  # "": the file's last callable
    rivals = [name for name, content in found.files[1:] if name.endswith(".py") and defines_an_agent(content, names)]
    rivals += [name for name, _ in found.files[1:] if Path(os.path.realpath(folder / name)) in others]
    if rivals:
        listed = sorted(set(rivals))
        shown = ", ".join(listed[:3]) + (", …" if len(listed) > 3 else "")
        return View((own,), f"it sees only its own file: its folder holds other students' agents ({shown})")
    return found


def defines_an_agent(source: bytes, names: frozenset[str] = AGENT_NAMES) -> bool:
    """Whether the Python ``source`` defines, at its top level, a function that is a student's agent: one of
    ``names``, or one taking a board and a player (classroom) or an observation and a configuration (Kaggle).

    Read with :mod:`ast`, never run. Source that does not parse counts as an agent: what cannot be told
    apart from a classmate's file is not shown.
    """
    words = b"|".join(re.escape(name.encode()) for name in sorted(names))
    if not re.search(rb"\b(?:def|lambda|" + words + rb")\b", source):  # cannot define one: not worth parsing
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # ValueError: a null byte (Python 3.11)
        return True
    for node in _top_level(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in names or _agent_parameters(node.args):
                return True
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):  # agent = make_agent(); play = lambda board, player: 0
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id in names for target in targets):
                return True
            if isinstance(node.value, ast.Lambda) and _agent_parameters(node.value.args):
                return True
    return False


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's statements, also inside its ``if``, ``try``, ``with`` and loop blocks, never inside a function
    or class."""
    for node in body:
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                yield from _top_level([child])
            elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                yield from _top_level(child.body)


def _agent_parameters(arguments: ast.arguments) -> bool:
    names = [argument.arg.lower() for argument in [*arguments.posonlyargs, *arguments.args]][:2]
    if names and names[0] in KAGGLE_PARAMETERS[0]:
        return True
    if len(names) < 2:
        return False
    return names[0] in CLASSROOM_PARAMETERS[0] and names[1] in CLASSROOM_PARAMETERS[1]


def _collect(folder: Path, paths: list[Path], student: Path, own: tuple[str, bytes], others: set[Path]) -> View:
    chosen = [own]
    total, left_out, classmates = len(own[1]), 0, []
    for path in paths:
        try:
            name = path.relative_to(folder).as_posix()
        except ValueError:
            left_out += 1  # not inside the student's folder
            continue
        if path == student or name.startswith("../") or any(part.startswith(".") for part in name.split("/")):
            continue
        if Path(os.path.realpath(path)) in others:
            classmates.append(name)
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
    if classmates:
        note = "; ".join(filter(None, [note, f"other students' agents left out ({', '.join(classmates[:3])})"]))
    return View(tuple(chosen), note)


def _walk(folder: Path) -> list[Path]:
    """The files below ``folder`` as candidates: Python files first at each level (enough to fill the view)."""
    return files_below(folder, MAX_DEPTH, first=lambda name: name.endswith(".py"), cap=4 * MAX_FILES)


def _read(path: Path, limit: int) -> bytes | None:
    """The bytes of the regular file ``path`` if it has at most ``limit`` (else None); never follows a link,
    never blocks."""
    try:
        return read_bounded(path, limit, follow=False)
    except (FileProblem, OSError):
        return None


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
