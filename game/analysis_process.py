"""The game's side of the analysis process (:mod:`engine.analysis_service`): jobs out, snapshots back.

The live analysis and the game review run in a child process, so that their
Python work and their kernel loading never hold this process's interpreter
lock while the window waits to draw a frame (see the service's docstring).
The process is a :class:`~game.jobs.Runner` of the lanes of :mod:`game.jobs`:
a job's kind (``Kind.ANALYZE`` or ``Kind.REVIEW``) names the service's job, its work is the
board. The child is started on the first job and kept for the next ones (its
solver's table stays warm from one position to the next) until it has been
idle for :attr:`AnalysisProcess.idle_seconds` (a minute): then it ends, and
the 200 MB and more it holds (the kernels of every board it analysed, its
tables) go back to the system; the next job starts a new one, which takes
a few seconds to load its kernels (the panel says "starting"). A reader thread
adds what it sends to the items of its :class:`~game.jobs.Job`, and the
scenes read the job each frame. The child runs one job at a time: a new job
(of either kind) or :meth:`AnalysisProcess.cancel` stops the one under way at
once, and only the newest job's items are kept.

If the child fails (it cannot start, or it ends), the job says so and the
next job starts a new child; the game goes on either way.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from game import heap
from game.jobs import Kind

if TYPE_CHECKING:
    from engine.board import Board
    from game.jobs import Job

PROJECT_DIR = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "engine.analysis_service"]
#: Seconds the child waits for a job, none being under way, before it ends (and its memory is freed).
IDLE_SECONDS = 60.0


class AnalysisProcess:
    """One child process running one analysis or review job at a time."""

    def __init__(self, command: list[str] | None = None) -> None:
        self._command = command or COMMAND
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._jobs: dict[int, tuple[Job[Any], Callable[[dict[str, Any]], Any]]] = {}  # sent, not yet ended
        self._current = 0  # the job whose items are wanted (0: none)
        self._closed = False
        #: The bound on an analysis' solve stage, in seconds (None: the engine's, SOLVE_SECONDS): after it the
        #: child says "unsolved" and waits idle for the next job (tests shorten it).
        self.solve_seconds: float | None = None
        #: How long the child waits for a job with none under way before it is ended (tests shorten it).
        self.idle_seconds = IDLE_SECONDS
        self._idle: threading.Timer | None = None  # ends the idle child

    def start(self, job: Job[Any], work: Board | tuple[Board, dict[str, Any]]) -> None:
        """Run the service's job ``job.kind`` (analyze, review, lessons, explain, answer) on the board ``work``
        (or a board and more fields of the request: a ``lessons`` job's plies, the players' names, ...); its
        items go into ``job``. Stops any
        earlier job."""
        from engine.analysis_service import DECODERS, position_data  # here: the first frame waits for no engine

        with self._lock:
            self._stop_idle_timer_locked()
            number = self._current = job.number
            self._jobs[number] = (job, DECODERS[job.kind])
            process = self._started_locked(job)
        board, fields = work if isinstance(work, tuple) else (work, {})
        if process is not None:
            job.begin()  # (the child runs one job at a time: a new one stops the one before)
            request = {**fields, "id": number, "job": job.kind, "position": position_data(board)}
            if job.kind == Kind.ANALYZE and self.solve_seconds is not None:
                request["seconds"] = self.solve_seconds
            self._send(process, request)

    def cancel(self, job: Job[Any]) -> None:
        """Stop ``job`` if it is the one under way (it finishes when the child has stopped)."""
        with self._lock:
            current = self._jobs.get(self._current)
            if current is None or current[0] is not job:
                return
            self._current = 0
            process = self._process
        if process is not None:
            self._send(process, {"job": "stop"})

    def close(self) -> None:
        """End the child now (it holds nothing worth waiting for); later jobs are refused."""
        with self._lock:
            self._closed = True
            self._stop_idle_timer_locked()
            process, self._process = self._process, None
        if process is not None:
            _kill(process)

    # -- an idle child ends ----------------------------------------------------------------
    def _stop_idle_timer_locked(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def _end_when_idle_locked(self) -> None:
        """No job is under way: the child ends unless a job comes within :attr:`idle_seconds`."""
        process = self._process
        if process is not None and not self._jobs and self._idle is None:
            self._idle = threading.Timer(self.idle_seconds, self._end_if_idle, (process,))
            self._idle.daemon = True
            self._idle.start()

    def _end_if_idle(self, process: subprocess.Popen[str]) -> None:
        with self._lock:
            if self._process is not process or self._jobs:
                return  # a job came meanwhile
            self._process, self._idle = None, None
        _kill(process)

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs (None before the first job and after :meth:`close`)."""
        process = self._process
        return None if process is None or process.poll() is not None else process.pid

    # -- the child --------------------------------------------------------------------------
    def _started_locked(self, job: Job[Any]) -> subprocess.Popen[str] | None:
        """The running child, started if need be; None (and the job says why) if there is none."""
        if self._process is not None and self._process.poll() is None:
            return self._process
        problem = "the game is closing" if self._closed else None
        if problem is None:
            try:
                self._process = _spawn(self._command)
            except OSError as exc:
                problem = f"cannot start the analysis process: {exc.strerror or exc}"
        if problem is not None:
            job.finish(error=problem)
            return None
        process = self._process
        assert process is not None and process.stdout is not None
        threading.Thread(target=self._read, args=(process, process.stdout), name="analysis-reader", daemon=True).start()
        return process

    def _send(self, process: subprocess.Popen[str], message: dict[str, Any]) -> None:
        assert process.stdin is not None
        try:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
        except (OSError, ValueError):  # it has ended (the reader reports it to the jobs) or was closed
            pass

    def _read(self, process: subprocess.Popen[str], lines: IO[str]) -> None:
        """The reader thread: each line the child writes goes to its job."""
        with contextlib.suppress(OSError, ValueError):
            for line in lines:
                try:
                    message = json.loads(line)
                    self._deliver(message)
                except (ValueError, TypeError, KeyError):
                    continue  # not a line of the protocol (the child never sends one): skip it
        status = process.wait()
        with self._lock:
            if self._process is process:
                self._process = None
            ended: dict[int, tuple[Job[Any], Callable[[dict[str, Any]], Any]]] = {}
            if self._process is None:  # (else a newer child has the jobs: this one ended idle)
                ended, self._jobs = self._jobs, {}
        for job, _ in ended.values():
            if not job.finished:
                job.finish(error=f"the analysis process ended (exit status {status})")

    def _deliver(self, message: dict[str, Any]) -> None:
        number = message["id"]
        skipped: list[Job[Any]] = []
        with self._lock:
            job = self._jobs.get(number)
            wanted = number == self._current
            if job is not None and ("end" in message or "error" in message):
                del self._jobs[number]
                # the child takes jobs in order and skips those a newer one replaced before they began: the
                # jobs before this one have ended or never will
                skipped = [self._jobs.pop(older)[0] for older in [older for older in self._jobs if older < number]]
                self._end_when_idle_locked()
        for older in skipped:
            if not older.finished:
                older.finish()  # (cancelled: nobody reads it)
        if job is None:
            return
        work, decode = job
        if "item" in message:
            if wanted:
                work.report(decode(message["item"]))
            return
        work.finish(error=message.get("error"))


def _spawn(command: list[str]) -> subprocess.Popen[str]:
    """Start the child in a session of its own (so that it is ended as a group), at a low priority."""
    options: dict[str, Any] = {}
    if sys.platform == "win32":
        options["creationflags"] = subprocess.IDLE_PRIORITY_CLASS | subprocess.CREATE_NEW_PROCESS_GROUP
    else:
        options["start_new_session"] = True  # the child lowers its own priority (engine.analysis_service)
    return subprocess.Popen(
        command,
        cwd=PROJECT_DIR,
        env={**os.environ, **heap.CHILD_ENVIRONMENT},  # its tables go back to the system when freed
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        bufsize=1,
        **options,
    )


def _kill(process: subprocess.Popen[str]) -> None:
    if sys.platform != "win32":
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()
    with contextlib.suppress(OSError, ValueError):
        if process.stdin is not None:
            process.stdin.close()
