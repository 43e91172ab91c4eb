"""The parent's side of the grading child: copies of a student's files, the sandbox, requests with a time limit.

A :class:`GradingProcess` runs :mod:`engine.grade.child` on copies of one
student's files and nothing else of the user's (the grader lays out each
student's files itself, so a class sharing one folder is safe), inside the
sandbox of :mod:`engine.sandbox.boundary`, with a memory limit and a limit
on processes.
It sends one JSON request a line and waits for the answer at most a given
number of seconds; a student that does not answer in time, crashes, or sends
more than :data:`MAX_REPLY` bytes is ended (with everything it started) and
the failure is a :class:`ChildFailure` whose message says which. Nothing the
child sends is evaluated: replies are parsed as JSON and read as data.

:func:`launch_command` is the one place that knows how the sandbox starts a
process; everything else here is plain process handling.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from engine.errors import AgentFailure
from engine.sandbox import boundary, cgroup
from engine.sandbox.boundary import Launch
from engine.sandbox.process import announce_once, pid_namespace
from engine.sandbox.view import View

#: The child script (copied into the sandbox, read-only).
CHILD = Path(__file__).resolve().with_name("child.py")
#: The longest answer line read, in bytes (a recorded search of 20,000 calls is about 2 MB).
MAX_REPLY = 16 * 2**20
#: How often a waiting caller looks at the clock.
POLL = 0.05


class ChildFailure(AgentFailure):
    """The student's process did not answer: it ran out of time, crashed, or sent too much."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class GradingProcess:
    """One student's module loaded in the grading child; see the module docstring."""

    def __init__(self, files: Mapping[str, bytes], main: str, *, memory_mb: int, seed: int) -> None:
        """``files``: the student's files by path inside the submission (``"alice.py"``,
        ``"helpers/board.py"``); ``main``: the one to load."""
        self.files, self.main = dict(files), main
        self.memory_mb, self.seed = memory_mb, seed
        self.names: list[str] = []  # the functions and classes the file defines, once loaded
        self._folder: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._group: cgroup.Group | None = None  # the sandbox's cgroup, where one can be made
        self._replies: queue.Queue[bytes | None] = queue.Queue()
        self._requests = 0

    # -- life ------------------------------------------------------------------------------
    def start(self, timeout: float) -> dict[str, Any]:
        """Start the child and wait for the file to load; the child's first message (``ready``, ``error``)."""
        self._folder = Path(tempfile.mkdtemp(prefix="grade-"))
        for name, data in self.files.items():
            path = self._folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        try:
            launch = launch_command(self._folder, self.files, self.main, self.memory_mb, self.seed)
        except OSError as exc:  # no memory group, no descriptors: this student cannot be started now
            self.close()
            raise ChildFailure(f"could not be started ({exc})") from None
        self._process, self._group = _spawn(launch), launch.group
        _daemon(_read_lines, self._process.stdout, self._replies)
        _daemon(_drain, self._process.stderr)
        first = self._receive(timeout, "loading the file")
        if first.get("ready") is True:
            self.names = [str(name) for name in first.get("names", []) if isinstance(name, str)]
        return first

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request; its answer, or :class:`ChildFailure` (the process is then ended)."""
        if self._process is None or self._process.stdin is None:
            raise ChildFailure("is not running")
        self._requests += 1
        line = json.dumps({**request, "id": self._requests}, ensure_ascii=True) + "\n"
        try:
            self._process.stdin.write(line.encode("ascii"))
            self._process.stdin.flush()
        except OSError:  # gone: the exit code says more
            pass
        reply = self._receive(timeout, "answering")
        if reply.get("id") != self._requests:
            self.close()
            raise ChildFailure("answered out of turn")
        return reply

    def close(self) -> None:
        """End the process and all it started, and remove the copies; safe to call twice."""
        process, self._process = self._process, None
        group, self._group = self._group, None
        if process is not None:
            _kill_group(process)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
            for stream in (process.stdin, process.stdout, process.stderr):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()
        if group is not None:
            group.end()  # whatever of the student is left in it is killed, and the group removed
        folder, self._folder = self._folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def __enter__(self) -> GradingProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- waiting -------------------------------------------------------------------------------
    def _receive(self, timeout: float, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._replies.get(timeout=POLL)
                break
            except queue.Empty:
                if time.monotonic() > deadline:
                    self.close()
                    raise ChildFailure(f"ran out of time ({timeout:g} s, {what})", timed_out=True) from None
        if line is None:
            raise ChildFailure(f"{self._exit_reason()} ({what})")
        if len(line) > MAX_REPLY or not line.endswith(b"\n"):
            self.close()
            raise ChildFailure(f"sent an answer longer than {MAX_REPLY // 2**20} MB ({what})")
        try:
            reply = json.loads(line)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):
            self.close()
            raise ChildFailure(f"sent something that is not an answer ({what})")
        return reply

    def _exit_reason(self) -> str:
        process = self._process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(timeout=2)
        self.close()
        if code is None:
            return "closed its answers"
        number = -code if code < 0 else code - 128 if code > 128 else 0  # bwrap reports 128 + the signal
        if number == signal.SIGKILL:
            return "was killed (SIGKILL: it may have used more memory than the machine had)"
        if number:
            with contextlib.suppress(ValueError):
                return f"crashed ({signal.Signals(number).name})"
        return f"crashed (exit code {code})"


def launch_command(folder: Path, files: Mapping[str, bytes], main: str, memory_mb: int, seed: int) -> Launch:
    """How the child starts on the student's ``main`` file, in this machine's sandbox.

    The one place that knows the sandbox's API: the student sees copies of its own ``files`` and
    nothing else of the user's (:class:`engine.sandbox.view.View`); where no sandbox can start it
    runs as a plain process on the copies in ``folder``, with its limits (said once, as for agents).
    """
    wall = boundary.current()
    if wall.missing:
        announce_once(wall.summary(), _warn)
    view = None
    if wall.confined:
        ordered = [(main, files[main]), *((name, data) for name, data in files.items() if name != main)]
        view = View(tuple(ordered))
    namespace = pid_namespace() if wall.confined else ""
    processes, parent = (boundary.MAX_PROCESSES, 0) if wall.confined else (0, os.getpid())
    rest = [str(processes), str(parent), namespace, str(seed), *boundary.site_folders()]
    return wall.launch(view, folder / main, memory_mb, rest, script=CHILD)


def _spawn(launch: Launch) -> subprocess.Popen[bytes]:
    """Start the child in a session of its own, as the sandbox's :class:`~engine.sandbox.boundary.Launch` asks."""
    pipe = subprocess.PIPE
    try:
        process = subprocess.Popen(
            launch.command,
            stdin=pipe,
            stdout=pipe,
            stderr=pipe,
            env=launch.environment,
            cwd=launch.cwd,
            pass_fds=launch.fds,
            start_new_session=True,
        )
    except OSError:
        launch.abandon()
        raise ChildFailure("could not be started") from None
    finally:
        launch.close()
    try:
        launch.started(process)
    except OSError as exc:
        _kill_group(process)
        process.wait()
        if launch.group is not None:
            launch.group.end()
        raise ChildFailure(f"could not be started ({exc})") from None
    return process


def _warn(line: str) -> None:
    print(f"warning: {line}", file=sys.stderr, flush=True)


def _daemon(target: Any, *args: Any) -> None:
    threading.Thread(target=target, args=args, daemon=True).start()


def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Pass each answer line on; one over the limit ends the reading (the caller refuses it)."""
    with contextlib.suppress(OSError, ValueError):
        while True:
            line = stream.readline(MAX_REPLY + 1)
            if not line:
                break
            lines.put(line)
            if len(line) > MAX_REPLY:
                break
    lines.put(None)


def _drain(stream: IO[bytes]) -> None:
    """Read what the student prints and drop it: marks come from answers, and a full pipe would block it."""
    with contextlib.suppress(OSError, ValueError):
        while stream.read1(65536):  # type: ignore[attr-defined]
            pass


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()
