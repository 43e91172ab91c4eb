"""The parent's side of a student's process: start it, ask it, end it and all it forked.

A :class:`StudentProcess` runs :mod:`engine.sandbox.child` in a new Python
process, in a session of its own (so that it and everything it forks form
one process group, ended together), with a memory limit. Two daemon threads
read its pipes: one collects answer lines (at most
:data:`~engine.sandbox.child.MAX_LINE` bytes each), one drains what the
student prints and passes the first ``output_bytes`` of it on to our stderr.
The caller's thread only waits on a queue in short slices, so a stop is
seen within :data:`POLL` seconds at every stage: while the process starts,
while the file loads, while the function thinks.

Every failure is a :class:`StudentFailure` whose message says what happened
(``did not answer within 2 s``, ``crashed (exit code 3)``, ``was stopped``).
The process is then ended, and the next :meth:`ask` needs a fresh one.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import numpy as np

from engine.errors import EngineError
from engine.sandbox.child import MAX_LINE, encode_board, one_line
from engine.stop import StopFlag

CHILD = Path(__file__).resolve().with_name("child.py")
#: How often a waiting caller looks at its stop flag (well inside the 50 ms a stop may take).
POLL = 0.01
POSIX = os.name == "posix"

#: Processes not yet ended, so that none outlives the program (see :func:`_end_all`).
_LIVE: weakref.WeakSet[StudentProcess] = weakref.WeakSet()


class StudentFailure(EngineError):
    """The student's process failed to answer: its message says how."""


class StudentProcess:
    """One running copy of a student's function; see the module docstring."""

    def __init__(
        self,
        path: str,
        function: str,
        *,
        memory_mb: int,
        output_bytes: int,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        self.path, self.function = path, function
        self.memory_mb, self.output_bytes = memory_mb, output_bytes
        self._echo = echo or _to_stderr
        self._answers: queue.Queue[bytes | None] = queue.Queue()
        self._process: subprocess.Popen[bytes] | None = None
        self._name = Path(path).name

    # -- life -------------------------------------------------------------------------
    def start(self, stop: StopFlag, timeout: float) -> None:
        """Start the process and wait until the file is loaded (``timeout`` s, or a stop)."""
        # Starting a process takes 100 ms and more on a busy machine: it happens on a helper
        # thread, so that a stop is seen at once; a process started too late is ended there.
        spawned: queue.Queue[subprocess.Popen[bytes] | OSError] = queue.Queue()
        _daemon(_spawn, [sys.executable, str(CHILD), self.path, self.function, str(self.memory_mb)], spawned)
        while True:
            try:
                started = spawned.get(timeout=POLL)
                break
            except queue.Empty:
                if stop.is_set():
                    _daemon(_end_when_started, spawned)
                    raise StudentFailure("was stopped (starting)") from None
        if isinstance(started, OSError):  # no more processes or descriptors: this agent cannot play now
            raise StudentFailure(f"could not be started ({started.strerror or started})")
        self._process = started
        _LIVE.add(self)
        assert self._process.stdout is not None and self._process.stderr is not None
        _daemon(_read_answers, self._process.stdout, self._answers)
        _daemon(_drain_output, self._process.stderr, self.output_bytes, self._name, self._echo)
        reply = self._receive(stop, timeout, "loading")
        if reply != "READY":
            self.close()
            raise StudentFailure(reply.removeprefix("ERROR ") if reply.startswith("ERROR ") else f"said {reply!r}")

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def ask(self, board: np.ndarray, player: int, stop: StopFlag, timeout: float) -> str:
        """Send one board; the answer line (``MOVE 3``, ``ERROR ...``, ``BAD ...``).

        ``timeout`` covers sending and receiving.
        """
        if self._process is None or self._process.stdin is None:
            raise StudentFailure("is not running")
        try:
            self._process.stdin.write(encode_board(board, player))
            self._process.stdin.flush()
        except OSError:  # the process is gone: its exit code says more
            pass
        return self._receive(stop, timeout, "choosing a move")

    def close(self) -> None:
        """End the process and everything it forked; safe to call twice."""
        process, self._process = self._process, None
        if process is None:
            return
        _LIVE.discard(self)
        _kill_group(process)
        _daemon(_reap, process)  # in the background: a stop must not wait for the kernel or the pipes

    # -- waiting ------------------------------------------------------------------------
    def _receive(self, stop: StopFlag, timeout: float, what: str) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._answers.get(timeout=POLL)
                break
            except queue.Empty:
                pass
            if stop.is_set():
                self.close()
                raise StudentFailure(f"was stopped ({what})")
            if time.monotonic() > deadline:
                self.close()
                raise StudentFailure(f"did not answer within {timeout:g} s ({what})")
        if line is None:  # the answer pipe closed: the process died, or closed its output
            raise StudentFailure(f"{self._exit_reason()} ({what})")
        if len(line) > MAX_LINE or not line.endswith(b"\n"):
            self.close()
            raise StudentFailure(f"sent an answer longer than {MAX_LINE} bytes ({what})")
        return one_line(line.decode("utf-8", "replace"))

    def _exit_reason(self) -> str:
        process = self._process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(timeout=1)
        self.close()
        if code is None:
            return "closed its answer pipe"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"crashed (killed by {name}; out of memory is one cause)"
        return f"crashed (exit code {code})"


# -- helpers ----------------------------------------------------------------------------
def _daemon(target: Callable[..., None], *args: Any) -> None:
    threading.Thread(target=target, args=args, daemon=True).start()


def _spawn(command: list[str], into: queue.Queue[subprocess.Popen[bytes] | OSError]) -> None:
    """Start the child in a session of its own (POSIX; a new process group on Windows)."""
    environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONIOENCODING="utf-8")
    options: dict[str, Any] = {"start_new_session": True} if POSIX else {}
    if not POSIX:
        options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
    try:
        pipe = subprocess.PIPE
        into.put(subprocess.Popen(command, stdin=pipe, stdout=pipe, stderr=pipe, env=environment, **options))
    except OSError as exc:
        into.put(exc)


def _end_when_started(spawned: queue.Queue[subprocess.Popen[bytes] | OSError]) -> None:
    """End a process whose start was abandoned (a stop came first) as soon as it exists."""
    started = spawned.get()
    if not isinstance(started, OSError):
        _kill_group(started)
        _reap(started)


def _reap(process: subprocess.Popen[bytes]) -> None:
    """Wait for a killed process and close its pipes (their reader threads have seen the end by then)."""
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()


def _read_answers(stream: IO[bytes], answers: queue.Queue[bytes | None]) -> None:
    """Pass each answer line on; a line over the limit ends the reading (the parent refuses it)."""
    with contextlib.suppress(OSError, ValueError):
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                break
            answers.put(line)
            if len(line) > MAX_LINE or not line.endswith(b"\n"):
                break
    answers.put(None)


def _drain_output(stream: IO[bytes], limit: int, name: str, echo: Callable[[str], None]) -> None:
    """Show the first ``limit`` bytes the student prints; read and drop the rest."""
    shown = 0
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read1(65536):  # type: ignore[attr-defined]
            if shown < limit:
                part = chunk[: limit - shown]
                shown += len(part)
                echo(f"[{name}] " + part.decode("utf-8", "replace").rstrip("\n").replace("\n", f"\n[{name}] "))
                if shown >= limit:
                    echo(f"[{name}] (more output dropped: the limit is {limit:,} bytes)")


def _to_stderr(text: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr, flush=True)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the process and, on POSIX, every process of its group (what it forked)."""
    if POSIX:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # the group id is the pid: it leads its own session
    with contextlib.suppress(OSError):
        process.kill()


@atexit.register
def _end_all() -> None:
    """No student process outlives the program, however it ends its games."""
    for student in list(_LIVE):
        student.close()
