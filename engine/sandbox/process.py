"""The parent's side of a student's process: start it, ask it, end it and all it forked.

A :class:`StudentProcess` runs :mod:`engine.sandbox.child` in a new Python
process inside the sandbox of :mod:`engine.sandbox.boundary` (namespaces of
its own: ending its first process ends everything it started), in a session
of its own, with limits on memory and processes. Processes are started by one
long-lived thread, because Linux sends the "parent died" signal that ends a
sandbox when the *thread* that started it ends, not the program. Two daemon threads
read its pipes: one collects answer lines (at most
:data:`~engine.sandbox.child.MAX_LINE` bytes each), one drains what the
student prints and passes the first ``output_bytes`` of it on to our stderr,
a whole line at a time with the file's name in front (:class:`LineRelay`).
The caller's thread only waits on a queue in short slices, so a stop is
seen within :data:`POLL` seconds at every stage: while the process starts,
while the file loads, while the function thinks. Between its answers the
student runs nothing (:mod:`engine.sandbox.pause`): its process is stopped
when an answer is in and resumed when it is asked again.

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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple

import numpy as np

from engine.errors import AgentFailure
from engine.sandbox import boundary, cgroup
from engine.sandbox.boundary import Boundary, Launch
from engine.sandbox.child import MAX_LINE, encode_board, one_line
from engine.sandbox.pause import GroupPause, Pause, SandboxPause
from engine.sandbox.text import clean
from engine.sandbox.view import note_contestant, view_of
from engine.stop import StopFlag

#: How often a waiting caller looks at its stop flag (well inside the 50 ms a stop may take).
POLL = 0.01
POSIX = os.name == "posix"

#: Processes not yet ended, so that none outlives the program (see :func:`_end_all`).
_LIVE: weakref.WeakSet[StudentProcess] = weakref.WeakSet()


class StudentFailure(AgentFailure):
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
        interface: str = "auto",
        echo: Callable[[str], None] | None = None,
        confinement: Boundary | None = None,
        files: Sequence[str | Path] | None = None,
    ) -> None:
        self.path, self.function = str(Path(path).resolve()), function  # the file itself, not a link to it
        #: The files the student sees beside its own (None: its submission, see engine.sandbox.view).
        self.files = None if files is None else [Path(file).resolve() for file in files]
        note_contestant(Path(self.path), function)  # another student of this program never sees this file
        self._boundary = confinement
        self.interface = interface  # "classroom", "kaggle", ... once started (the child tells which, for "auto")
        self.memory_mb, self.output_bytes = memory_mb, output_bytes
        self._echo = echo or _to_stderr
        self._answers: queue.Queue[bytes | None] = queue.Queue()
        self._process: subprocess.Popen[bytes] | None = None
        self._name = Path(path).name
        self._confined = False
        self._oom_kills = 0  # the machine's count of out-of-memory kills when this process started
        self._pause = Pause()  # stops the student between its moves (engine.sandbox.pause)
        self._cgroup: cgroup.Group | None = None  # its sandbox's cgroup, where there is one

    # -- life -------------------------------------------------------------------------
    def start(self, stop: StopFlag, timeout: float) -> None:
        """Start the process and wait until the file is loaded (``timeout`` s, or a stop)."""
        # Starting a process takes 100 ms and more on a busy machine: it happens on a helper
        # thread, so that a stop is seen at once; a process started too late is ended there.
        spawned: Started = queue.Queue()
        self._oom_kills = _oom_kills()
        _SPAWNER.put((self._command, spawned))
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
        self._process, first, self._cgroup = started
        _LIVE.add(self)
        assert self._process.stdout is not None and self._process.stderr is not None
        _daemon(_read_answers, self._process.stdout, self._answers)
        _daemon(_drain_output, self._process.stderr, self.output_bytes, self._name, self._echo)
        reply = self._receive(stop, timeout, "loading")
        kind, _, interface = reply.partition(" ")
        if kind != "READY" or interface not in ("classroom", "kaggle", "pettingzoo", "openspiel"):
            self.close()
            raise StudentFailure(reply.removeprefix("ERROR ") if reply.startswith("ERROR ") else f"said {reply!r}")
        self.interface = interface
        self._pause = self._pause_of(first)
        self._pause.hold()  # nothing it started while loading runs through its rival's first turn

    def _pause_of(self, first: int | None) -> Pause:
        """How this process is stopped between moves: in its sandbox, or as a process group outside one."""
        assert self._process is not None
        if first is None:
            return GroupPause(self._process.pid) if POSIX else Pause()
        try:
            return SandboxPause(first)
        except OSError as exc:
            announce_once(f"[{clean(self._name)}] it is not stopped between its moves here ({exc})", self._echo)
            return Pause()

    def _command(self) -> Launch:
        """How to start the child inside this machine's boundary (on the spawning thread: it reads files)."""
        wall = self._boundary or boundary.current()
        if wall.missing:
            announce_once(wall.summary(), self._echo)
        view = view_of(Path(self.path), self.function, self.files) if wall.confined else None
        if view is not None and view.note:
            announce_once(f"[{clean(self._name)}] {view.note}", self._echo)
        namespace = pid_namespace() if wall.confined else ""
        rest = [self.function, self.interface, str(boundary.MAX_PROCESSES), str(0 if wall.confined else os.getpid())]
        self._confined = wall.confined
        return wall.launch(view, Path(self.path), self.memory_mb, [*rest, namespace, *boundary.site_folders()])

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def ask(self, board: np.ndarray, player: int, stop: StopFlag, timeout: float, connect: int = 4) -> str:
        """Send one board; the answer line (``MOVE 3``, ``ERROR ...``, ``BAD ...``).

        ``timeout`` covers sending and receiving (a Kaggle agent is told it as its ``actTimeout``).
        """
        if self._process is None or self._process.stdin is None:
            raise StudentFailure("is not running")
        self._pause.release()  # its time counts from here
        try:
            self._process.stdin.write(encode_board(board, player, connect, timeout))
            self._process.stdin.flush()
        except OSError:  # the process is gone: its exit code says more
            pass
        answer = self._receive(stop, timeout, "choosing a move")
        self._pause.hold()  # nothing of it runs through its rival's turn
        return answer

    def close(self) -> None:
        """End the process and everything it forked; safe to call twice."""
        process, self._process = self._process, None
        if process is None:
            return
        _LIVE.discard(self)
        _kill_group(process)
        self._pause.close()
        self._pause = Pause()
        _daemon(_reap, process, self._cgroup)  # in the background: a stop must not wait for the kernel or the pipes
        self._cgroup = None

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
        return clean(one_line(line.decode("utf-8", "replace")))

    def _exit_reason(self) -> str:
        process = self._process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(timeout=1)
        over = self._cgroup is not None and self._cgroup.memory_kills() > 0  # read before close() removes it
        self.close()
        if code is None:
            return "closed its answer pipe"
        number = -code if code < 0 else code - 128 if self._confined and code > 128 else 0  # bwrap: 128 + signal
        if not number:
            return f"crashed (exit code {code})"
        if number == signal.SIGKILL and over:
            return f"was killed for using more than its {self.memory_mb} MB of memory in all its processes together"
        if number == signal.SIGKILL and _oom_kills() > self._oom_kills:
            return "was killed by the system's out-of-memory killer (the machine ran short of memory)"
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"crashed (killed by {name})"


