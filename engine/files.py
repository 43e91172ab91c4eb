"""Reading and writing the user's files safely: bounded reads, atomic writes.

Files that other people make (saved and shared games, settings copied between
machines, resume files, opening books) are untrusted input. Every reader of
such a file goes through :func:`read_bounded`, which

- opens without blocking (a FIFO or a device never hangs the program),
- reads only a regular file (no FIFO, socket, device, ``/dev/zero``),
- reads at most ``limit`` bytes, so a huge file cannot exhaust memory,

and turns every failure into one :class:`FileProblem` whose message names the file.

Every writer goes through :func:`write_atomic`: the data goes to a temporary
file with a unique name in the same folder, is flushed to disk, and then
replaces the target in one step. Two instances writing at once never share a
temporary file, a reader never sees half a file, and a killed write leaves
at most a temporary file that :func:`remove_stale_temporaries` cleans later.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from engine.errors import EngineError

#: Temporary files of :func:`write_atomic` are named ``.NAME.<random>.tmp`` beside ``NAME``.
TEMPORARY_SUFFIX = ".tmp"
#: A temporary file older than this was left by a write that was killed: safe to remove.
STALE_SECONDS = 3600.0


class FileProblem(EngineError):
    """A file that cannot be read or written; the message names it and says why."""


def read_bounded(path: Path | str, limit: int, what: str = "file", *, follow: bool = True) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises :class:`FileProblem` (naming ``what`` and the file) for anything
    else: a missing file is :class:`FileNotFoundError` only when the caller
    wants to tell it apart, so it is raised as is. ``follow=False``: a link
    is refused too (a student's folder may point anywhere).
    """
    name = Path(path).name or str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)  # O_NONBLOCK: opening a FIFO with no writer returns at once
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise FileProblem(f"{what} {name}: cannot open it ({_reason(exc)})") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"{what} {name}: not a regular file")
        if info.st_size > limit:
            raise FileProblem(f"{what} {name}: {info.st_size:,} bytes, more than the {limit:,} such a file can have")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the file may grow while it is read: never read more than limit + 1 bytes
            chunk = os.read(descriptor, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileProblem(f"{what} {name}: cannot read it ({_reason(exc)})") from None
    finally:
        os.close(descriptor)
    if size > limit:
        raise FileProblem(f"{what} {name}: more than the {limit:,} bytes such a file can have")
    return b"".join(chunks)


def files_below(
    folder: Path, depth: int, *, first: Callable[[str], bool] = lambda name: False, cap: int | None = None
) -> list[Path]:
    """What may be files below ``folder``, ``depth`` folders deep at most: level by level (the top
    first), by name within a level (the names ``first`` picks before the others).

    Hidden names and ``__pycache__`` are skipped and no link is followed into. Links and special
    files are listed: :func:`read_bounded` with ``follow=False`` refuses them, so a caller can say
    they were left out. ``cap``: stop once more than this many are found (a huge tree).
    """
    found: list[Path] = []
    level = [folder]
    for _ in range(depth + 1):
        below: list[Path] = []
        for current in level:
            try:
                entries = sorted(os.scandir(current), key=lambda entry: (not first(entry.name), entry.name))
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith(".") or entry.name == "__pycache__":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    below.append(Path(entry.path))
                else:
                    found.append(Path(entry.path))
                if cap is not None and len(found) > cap:
                    return found
        level = below
    return found


def read_text_bounded(path: Path | str, limit: int, what: str = "file") -> str:
    """:func:`read_bounded` decoded as UTF-8 (a byte-order mark is allowed)."""
    raw = read_bounded(path, limit, what)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileProblem(f"{what} {Path(path).name}: not UTF-8 text (byte {exc.start})") from None


def write_atomic(path: Path | str, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` in one step; raises OSError (the target is then unchanged).

    The temporary file has a unique name (``mkstemp``), so two processes
    writing the same target never write into one temporary file: the last
    ``os.replace`` wins, whole.
    """
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{target.name[:100]}.", suffix=TEMPORARY_SUFFIX, dir=target.parent or "."
    )
    try:
        with contextlib.suppress(OSError):  # mkstemp makes 0600: give the file the mode it would have had
            os.chmod(temporary, _mode_for(target))
        with os.fdopen(descriptor, "wb") as file:
            file.write(payload)
            file.flush()
            with contextlib.suppress(OSError):  # some file systems cannot sync; the rename is what matters
                os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


#: The first bytes of every PNG file.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def check_picture_target(text: str, option: str) -> Path:
    """``text`` as the path of a PNG a command will write, checked before any work (one EngineError line).

    The name must end in ``.png``; an existing file there must be a PNG (a picture is written only over a
    picture, never over a file of the user's); a file must be possible in its folder (a missing folder,
    a name too long, a folder without permission, are found out now).
    """
    if not text.strip():
        raise EngineError(f"{option} needs a file name, e.g. {option} chart.png")
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise EngineError(f"{option} {text}: the name should end in .png (the file is a PNG picture)")
    try:
        if path.is_dir():
            raise EngineError(f"{option} {text}: that is a folder; give a file name")
        if path.exists():
            if not path.is_file():
                raise EngineError(f"{option} {text}: not a regular file")
            with path.open("rb") as file:
                if file.read(len(PNG_SIGNATURE)) != PNG_SIGNATURE:
                    raise EngineError(f"{option} {text}: that file is not a PNG; give a new name (it is kept)")
        descriptor, probe = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=TEMPORARY_SUFFIX, dir=path.parent)
        os.close(descriptor)
        os.unlink(probe)
    except OSError as exc:
        raise EngineError(f"{option} {text}: cannot write there: {_reason(exc)}") from None
    return path


def remove_stale_temporaries(target: Path, older_than: float = STALE_SECONDS, legacy: Path | None = None) -> int:
    """Remove what killed writes of ``target`` left beside it; returns how many files went.

    Only the temporary files :func:`write_atomic` names after ``target``
    (``.NAME.<8 random characters>.tmp``), and ``legacy`` (the name an older
    version used), and only those untouched for ``older_than`` seconds, so a
    write under way is never touched, nor a user's own ``.notes.tmp``: the
    folder may be shared with other programs.
    """
    pattern = re.compile(re.escape(f".{target.name[:100]}.") + r"[A-Za-z0-9_]{8}" + re.escape(TEMPORARY_SUFFIX))
    removed = 0
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent):
            named = pattern.fullmatch(entry.name) or (legacy is not None and entry.name == legacy.name)
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if named and stat.S_ISREG(info.st_mode) and now - info.st_mtime >= older_than:
                    os.unlink(entry.path)
                    removed += 1
    return removed


def _mode_for(target: Path) -> int:
    """The permissions of ``target`` if it exists, else those a new file gets here (0666 less the umask)."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(os.stat(target).st_mode)
    return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it where Linux allows (``os.umask`` sets it to read it)."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


_UMASK_LOCK = threading.Lock()


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
