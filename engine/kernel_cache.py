"""Keep numba's on-disk cache in step with the engine's source code.

Numba caches each compiled kernel next to its source and checks only that one
file when it reloads it. A kernel that calls kernels in *other* files (the
search calls the evaluation and the rules) would keep running the old code
after those files change. So the cache goes into a folder named after a hash
of every engine source file: any change to the engine starts a fresh cache,
and different versions of the program never share compiled code.

The folder is under the user's cache directory (``$XDG_CACHE_HOME`` or
``~/.cache``), which also works when the program itself sits in a read-only
place; where that cannot be written (a read-only home, as on Kaggle's agent
machines), in a private folder in the system's temporary folder, for this
process only. Where no folder can be
written at all, numba compiles in the running process and keeps nothing
(:func:`compile_without_cache`: without it every kernel raised "cannot cache
function ...: no locator available"). Folders of other versions unused for a
month are removed. Setting ``NUMBA_CACHE_DIR`` yourself turns the choice of
folder off.

A damaged cache file (a truncated index after a crash or a full disk, random
bytes) makes numba raise while loading it, in every later run. So loading
is guarded (:func:`guard_damaged_entries`, installed by
:mod:`engine.kernels` before any kernel exists, so that ``import engine``
stays free of numba): a kernel whose cache entry cannot be loaded has its
files removed and is compiled again, with one warning on stderr, and the
command answers.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import glob
import hashlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ENGINE_DIR = Path(__file__).resolve().parent  # the engine package
STALE_AFTER_DAYS = 30


def source_digest() -> str:
    """A short hash of every ``.py`` file of the engine (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        digest.update(str(path.relative_to(ENGINE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def loaded_digest() -> str:
    """:func:`source_digest` as this process first read the source: the version of the code it runs
    (hashed once a process, whoever asks)."""
    return source_digest()


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "connect-four" / "numba"


def configure() -> Path | None:
    """Point numba at this version's cache folder; return it (None if the user chose one or none can be written)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    root = cache_root()
    folder = root / loaded_digest()
    if _writable(folder):
        _remove_stale(root, keep=folder)
    else:
        private = _private_temporary()
        if private is None:
            return None  # numba looks beside the source; where it cannot write there either, see compile_without_cache
        folder = private
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:  # already imported: its config was read; update it too
        from numba.core import config

        config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]  # set at import from the environment
    return folder


def _private_temporary() -> Path | None:
    """A new folder of this process's own in the temporary folder, removed at exit (None: none can be made).

    Never a folder of a known name there: another user could have made it first and filled it
    with cache files, which numba unpickles."""
    try:
        folder = Path(tempfile.mkdtemp(prefix="connect-four-numba-"))
    except OSError:
        return None
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _writable(folder: Path) -> bool:
    """Make ``folder`` (marked as in use, for the clean-up of old ones) and see that a file can be written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        return False
    return True


def compile_without_cache() -> None:
    """Let a kernel that finds no cache folder it can write compile in place (with one warning), not raise.

    numba looks for a writable folder when a kernel with ``cache=True`` is
    defined, and raises ``RuntimeError`` if there is none; this wraps
    ``Dispatcher.enable_caching`` so that such a kernel gets numba's
    ``NullCache`` (compiled in each process, kept nowhere) instead.
    """
    from numba.core import caching, dispatcher

    enable = dispatcher.Dispatcher.enable_caching
    if getattr(enable, "in_place_when_unwritable", False):
        return

    def enable_caching(self: Any) -> None:
        try:
            enable(self)
        except RuntimeError as exc:
            if "no locator available" not in str(exc):
                raise
            self._cache = caching.NullCache()
            if not warned:
                warned.append(True)
                print(
                    "warning: no folder for compiled kernels can be written: they are compiled in each process",
                    file=sys.stderr,
                    flush=True,
                )

    warned: list[bool] = []
    enable_caching.in_place_when_unwritable = True  # type: ignore[attr-defined]
    dispatcher.Dispatcher.enable_caching = enable_caching  # type: ignore[method-assign]


def guard_damaged_entries() -> None:
    """Make numba treat a cache entry it cannot load as missing: remove its files, compile afresh.

    This wraps ``numba.core.caching.Cache._load_overload``, the one place
    where an entry is read (index, data, and rebuilding the machine code);
    numba compiles whenever it returns None.
    """
    from numba.core import caching

    load = caching.Cache._load_overload
    if getattr(load, "guards_damage", False):
        return

    def _load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return load(self, sig, target_context)
        except Exception as exc:  # any way a damaged file can fail to load
            removed = _remove_entry(self._cache_file)
            if not warned:  # one line per run, however many entries were hit
                warned.append(removed)
                print(
                    f"warning: damaged compiled-kernel cache entries (first: {removed}, {type(exc).__name__}) "
                    "are removed and compiled again",
                    file=sys.stderr,
                    flush=True,
                )
            return None

    warned: list[str] = []
    _load_overload.guards_damage = True  # type: ignore[attr-defined]
    caching.Cache._load_overload = _load_overload  # type: ignore[method-assign]


def _remove_entry(cache_file: Any) -> str:
    """Delete a kernel's index file and its data files; the index file's name, for the message."""
    index = Path(cache_file._index_path)
    pattern = os.path.join(cache_file._cache_path, cache_file._data_name_pattern.replace("{number:d}", "*"))
    for path in [str(index), *glob.glob(glob.escape(pattern).replace(glob.escape("*"), "*"))]:
        with contextlib.suppress(OSError):
            os.remove(path)
    return index.name


def _remove_stale(root: Path, keep: Path) -> None:
    limit = time.time() - STALE_AFTER_DAYS * 86400
    for folder in root.iterdir():
        try:
            if folder != keep and folder.is_dir() and folder.stat().st_mtime < limit:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue
