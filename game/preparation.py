"""Getting the computer players ready: their kernels compiled (on a first start) and loaded, in the right order.

numba compiles a kernel the first time it runs and keeps the result in its
on-disk cache. On the first start of a version that takes seconds per agent
family (alpha-beta, MCTS, the solver), so the order matters: the players of
the match about to start (or the one the menu's quick game would start) come
first, the other difficulty levels after them, at a low priority. A match that
starts with a player still waiting moves it to the front, interrupting the
compiling of a player nobody waits for.

Compiling happens in a child process (``python -m engine.warmup SPEC``),
one player at a time: compiling takes far more memory than loading compiled
code, and a process keeps what its compiler took, so the game only loads
from the cache (the kernels of MCTS and the solver, compiled in the game's
own process, push it past 500 MB). The child is in its own process group and
:meth:`Preparer.close` ends it at once, so closing the window never leaves a
compiler running. A marker file per player in numba's cache folder (one
folder per engine version) says it was compiled; a later start only loads.

A match's players are prepared in two steps: first what their first move
needs (an *opening* task: ``python -m engine.warmup --opening 7x6x4 --jobs 2
SPEC``, without the endgame solver of Monte Carlo tree search or the solver
the opening book stands in for; its child compiles the independent parts of
the move in a second process of its own group, on the second core), then
everything else. The first moves of a game wait for the first step only.

Last, once a version, the solver's search built ahead of time
(:data:`AHEAD_OF_TIME`): not for the game, but for a ``python -m engine solve``
started afresh later, which then answers a middle game without loading numba.

Students' agents (any spec that names a file to run: ``file.py:function``,
``classroom:path=...``) are never prepared: their file is loaded only by a
match that a person chose it for.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from game.players import spec_label
from game.worker import lower_priority

if TYPE_CHECKING:
    from engine.board import Board
    from engine.geometry import Geometry
    from engine.startup import Preparation
    from engine.stop import StopFlag

PROJECT_DIR = Path(__file__).resolve().parent.parent
POLL = 0.05  # seconds between looks at the stop flag of a move waiting for its player
OPENING_JOBS = min(2, os.cpu_count() or 1)  # processes that compile a player's first move


@dataclass(frozen=True)
class Task:
    """One agent spec to prepare, for narrow boards (up to 64 bits) or wide ones (8x8, 9x9).

    With ``opening`` (a board's columns, rows and connect) only what the
    first move of a game on that board needs.
    """

    spec: str
    wide: bool = False
    opening: tuple[int, int, int] | None = None
    ahead_of_time: bool = False  # not a player: the solver's search for commands started afresh (see below)

    @classmethod
    def first_move(cls, spec: str, geometry: Geometry) -> Task:
        """What ``spec``'s first move of a game on ``geometry`` needs."""
        return cls(spec, geometry.wide, (geometry.cols, geometry.rows, geometry.connect))

    def covers(self, board: Board) -> bool:
        """True if this is a first-move task and a move at ``board`` (a first move on its board) needs no more."""
        geometry = board.geometry
        return self.opening == (geometry.cols, geometry.rows, geometry.connect) and board.ply <= 1


#: The last task of a first start: :class:`engine.startup.SearchAheadOfTime`, once a version, at a low priority.
#: The game never uses it (it has numba loaded); a ``solve`` or ``analyze`` started later answers without numba.
AHEAD_OF_TIME = Task("", ahead_of_time=True)


@dataclass(frozen=True)
class Progress:
    """What is being prepared now, for the notes on screen."""

    spec: str
    compiling: bool  # compiled (a first start: seconds), or only loaded from the cache
    opening: bool  # only what the first move needs (the rest comes next)
    done: int  # players finished since the preparing began
    total: int  # players to prepare in all, as far as known
    since: float  # time.monotonic() when this player's turn began
    ahead_of_time: bool = False  # not a player: the solver's search built ahead of time

    def seconds(self) -> float:
        return time.monotonic() - self.since

    def sentence(self) -> str:
        """One short line for the screens, e.g. ``First start: preparing Hard's first move (1 of 8), 2 s``."""
        what = "First start: preparing" if self.compiling else "Loading"
        if self.ahead_of_time:
            what, player = "First start: building", "the solver's search for the command line"
        elif self.opening:
            player = f"{spec_label(self.spec)}'s first move"
        else:
            player = spec_label(self.spec)
        return f"{what} {player} ({self.done + 1} of {self.total}), {self.seconds():.0f} s"


def engine_preparation(task: Task) -> Preparation:
    """The engine's side of ``task`` (its command, whether it is done, the compiler's set-up, its loading):
    :func:`engine.startup.preparation` or :class:`engine.startup.SearchAheadOfTime`, the game's only calls
    into :mod:`engine.startup`."""
    from engine.startup import SearchAheadOfTime, preparation

    if task.ahead_of_time:
        return SearchAheadOfTime()
    return preparation(task.spec, wide=task.wide, opening=task.opening)


def is_compiled(task: Task) -> bool:
    """True once ``task`` is in the on-disk cache (or when there is no cache to fill: numba compiles in place)."""
    return engine_preparation(task).is_done()


def preparable(spec: str) -> bool:
    """False for an empty spec and for any spec that names a file to run (a student's agent,
    ``file.py:function`` or ``classroom:path=...``: its file runs only in the match a person chose
    it for); those are never prepared, and nobody waits for them.

    The rule is the engine's :func:`~engine.agents.registry.runs_a_file`, which reads the text
    alone (it loads no agent). A spec that does not parse fails in its child at once (the match
    shows why).
    """
    from engine.agents.registry import runs_a_file

    return bool(spec.strip()) and not runs_a_file(spec)


def compile_command(task: Task) -> list[str]:
    """The child's command line; on two cores or more, an opening's independent parts compile at once."""
    return engine_preparation(task).command(parent=os.getpid(), jobs=OPENING_JOBS)


class Preparer:
    """A background thread that prepares :class:`Task` s: urgent ones first, then the planned ones in order.

    ``load(task, stop)`` loads a compiled task into this process (it may
    compile there when no child process could); it runs on a second thread,
    of low priority, while the next task compiles. The tasks of a match are
    left to its moves, which load them at full priority. ``set_up(task)``, if
    given, runs once, at full priority, while the first child compiles
    ``task`` (the game sets numba's compiler up in this process then,
    through that task's :func:`engine_preparation`). Call
    :meth:`start` from the main thread: on Linux a thread and the processes
    it starts inherit its priority, and the children that compile a player
    someone waits for must run at full priority. The thread ends with
    :meth:`close`.
    """

    def __init__(self, load: Callable[[Task, StopFlag], None], set_up: Callable[[Task], None] | None = None) -> None:
        self._load = load
        self._set_up = set_up
        self._load_stop: StopFlag | None = None  # made on first use: the engine is not loaded yet at start-up
        self._lock = threading.Condition()
        self._urgent: list[Task] = []
        self._planned: list[Task] = []
        self._done: set[Task] = set()
        self._compiled: set[Task] = set()
        self._for_match: set[Task] = set()  # a match loads these itself: the loading thread leaves them alone
        self._current: Task | None = None
        self._child: subprocess.Popen[bytes] | None = None
        self._child_niced = False  # the child compiles a player nobody waits for, at a low priority
        self._interrupted = False  # the child was ended on purpose
        self._progress: Progress | None = None
        self._finished = 0
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="engine-preparation", daemon=True)
        self._loads: queue.SimpleQueue[Task | None] = queue.SimpleQueue()
        self._loading_allowed = threading.Event()  # cleared while a match plays (see hold_loading)
        self._loading_allowed.set()
        self._loader = threading.Thread(target=self._load_each, name="engine-loading", daemon=True)

    # -- the main thread's side -------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()
        self._loader.start()

    def plan(self, tasks: list[Task]) -> None:
        """Prepare these after everything asked for so far."""
        with self._lock:
            queued = {*self._urgent, *self._planned}
            self._planned += [task for task in tasks if self._wanted(task) and task not in queued]
            self._lock.notify_all()

    def urgent(self, tasks: list[Task], *, for_match: bool = False) -> None:
        """Prepare these next, in this order, at full priority.

        ``for_match``: a match is about to play them, and its moves load them
        (at full priority; loading them here, at a low one, would hold numba's
        compiler lock while a move waits for it).

        A child compiling another player, which nobody waits for, is stopped
        (its player goes back in the queue); so is a child compiling one of
        these at a low priority, to start again at full priority (numba keeps
        the kernels it finished in the cache, so little is lost).
        """
        with self._lock:
            wanted = [task for task in tasks if self._wanted(task)]
            if for_match:
                self._for_match.update(wanted)
            current = self._current
            restart = current in wanted and self._child_niced
            others = any(task != current and not is_compiled(task) for task in wanted)
            if restart or (current not in wanted and others):
                self._interrupt_locked()
            else:
                wanted = [task for task in wanted if task != current]
            self._planned = [task for task in self._planned if task not in wanted]
            self._urgent = wanted + [task for task in self._urgent if task not in wanted]
            self._lock.notify_all()

    def hold_loading(self, hold: bool) -> None:
        """Keep the loading thread from loading other players while ``hold`` (a match is playing).

        Loading compiled kernels is mostly Python work that holds the interpreter
        lock for long stretches, low priority or not: beside a match it makes
        frames late. Held back, another level loads when its own match starts.
        """
        if hold and not self._closed:
            self._loading_allowed.clear()
        else:
            self._loading_allowed.set()

    def progress(self) -> Progress | None:
        return self._progress

    def waits_for(self, task: Task) -> bool:
        """True while a move of ``task`` would have to wait for its kernels to be compiled."""
        # No lock: the screens ask every frame, and the preparing thread may hold it while it starts a child.
        return task not in self._compiled and self._wanted(task) and not is_compiled(task)

    def wait(self, task: Task, stop: StopFlag) -> None:
        """Block (a worker thread) until ``task`` is compiled, asking for it first; or until ``stop``."""
        if not self.waits_for(task):
            return
        self.urgent([task], for_match=True)
        with self._lock:
            while task not in self._compiled and not stop.is_set() and not self._closed:
                self._lock.wait(POLL)

    def close(self) -> None:
        """Stop at once: the compiling child is killed, waiting moves are released."""
        with self._lock:
            self._closed = True
            if self._load_stop is not None:
                self._load_stop.set()
            self._interrupt_locked()
            self._lock.notify_all()
        self._loading_allowed.set()
        self._loads.put(None)

    # -- the preparing thread's side ---------------------------------------------------------
    def _wanted(self, task: Task) -> bool:
        return task not in self._done and (task.ahead_of_time or preparable(task.spec))

    def _next(self) -> tuple[Task, bool] | None:
        """The next task to prepare and whether someone waits for it (urgent), or None once closed."""
        with self._lock:
            while not self._closed:
                for urgent, queue in ((True, self._urgent), (False, self._planned)):
                    while queue:
                        task = queue.pop(0)
                        if task not in self._done:
                            self._current = task
                            return task, urgent
                self._progress = None
                self._lock.wait()
            return None

    def _run(self) -> None:
        while (item := self._next()) is not None:
            task, urgent = item
            compiling = not is_compiled(task)
            with self._lock:
                total = self._finished + 1 + len(self._urgent) + len(self._planned)
            self._progress = Progress(
                task.spec,
                compiling,
                task.opening is not None,
                self._finished,
                total,
                time.monotonic(),
                task.ahead_of_time,
            )
            if compiling and self._compile(task, urgent) is None:  # interrupted: back in the queue
                with self._lock:
                    if not self._closed:
                        self._planned.insert(0, task)
                    self._current = None
                continue
            with self._lock:
                self._compiled.add(task)
                self._done.add(task)
                self._finished += 1
                self._current = None
                self._lock.notify_all()
            self._loads.put(task)  # loaded meanwhile: the next player's compiling need not wait for it
        self._progress = None

    def _load_each(self) -> None:
        """The loading thread: each compiled task loaded into this process, in turn, at a low priority."""
        lower_priority()  # loading never slows the frames down
        while (task := self._loads.get()) is not None:
            from engine.stop import StopFlag

            self._loading_allowed.wait()
            with self._lock:
                if self._closed:
                    return
                if task in self._for_match:
                    continue
                if self._load_stop is None:
                    self._load_stop = StopFlag()
                stop = self._load_stop
            with contextlib.suppress(Exception):  # a broken agent shows its error when it plays
                self._load(task, stop)

    def _compile(self, task: Task, urgent: bool) -> bool | None:
        """Compile ``task`` in a child process: True if it worked, False if it failed (the load then
        compiles here), None if it was interrupted (the game closed, or another player is wanted first).

        A player someone waits for compiles at full priority; the others at a
        low one, so that they take only what the machine has to spare.
        """
        with self._lock:  # started under the lock, so that urgent() and close() always see the child
            if self._closed:
                return None
            try:
                child = subprocess.Popen(
                    compile_command(task),
                    cwd=PROJECT_DIR,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=sys.platform != "win32",  # its own process group, ended as one
                )
            except OSError:
                return False  # no child processes here: the load compiles in this process instead
            if not urgent:
                lower_priority(child.pid)
            self._child, self._child_niced, self._interrupted = child, not urgent, False
        set_up, self._set_up = self._set_up, None
        if set_up is not None:  # on a thread of its own (of this thread's priority): no task waits for it
            threading.Thread(target=_quietly, args=(set_up, task), name="engine-set-up", daemon=True).start()
        status = child.wait()
        with self._lock:
            self._child = None
            if self._closed or self._interrupted:
                return None
        if status != 0:
            return False
        engine_preparation(task).mark_done()
        return True

    def _interrupt_locked(self) -> None:
        """End the compiling child, and everything it started, now (the lock is held)."""
        child = self._child
        if child is None or child.poll() is not None:
            return
        self._interrupted = True
        if sys.platform != "win32":
            with contextlib.suppress(OSError):
                os.killpg(child.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            child.kill()


def _quietly(work: Callable[[Task], None], task: Task) -> None:
    """Run ``work(task)``, which is only a head start: whatever it would have done is done later when needed."""
    with contextlib.suppress(Exception):
        work(task)
