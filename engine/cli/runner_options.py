"""What ``experiment``, ``report`` and ``tournament`` share: where games run and where rows go.

**A command writes and deletes only its own files.** Each command knows the
files it writes in its output folder (:class:`Outputs`: rows, the resume
file, tables, charts, the page) and :func:`prepare_folder` holds it to them:

- A folder the command creates gets a marker file (:data:`MARKER`, naming the
  command); so does an empty folder it is given. Such a folder is the
  command's: it resumes there, and ``--restart`` removes the files of its list
  (and nothing else: a user's ``thesis.txt`` beside them stays).
- A folder named with ``--out`` that holds other things and no marker of this
  command is someone else's. The command writes beside what is there only if
  none of its files would replace one already there; otherwise, and for
  ``--restart``, it stops with one line naming what is there. ``--force``
  takes the folder over: its files of the command's names are replaced (and
  removed by ``--restart``), every other file stays.
- The default folders (``results/NAME/``, ``docs/report/``) are the commands'
  own by design, marker or not.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine import files as engine_files
from engine.errors import EngineError
from engine.experiments.executors import CLUSTER_TIMEOUT, CLUSTER_TIMEOUT_VARIABLE, cluster_argument
from engine.files import STALE_SECONDS, FileProblem, read_text_bounded, write_atomic
from engine.validate import MAX_SEED, int_arg, shown

#: The file that says which command made a folder (first line: the command's owner name).
MARKER = ".engine-output"
#: A marker is one short line and a sentence: anything longer is not one.
MAX_MARKER_BYTES = 4096
#: How many names of a folder a message lists before "and N more".
LISTED = 5


def out_folder(text: str) -> Path:
    """``--out``'s value: a folder name (the empty string is no name, not the current folder)."""
    if not text:
        raise argparse.ArgumentTypeError("needs a folder name (an empty name would be the current folder)")
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"{shown(text)} holds a NUL character, which no file name can")
    return Path(text)


def add_runner_arguments(parser: argparse.ArgumentParser, out_help: str) -> None:
    group = parser.add_argument_group("running")
    group.add_argument(
        "--seed",
        type=int_arg(0, MAX_SEED),
        default=0,
        metavar="S",
        help="seed: the same seed gives the same rows (default 0)",
    )
    add_executor_arguments(group, "local worker processes (default: every core; 1 runs here)")
    group.add_argument("--out", type=out_folder, default=None, metavar="DIR", help=out_help)
    group.add_argument(
        "--restart",
        action="store_true",
        help="forget the rows of an earlier run in DIR: remove the files this command wrote there "
        "(and nothing else; default: resume)",
    )
    group.add_argument(
        "--force",
        action="store_true",
        help="write into a DIR this command did not make even where its files would replace files "
        "already there (other files are never touched)",
    )
    group.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def add_executor_arguments(group, jobs_help: str) -> None:
    """``--jobs N`` and ``--cluster ADDRESS``: where the tasks run (engine.experiments.executors.open_executor)."""
    group.add_argument("--jobs", type=int_arg(1, 1024), default=None, metavar="N", help=jobs_help)
    group.add_argument(
        "--cluster",
        type=cluster_argument,
        default=None,
        metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at tcp://HOST:PORT; its scheduler and workers must be "
        "trusted and able to import this project (docs/cluster.md); stops with an error after "
        f"{CLUSTER_TIMEOUT:g} s without an answer or a worker ({CLUSTER_TIMEOUT_VARIABLE}=SECONDS changes it)",
    )


@dataclass(frozen=True)
class Outputs:
    """The files one command writes in its folder: what it may replace, what ``--restart`` removes."""

    owner: str  # e.g. "experiment random-games": the marker's first line
    files: tuple[str, ...]  # paths relative to the folder, "/" between parts


def prepare_out(args: argparse.Namespace, default: Path, outputs: Outputs) -> Path:
    """The output folder of a command (``--out`` or ``default``), made ready by :func:`prepare_folder`."""
    chosen: Path | None = args.out
    return prepare_folder(chosen or default, outputs, chosen=chosen is not None, restart=args.restart, force=args.force)


def prepare_folder(
    folder: Path,
    outputs: Outputs,
    *,
    chosen: bool,
    restart: bool,
    force: bool,
    forget: Iterable[str] | None = None,
) -> Path:
    """Make ``folder`` ready for ``outputs``: created, or checked as the command's own; see the module docstring.

    ``chosen``: the user named the folder (a default folder is the command's
    own). With ``restart`` the files of ``forget`` (default: all of
    ``outputs.files``) are removed, never anything else. Raises
    :class:`EngineError` with one line naming the folder and what is in it.
    """
    if folder.is_symlink() and not folder.is_dir():
        raise EngineError(f"--out {shown(str(folder))} is a link to no folder")
    if folder.exists() and not folder.is_dir():
        raise EngineError(f"--out {shown(str(folder))} is a file, not a folder")
    if not folder.exists():
        folder.mkdir(parents=True)
        _mark(folder, outputs)
        return folder
    owner = _owner(folder)
    if owner != outputs.owner and chosen and not force:
        entries = sorted(entry.name + ("/" if entry.is_dir() else "") for entry in os.scandir(folder))
        if entries:
            _refuse_foreign(folder, outputs, owner, entries, restart)
        _mark(folder, outputs)  # empty, or nothing there has one of the command's names: its own from now on
    elif chosen and owner != outputs.owner:
        _mark(folder, outputs)  # --force: taken over
    if restart:
        remove_outputs(folder, outputs.files if forget is None else tuple(forget))
    remove_stale_temporaries(folder, (*outputs.files, MARKER))
    return folder


def _refuse_foreign(folder: Path, outputs: Outputs, owner: str | None, entries: list[str], restart: bool) -> None:
    """Stop, naming what is in a folder this command did not make, unless it may write beside it."""
    made = f"was made by `{owner}`, not" if owner else "was not made"
    name = shown(str(folder))
    if restart:
        raise EngineError(
            f"--restart: {name} {made} by `{outputs.owner}` and holds {_listed(entries)}; nothing was "
            "removed. Run without --restart to write beside them, or add --force to take the folder over"
        )
    taken = [path for path in outputs.files if os.path.lexists(folder / path)]
    if taken:
        raise EngineError(
            f"--out {name} {made} by `{outputs.owner}` and already holds {_listed(taken)}, which it "
            "would replace; choose another folder, or add --force to replace them"
        )


def _listed(names: Sequence[str]) -> str:
    shown_names = ", ".join(names[:LISTED])
    return shown_names if len(names) <= LISTED else f"{shown_names} and {len(names) - LISTED} more"


def _owner(folder: Path) -> str | None:
    """The command named by the folder's marker, or None (no marker, or one that is not a marker)."""
    try:
        text = read_text_bounded(folder / MARKER, MAX_MARKER_BYTES, "marker")
    except (FileNotFoundError, FileProblem):
        return None
    return text.split("\n", 1)[0].strip() or None


def _mark(folder: Path, outputs: Outputs) -> None:
    write_atomic(
        folder / MARKER,
        f"{outputs.owner}\n"
        f"This folder was made by `python -m engine {outputs.owner}`. With --restart the command removes "
        "only the files it writes here; every other file stays.\n",
    )


def remove_outputs(folder: Path, files: Iterable[str]) -> int:
    """Remove the files of ``files`` under ``folder`` (regular files and links only); returns how many.

    A folder on the way (``random-games/`` of ``random-games/rows.csv``) is
    removed when it is left empty; a folder of a user's is never emptied.
    """
    removed = 0
    parents: set[Path] = set()
    for name in files:
        path = folder / name
        with contextlib.suppress(FileNotFoundError):
            if path.is_symlink() or path.is_file():
                path.unlink()
                removed += 1
        parents.update(parent for parent in (folder / name).parents if folder in parent.parents)
        engine_files.remove_stale_temporaries(path, older_than=0.0)
    for parent in sorted(parents, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):  # not empty (a user's file), or not there
            parent.rmdir()
    return removed


def remove_stale_temporaries(folder: Path, files: Iterable[str], older_than: float = STALE_SECONDS) -> int:
    """Remove what killed writes of ``files`` left (only their own temporaries: see :mod:`engine.files`)."""
    return sum(engine_files.remove_stale_temporaries(folder / name, older_than) for name in files)
