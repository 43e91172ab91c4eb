"""Run independent tasks (games, measurements, book positions) on an executor, keeping every row.

A task is a small frozen dataclass of plain data with a stable ``key`` and a
``run() -> dict`` method: it can be pickled to a local process or a Dask
worker, and it rebuilds everything it needs (agents from their specs, the
start position from its move string) on the other side, so the same task
gives the same row wherever it runs.

Rows are appended to a checkpoint file (one JSON object a line) as they come
back. Running the same tasks again with the same checkpoint skips the rows
already there: a long study stopped with Ctrl-C resumes where it stopped.

A resume file is data that anyone may have edited, copied or damaged, and
the rows a worker of a cluster sends back are no more trusted: both go
through :func:`plain_rows` (a list of flat dicts of plain JSON scalars) and a
task's own :meth:`fits` where it has one. A damaged line of the file is
skipped (its task runs again) with one warning; a file that cannot be read as
text (not a regular file, too large, not UTF-8) is one :class:`FileProblem`.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from collections.abc import Sequence
from concurrent.futures import Executor, Future, as_completed
from pathlib import Path
from typing import Any, Protocol

from engine.errors import EngineError
from engine.files import FileProblem, read_text_bounded

Row = dict[str, Any]

#: The largest resume file read (a full report's largest study writes a few MB).
MAX_CHECKPOINT_BYTES = 256 * 2**20
#: Whole numbers in a row fit 64 bits (nodes, seeds, counts): a 5,000-digit number is damage.
MAX_INT_BITS = 64


class RowError(EngineError):
    """Rows that are not plain data (see :func:`plain_rows`)."""


class Task(Protocol):
    """One unit of work: plain data in, one row (or a list of rows) of plain data out.

    A task may also have ``fits(rows) -> bool``: whether rows read back from
    a resume file (or sent by a worker) are rows this task could have made.
    """

    @property
    def key(self) -> str: ...

    def run(self) -> Row | list[Row]: ...


def plain_rows(value: object) -> list[Row]:
    """``value`` as a list of rows of plain data, or :class:`RowError` saying what is not.

    A row is a dict from strings to JSON scalars (None, a bool, a string
    UTF-8 can write, a whole number of at most 64 bits, a float): what ``rows.csv`` can hold and
    what every summary reads. The rows returned are new dicts of exact
    built-in types, so a subclass with its own methods (from an untrusted
    worker) goes no further than here.
    """
    if not isinstance(value, list):
        raise RowError(f"rows must be a list, not {type(value).__name__}")
    return [_plain_row(row, index) for index, row in enumerate(value)]


def _plain_row(row: object, index: int) -> Row:
    if not isinstance(row, dict):
        raise RowError(f"row {index} is a {type(row).__name__}, not an object")
    out: Row = {}
    for name, value in row.items():
        if not isinstance(name, str):
            raise RowError(f"row {index} has a column named by a {type(name).__name__}")
        out[_plain_text(name, index, "a column name")] = _plain_value(value, index, name)
    return out


def _plain_text(text: str, index: int, what: str) -> str:
    """``text`` as an exact ``str`` that UTF-8 can write (``rows.csv`` is UTF-8: a lone surrogate is not text)."""
    plain = str.__str__(text)
    if not plain.isascii():
        try:
            plain.encode("utf-8")
        except UnicodeEncodeError:
            raise RowError(f"row {index}: {what} is not text (a lone surrogate)") from None
    return plain


def _plain_value(value: object, index: int, name: str) -> object:
    if value is None or type(value) is bool:
        return value
    if isinstance(value, int):
        number = int.__int__(value)
        if number.bit_length() > MAX_INT_BITS:
            raise RowError(f"row {index}, {name[:40]!r}: a whole number of {number.bit_length()} bits")
        return number
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return _plain_text(value, index, repr(name[:40]))
    raise RowError(f"row {index}, {name[:40]!r}: a {type(value).__name__}, not a plain value")


def _fits(task: Task, rows: list[Row]) -> bool:
    """Whether ``rows`` could be ``task``'s (True for a task that has no ``fits``)."""
    fits = getattr(task, "fits", None)
    if fits is None:
        return True
    try:
        return bool(fits(rows))
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


def derive_seed(*parts: int | str) -> int:
    """A 31-bit seed from a tuple of ints and strings, the same on every machine and Python run.

    Every character of a string counts: two agents whose specs differ only at the end
    (``mcts:iterations=1000`` and ``mcts:iterations=5000``) get seeds of their own.
    """
    key = "\x1f".join(repr(part) if isinstance(part, str) else str(int(part)) for part in parts)
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little") & 0x7FFFFFFF


def _run(task: Task) -> list[Row]:
    rows = task.run()
    return rows if isinstance(rows, list) else [rows]