# -- helpers ----------------------------------------------------------------------------
def _daemon(target: Callable[..., None], *args: Any) -> None:
    threading.Thread(target=target, args=args, daemon=True).start()


class Spawned(NamedTuple):
    """A started child, the host's process id of its sandbox's first process and the sandbox's cgroup."""

    process: subprocess.Popen[bytes]
    first: int | None  # None: no sandbox
    group: cgroup.Group | None  # None: none here


Started = queue.Queue["Spawned | OSError"]
Request = tuple[Callable[[], Launch], Started]


class _Spawner:
    """One thread that starts every child and lives as long as the program (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owner = 0  # the process whose thread serves the queue (a forked copy starts its own)
        self._requests: queue.Queue[Request] = queue.Queue()

    def put(self, request: Request) -> None:
        with self._lock:
            if self._owner != os.getpid():
                self._owner, self._requests = os.getpid(), queue.Queue()
                _daemon(self._serve, self._requests)
            self._requests.put(request)

    @staticmethod
    def _serve(requests: queue.Queue[Request]) -> None:
        while True:
            command, into = requests.get()
            try:
                into.put(_spawn(command()))
            except OSError as exc:
                into.put(exc)


_SPAWNER = _Spawner()


def _spawn(launch: Launch) -> Spawned:
    """Start the child in a session of its own (POSIX; a new process group on Windows)."""
    options: dict[str, Any] = {"start_new_session": True, "pass_fds": launch.fds} if POSIX else {}
    if not POSIX:
        options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
    pipe = subprocess.PIPE
    try:
        process = subprocess.Popen(
            launch.command, stdin=pipe, stdout=pipe, stderr=pipe, env=launch.environment, cwd=launch.cwd, **options
        )
    except OSError:
        launch.abandon()
        raise
    finally:
        launch.close()
    try:
        first = launch.started(process)
    except OSError:
        _kill_group(process)
        _reap(process, launch.group)
        raise
    return Spawned(process, first, launch.group)


def pid_namespace() -> str:
    """This process's PID namespace (``pid:[4026531836]``), or "" where it cannot be told."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except (OSError, AttributeError):
        return ""


