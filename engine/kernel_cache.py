"""Keep numba's on-disk cache in step with the engine's source code.

Numba caches each compiled kernel next to its source and checks only that one
file when it reloads it. A kernel that calls kernels in *other* files (the
search calls the evaluation and the rules) would keep running the old code
after those files change. So the cache goes into a folder named after a hash
of every engine source file: any change to the engine starts a fresh cache,
and different versions of the program never share compiled code.

The folder is under the user's cache directory (``$XDG_CACHE_HOME`` or
``~/.cache``), which also works when the program itself sits in a read-only
place. Folders of other versions unused for a month are removed. Setting
``NUMBA_CACHE_DIR`` yourself turns all of this off.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent
STALE_AFTER_DAYS = 30


def source_digest() -> str:
    """A short hash of every ``.py`` file of the engine (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        digest.update(str(path.relative_to(ENGINE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "connect-four" / "numba"


def configure() -> Path | None:
    """Point numba at this version's cache folder; return it (None if the user chose one)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    root = cache_root()
    folder = root / source_digest()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # marks the folder as in use, for the clean-up below
    except OSError:
        return None  # no writable cache directory: numba falls back to __pycache__
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:  # already imported: its config was read; update it too
        from numba.core import config

        config.CACHE_DIR = str(folder)
    _remove_stale(root, keep=folder)
    return folder


def _remove_stale(root: Path, keep: Path) -> None:
    limit = time.time() - STALE_AFTER_DAYS * 86400
    for folder in root.iterdir():
        try:
            if folder != keep and folder.is_dir() and folder.stat().st_mtime < limit:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue
