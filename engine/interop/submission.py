"""A Kaggle ConnectX submission of one engine agent: ``python -m engine kaggle-submission --agent hard``.

Kaggle takes a ``.tar.gz`` whose top holds ``main.py``; it unpacks it beside
the file and runs the *last callable* that ``main.py`` defines as the agent
(``kaggle_environments.agent.get_last_callable``). The archive holds:

- ``main.py``: puts its own folder on the import path and ends with
  ``agent = as_kaggle_agent(SPEC)``;
- ``engine/``: the engine's Python source (nothing compiled: numba compiles
  on Kaggle's machine, on a thread, while the plain-Python stand-in plays;
  see :mod:`engine.interop.kaggle_agent`);
- ``assets/book_*.bin``: the opening books, which the stand-in and the
  perfect agent read.

The archive is written whole or not at all, and never over a file that is there.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from engine.files import write_atomic

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds engine/ and assets/
MAIN = '''"""Kaggle ConnectX submission: the Connect Four engine's {spec} agent (python -m engine kaggle-submission)."""

import time

_LOADED_AT = time.perf_counter()  # Kaggle's clock for the first move runs while this file loads

import os  # noqa: E402
import sys  # noqa: E402


def _folder():
    # Kaggle runs this file's source with exec(), without __file__: the code's own file name says where it is.
    return os.path.dirname(os.path.abspath(globals().get("__file__") or _folder.__code__.co_filename))


for _place in (_folder(), "/kaggle_simulations/agent"):
    if os.path.isdir(os.path.join(_place, "engine")) and _place not in sys.path:
        sys.path.insert(0, _place)
        break

from engine.interop import as_kaggle_agent  # noqa: E402

agent = as_kaggle_agent({spec!r}, loaded_at=_LOADED_AT)  # the last callable: Kaggle's agent
'''


def main_source(spec: str) -> str:
    return MAIN.format(spec=spec)


def members(spec: str) -> list[tuple[str, bytes]]:
    """The archive's files, ``(name, contents)``, in order."""
    files = [("main.py", main_source(spec).encode())]
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if "__pycache__" not in path.parts:
            files.append((path.relative_to(ROOT).as_posix(), path.read_bytes()))
    for path in sorted((ROOT / "assets").glob("book_*.bin")):
        files.append((path.relative_to(ROOT).as_posix(), path.read_bytes()))
    return files


def archive(spec: str) -> bytes:
    """The ``.tar.gz`` of :func:`members` (regular files, mode 644, owned by nobody in particular)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in members(spec):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def build(spec: str, out: Path) -> int:
    """Write the submission of ``spec`` to ``out`` (which must not exist); returns its size in bytes."""
    if out.exists() or out.is_symlink():
        raise FileExistsError(17, "a file is there already (choose another name, or remove it first)", str(out))
    data = archive(spec)
    write_atomic(out, data)
    return len(data)
