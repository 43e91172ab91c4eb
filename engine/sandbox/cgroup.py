"""Memory and processes counted for all of a student's processes together: a cgroup of its own, where one can be made.

The sandbox's ``memory_mb`` and process limit are limits of each process
(``RLIMIT_AS``, ``RLIMIT_NPROC``): a student with 8 processes could fill 8
times its address space. Where this program may make cgroups (it runs as
root, or systemd delegated a subtree to its user), each sandbox gets one of
its own: ``memory.max`` is ``memory_mb`` (what its scratch memory file
systems hold is charged there too, so nothing is added for them), no swap,
and ``pids.max`` the process limit. When the student ends, whatever is left
in its group is killed and the group removed.

- **cgroup v2** (one hierarchy): a cgroup that holds processes cannot pass
  controllers on to a child, so the group is made beside this program's own
  cgroup, in the parent that holds it (where ``memory`` and ``pids`` are on
  for children, as systemd does for its slices and delegated subtrees), or
  below the root when the program sits at the root.
- **cgroup v1** (one hierarchy per controller, older distributions): below
  this program's own ``memory`` and ``pids`` groups.

The student's first process joins its group before it starts anything: the
command runs through ``sh``, which writes its own process id into the
group's ``cgroup.procs`` and then ``exec``\\ s the sandbox. A student cannot
leave its group: the sandbox shows it no ``/sys`` and may not mount.

Whether this works is found once a program by making a probe group and
moving a short-lived shell into it (the kernel's rules on who may move a
process are what counts); where anything fails there is no group, and the
sandbox lists the memory of all its processes together as missing. Groups
left by a program that was killed are removed by the next one (only empty
ones named after a process that no longer runs).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

#: Groups are named PREFIX + this program's process id + "-" + a number.
PREFIX = "connect-four-student-"
#: The shell that moves itself into the group, then becomes the sandbox: ``sh -c JOIN sh PROCS... -- COMMAND...``.
JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'
#: The exit code of a start that could not join its group.
JOIN_FAILED = 125
#: How long removing a group waits for its processes to end (a large address space takes a while to free).
END_WAIT = 5.0
#: Limits written only where the kernel has them (swap may be off, or not accounted).
OPTIONAL = frozenset({"memory.swap.max", "memory.memsw.limit_in_bytes"})


@dataclass(frozen=True)
class Hierarchy:
    """Where groups are made in one cgroup hierarchy, and which of its controllers are used there."""

    parent: Path
    version: int  # 2, or 1
    controllers: frozenset[str]  # "memory", "pids"

    def limits(self, memory_mb: int, processes: int) -> list[tuple[str, str]]:
        """The files to write in a new group, in order (v1's swap limit may not be below its memory limit)."""
        limits: list[tuple[str, str]] = []
        memory = str(memory_mb * 2**20) if memory_mb > 0 else None
        if "memory" in self.controllers and memory is not None:
            if self.version == 2:
                limits += [("memory.max", memory), ("memory.swap.max", "0")]
            else:
                limits += [("memory.limit_in_bytes", memory), ("memory.memsw.limit_in_bytes", memory)]
        if "pids" in self.controllers:
            limits.append(("pids.max", str(processes)))
        return limits


class Group:
    """One student's cgroup (one folder per hierarchy): made with its limits, joined by its first process, ended."""

    def __init__(self, folders: tuple[Path, ...], version: int) -> None:
        self.folders, self.version = folders, version

    def wrap(self, command: list[str]) -> list[str]:
        """``command`` started inside this group."""
        return ["/bin/sh", "-c", JOIN, "sh", *(str(folder / "cgroup.procs") for folder in self.folders), "--", *command]

    def memory_kills(self) -> int:
        """How many of its processes the kernel killed for the group's memory limit."""
        for folder in self.folders:
            events = "memory.events" if self.version == 2 else "memory.oom_control"
            try:
                text = (folder / events).read_text()
            except OSError:
                continue
            found = re.search(r"^oom_kill (\d+)$", text, re.MULTILINE)
            if found:
                return int(found.group(1))
        return 0

    def end(self) -> bool:
        """Kill what is left in the group and remove it; whether it is gone (else the program's end tries again).

        v1 has no ``cgroup.kill``: there the sandbox's end has killed everything (its PID namespace), and
        this waits for the processes to be gone.
        """
        if self.version == 2:
            with contextlib.suppress(OSError):  # Linux 5.14 and later
                (self.folders[0] / "cgroup.kill").write_text("1")
        deadline = time.monotonic() + END_WAIT
        left = [folder for folder in self.folders if not _remove(folder)]
        while left and time.monotonic() < deadline:
            time.sleep(0.02)
            left = [folder for folder in left if not _remove(folder)]
        if not left:
            _made.discard(self)
        return not left


@dataclass(frozen=True)
class Place:
    """Where this program makes students' groups: one :class:`Hierarchy` (v2) or two (v1: memory, pids)."""

    hierarchies: tuple[Hierarchy, ...]

    @property
    def version(self) -> int:
        return self.hierarchies[0].version

    def make(self, memory_mb: int, processes: int, name: str | None = None) -> Group:
        """A new group with these limits; ``OSError`` when it cannot be made."""
        name = name or f"{PREFIX}{os.getpid()}-{next(_numbers)}"
        made: list[Path] = []
        try:
            for hierarchy in self.hierarchies:
                folder = hierarchy.parent / name
                folder.mkdir()
                made.append(folder)
                for file, value in hierarchy.limits(memory_mb, processes):
                    if file not in OPTIONAL or (folder / file).exists():
                        (folder / file).write_text(value)
        except OSError:
            for folder in made:
                _remove(folder)
            raise
        group = Group(tuple(made), self.version)
        _made.add(group)
        return group


_numbers = itertools.count(1)
_made: set[Group] = set()  # groups not yet removed


@functools.cache
def place() -> Place | None:
    """Where students' groups can be made on this machine (None: nowhere), found once a program."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        mounts = _mounts()
        own = _own_groups()
    except OSError:
        return None
    for candidate in (_v2(mounts, own), _v1(mounts, own)):
        if candidate is not None and _works(candidate):
            return candidate
    return None


def _v2(mounts: dict[str, Path], own: dict[str, str]) -> Place | None:
    root, path = mounts.get("cgroup2"), own.get("")
    if root is None or path is None:
        return None
    folder = root / path.lstrip("/")
    parent = folder if folder == root else folder.parent
    try:
        enabled = set((parent / "cgroup.subtree_control").read_text().split())
    except OSError:
        return None
    if not {"memory", "pids"} <= enabled:
        return None
    return Place((Hierarchy(parent, 2, frozenset({"memory", "pids"})),))


def _v1(mounts: dict[str, Path], own: dict[str, str]) -> Place | None:
    hierarchies = []
    for controller in ("memory", "pids"):
        root, path = mounts.get(controller), own.get(controller)
        if root is None or path is None:
            return None
        hierarchies.append(Hierarchy(root / path.lstrip("/"), 1, frozenset({controller})))
    return Place(tuple(hierarchies))


def _mounts() -> dict[str, Path]:
    """The mount points of the cgroup hierarchies: ``cgroup2``, and v1's by controller (``memory``, ``pids``)."""
    found: dict[str, Path] = {}
    with open("/proc/self/mountinfo") as file:
        for line in file:
            fields = line.split()
            if " - " not in line or fields[3] != "/":  # a bind of a part of a hierarchy: not its root
                continue
            kind, _, options = line.split(" - ", 1)[1].split()[:3]
            if kind == "cgroup2":
                found.setdefault("cgroup2", Path(fields[4]))
            elif kind == "cgroup":
                for controller in ("memory", "pids"):
                    if controller in options.split(","):
                        found.setdefault(controller, Path(fields[4]))
    return found


def _own_groups() -> dict[str, str]:
    """This process's cgroup in each hierarchy: ``""`` for v2, else by controller."""
    found: dict[str, str] = {}
    with open("/proc/self/cgroup") as file:
        for line in file:
            number, controllers, path = line.rstrip("\n").split(":", 2)
            if number == "0" and not controllers:
                found[""] = path
            for controller in controllers.split(","):
                if controller in ("memory", "pids"):
                    found[controller] = path
    return found


def _works(candidate: Place) -> bool:
    """Make a group there, move a shell into it, remove it: whether all of it works here."""
    _remove_stale(candidate)
    try:
        group = candidate.make(64, 8, f"{PREFIX}{os.getpid()}-probe")
    except OSError:
        return False
    try:
        done = subprocess.run(group.wrap(["/bin/sh", "-c", "exit 0"]), capture_output=True, timeout=10, check=False)
        return done.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False
    finally:
        group.end()


def _remove_stale(candidate: Place) -> None:
    """Remove the empty groups of programs that no longer run (killed before they could)."""
    for hierarchy in candidate.hierarchies:
        try:
            entries = list(os.scandir(hierarchy.parent))
        except OSError:
            continue
        for entry in entries:
            found = re.fullmatch(re.escape(PREFIX) + r"(\d+)-\w+", entry.name)
            if found and entry.is_dir(follow_symlinks=False) and not _running(int(found.group(1))):
                _remove(Path(entry.path))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _remove(folder: Path) -> bool:
    """Remove an empty group; whether it is gone."""
    try:
        folder.rmdir()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


@atexit.register
def _end_all() -> None:
    """No group of this program outlives it (its students were killed just before: see engine.sandbox.process)."""
    for group in list(_made):
        group.end()