class Checkpoint:
    """Rows already computed, keyed by task, in a JSON-lines file appended task by task.

    Each line is ``{"key": KEY, "rows": [ROW, ...]}``. Reading is total: the
    file is read with :func:`engine.files.read_text_bounded` (a regular file
    of at most :data:`MAX_CHECKPOINT_BYTES`, never blocking), and a line that
    is not such an object of :func:`plain_rows` is skipped and counted in
    :attr:`damaged` (its task runs again). A later line for the same key wins.
    Each new line is written with one ``write`` in append mode, so lines of
    two writers never interleave and a killed write damages at most its own line.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.rows: dict[str, list[Row]] = {}
        #: Lines skipped as damaged (and entries dropped by :meth:`discard`).
        self.damaged = 0
        self._newline_first = False  # the file ends in a cut line: the next entry starts on a line of its own
        if path is None:
            return
        try:
            if path.is_symlink():
                raise FileProblem(f"resume file {path}: a symbolic link, not a file this command wrote")
            text = read_text_bounded(path, MAX_CHECKPOINT_BYTES, "resume file")
        except FileNotFoundError:
            return
        except FileProblem as exc:
            raise FileProblem(f"{_named(str(exc), path)}; remove it, or start again with --restart") from None
        self._newline_first = bool(text) and not text.endswith("\n")
        for line in text.split("\n"):
            if not line.strip():
                continue
            entry = _entry(line)
            if entry is None:
                self.damaged += 1  # e.g. a line cut short by an interruption: its task runs again
            else:
                self.rows[entry[0]] = entry[1]

    def discard(self, key: str) -> None:
        """Forget the rows of ``key`` (they do not fit their task): counted as damaged, the task runs again."""
        if self.rows.pop(key, None) is not None:
            self.damaged += 1

    def warn(self) -> None:
        """One line on standard error if damaged lines were skipped."""
        if self.damaged and self.path is not None:
            what = "line was skipped; its task runs" if self.damaged == 1 else "lines were skipped; their tasks run"
            print(
                f"warning: resume file {self.path}: {self.damaged} damaged {what} again",
                file=sys.stderr,
                flush=True,
            )

    def add(self, key: str, rows: list[Row]) -> None:
        self.rows[key] = rows
        if self.path is not None:
            line = json.dumps({"key": key, "rows": rows}) + "\n"
            if self._newline_first:
                line = "\n" + line
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _append(self.path, line.encode("utf-8"))
            self._newline_first = False


def _entry(line: str) -> tuple[str, list[Row]] | None:
    """The key and rows of one line of a resume file, or None if the line is damaged."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, a number of over 4,300 digits, nesting too deep
        return None
    if not isinstance(value, dict) or not isinstance(value.get("key"), str):
        return None
    try:
        return value["key"], plain_rows(value.get("rows"))
    except RowError:
        return None


def _append(path: Path, data: bytes) -> None:
    """Append ``data`` to the regular file ``path`` in one write (never through a link, never blocking)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags, 0o644)
    except OSError as exc:
        raise FileProblem(f"resume file {path}: cannot write it ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise FileProblem(f"resume file {path}: not a regular file")
        view = memoryview(data)
        while view:  # one write for a line of a regular file; the loop only if the system cuts it
            view = view[os.write(descriptor, view) :]
    finally:
        os.close(descriptor)


def _named(message: str, path: Path) -> str:
    """``message`` of :mod:`engine.files` (which names the file only) with the file's whole path."""
    return message.replace(f"resume file {path.name}", f"resume file {path}", 1)


def run_tasks(
    tasks: Sequence[Task],
    *,
    executor: Executor | None = None,
    checkpoint: Path | None = None,
    desc: str = "tasks",
    progress: bool = True,
) -> list[Row]:
    """Every task's rows, in task order; tasks already in ``checkpoint`` are not run again.

    ``executor`` None runs the tasks here, one after the other. A progress bar
    with an ETA goes to standard error. On Ctrl-C the tasks not started are
    cancelled, the rows already back stay in the checkpoint, and
    ``KeyboardInterrupt`` goes on up. Rows from the checkpoint that do not fit
    their task are computed again; rows from a worker that are not plain data
    or do not fit their task are an :class:`RowError` (a worker is not trusted
    more than a file).
    """
    store = Checkpoint(checkpoint)
    for task in tasks:
        if task.key in store.rows and not _fits(task, store.rows[task.key]):
            store.discard(task.key)
    store.warn()
    pending = [task for task in tasks if task.key not in store.rows]
    bar = progress_bar(
        total=len(tasks),
        initial=len(tasks) - len(pending),
        desc=desc,
        file=sys.stderr,
        disable=not progress,
        unit="task",
    )
    try:
        if executor is None:
            for task in pending:
                store.add(task.key, _checked(task, _run(task)))
                bar.update()
        else:
            futures: dict[Future[list[Row]], Task] = {executor.submit(_run, task): task for task in pending}
            try:
                for future in as_completed(futures):
                    task = futures[future]
                    store.add(task.key, _checked(task, future.result()))
                    bar.update()
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        bar.close()
    return [row for task in tasks for row in store.rows[task.key]]


def _checked(task: Task, rows: object) -> list[Row]:
    """The rows a task's run gave (here or on a worker) as plain data that fits the task, or :class:`RowError`."""
    try:
        plain = plain_rows(rows)
    except RowError as exc:
        raise RowError(f"task {task.key[:80]!r} gave rows that are not plain data: {exc}") from None
    if not _fits(task, plain):
        raise RowError(f"task {task.key[:80]!r} gave rows that are not the rows of that task")
    return plain


def progress_bar(**options: Any) -> Any:
    """tqdm's progress bar (``[studies]``), or one that shows nothing where tqdm is not installed."""
    try:
        from tqdm import tqdm
    except ModuleNotFoundError:
        return _NoBar()
    return tqdm(**options)


class _NoBar:
    def update(self, count: int = 1) -> None:
        """Nothing to show."""

    def close(self) -> None:
        """Nothing to close."""