_ANNOUNCED: set[str] = set()


def announce_once(line: str, echo: Callable[[str], None]) -> None:
    """Say once a program what the sandbox lacks here (the grader's children say it through here too)."""
    if line not in _ANNOUNCED:
        _ANNOUNCED.add(line)
        echo(line)


def _oom_kills() -> int:
    """How many processes the kernel's out-of-memory killer has ended since boot (0 where unknown)."""
    try:
        with open("/proc/vmstat", "rb") as file:
            for line in file:
                if line.startswith(b"oom_kill "):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _end_when_started(spawned: Started) -> None:
    """End a process whose start was abandoned (a stop came first) as soon as it exists."""
    started = spawned.get()
    if not isinstance(started, OSError):
        _kill_group(started.process)
        _reap(started.process, started.group)


def _reap(process: subprocess.Popen[bytes], group: cgroup.Group | None = None) -> None:
    """Wait for a killed process, close its pipes (their reader threads have seen the end by then) and end its
    sandbox's cgroup."""
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
    if group is not None:
        group.end()


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


#: The longest printed line passed on whole, in bytes; the rest of a longer line is dropped (and said so).
MAX_PRINTED_LINE = 1000


class LineRelay:
    """What a student prints, passed on a whole line at a time, each line with the file's name in front.

    The pipe hands over chunks wherever the student's writes and the kernel cut them, so one
    ``print`` may arrive in pieces and one chunk may hold many lines: the relay keeps the piece of a
    line until its end comes (or the output ends), cuts a line longer than ``line_limit`` bytes, and
    stops passing lines on after ``limit`` bytes in all (saying so once).
    """

    def __init__(self, name: str, limit: int, echo: Callable[[str], None], line_limit: int = MAX_PRINTED_LINE) -> None:
        self.name, self.limit, self.echo, self.line_limit = name, limit, echo, line_limit
        self.shown = 0  # bytes passed on so far
        self._line = bytearray()  # the line being received
        self._cut = False  # the line being received is longer than line_limit: the rest of it is dropped
        self._full = limit <= 0  # the limit was reached: nothing more is shown

    def feed(self, chunk: bytes) -> None:
        """Take what the pipe gave: every line it completes is passed on."""
        while chunk and not self._full:
            end = chunk.find(b"\n")
            piece, chunk = (chunk, b"") if end < 0 else (chunk[:end], chunk[end + 1 :])
            room = self.line_limit - len(self._line)
            if len(piece) > room:
                self._cut = True
            self._line += piece[: max(0, room)]
            if end >= 0:
                self._pass_line()

    def close(self) -> None:
        """The output ended: a last line without its end is passed on too."""
        if (self._line or self._cut) and not self._full:
            self._pass_line()

    def _pass_line(self) -> None:
        line, cut = bytes(self._line), self._cut
        self._line, self._cut = bytearray(), False
        line = line[: max(0, self.limit - self.shown)]
        self.shown += len(line) + 1
        text = clean(line.decode("utf-8", "replace").rstrip("\r"))
        rest = f" … (the rest of a line over {self.line_limit:,} bytes)" if cut else ""
        self.echo(f"[{clean(self.name)}] {text}{rest}")
        if self.shown >= self.limit:
            self._full = True
            self.echo(f"[{clean(self.name)}] (more output dropped: the limit is {self.limit:,} bytes)")


def _drain_output(stream: IO[bytes], limit: int, name: str, echo: Callable[[str], None]) -> None:
    """Show the first ``limit`` bytes the student prints, whole lines at a time; read and drop the rest."""
    relay = LineRelay(name, limit, echo)
    with contextlib.suppress(OSError, ValueError):
        while chunk := stream.read1(65536):  # type: ignore[attr-defined]
            relay.feed(chunk)
    relay.close()


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
