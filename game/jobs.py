"""Background work, one way for all of it: the computer's moves and hints, their preparation, the analysis
and the review.

Only the main thread touches pygame; whatever takes time runs elsewhere - the
players' searches on the one :class:`~game.worker.Worker` thread, the live
analysis and the game review in the :class:`~game.analysis_process.AnalysisProcess`
- and the main thread asks for all of it, and reads the answers, the same way:

- a request is a :class:`Job`: numbered, with a stop flag, in one :class:`JobState`
  at a time, and filled in by whoever does the work - what it has found so far
  in ``items`` (the analysis's snapshots, the review's moves), then its
  ``value`` or ``error``;
- a :class:`Lane` holds the requests of one kind where only the newest
  counts: a new request cancels the one before (its stop flag is set, and
  whatever it still delivers lands in a job nobody reads any more), so a
  stale answer can never be taken for the current one;
- the screen looks at its lanes once a frame: :meth:`Lane.poll` hands over a
  finished answer once (a move, a hint); a feed that fills in bit by bit (the
  analysis, the review) is read from :attr:`Lane.current`.

A :class:`Runner` does the work of a lane's jobs: the worker thread runs a
function of the job, the analysis process runs one of its named jobs.
"""

from __future__ import annotations

import itertools
import threading
import time
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from engine.stop import StopFlag

T = TypeVar("T")

_numbers = itertools.count(1)  # every job of the game has its own number


class Kind(str, Enum):
    """What a job is for. The analysis process's kinds are its service's job names
    (:class:`engine.analysis_service.Job`), so their values are what travels."""

    NONE = ""  # no job, or one whose kind nobody asks
    MOVE = "move"
    HINT = "hint"
    ANALYZE = "analyze"
    REVIEW = "review"
    LESSONS = "lessons"
    EXPLAIN = "explain"
    ANSWER = "answer"


class JobState(Enum):
    """Where a job is, one state at a time (as Textual's ``WorkerState``)."""

    PENDING = "pending"  # asked for; its work has not started
    PREPARING = "preparing"  # a move waiting for its player's kernels to be compiled (a first start)
    RUNNING = "running"  # its work runs: a search, the analysis, the review
    SUCCESS = "success"  # done: the value is there
    ERROR = "error"  # the work failed: the error says how
    CANCELLING = "cancelling"  # nobody wants the answer; its work is asked to stop and has not yet
    CANCELLED = "cancelled"  # nobody wants the answer, and its work has ended


#: The states after which nothing more happens to a job.
ENDED = frozenset({JobState.SUCCESS, JobState.ERROR, JobState.CANCELLED})


class Job(Generic[T]):
    """One request for background work, and what has come of it so far.

    The thread doing the work appends to :attr:`items` and then sets
    :attr:`value` or :attr:`error` before :attr:`state` (list appends and
    attribute writes are atomic); the main thread only reads.
    """

    def __init__(
        self, kind: Kind = Kind.NONE, key: object = None, items: tuple[T, ...] = (), *, preparing: bool = False
    ) -> None:
        self.number = next(_numbers)
        self.kind = Kind(kind)  # what it is for: a move, a hint, the analysis, the review
        self.key = key  # what it was asked about (a position, a game): the same key is the same job
        self.items: list[T] = list(items)
        self.value: Any = None
        self.error: str | None = None
        self.state = JobState.PREPARING if preparing else JobState.PENDING
        self._moving = threading.Lock()  # (a cancel and the work's end may cross: each sees the other's state)
        self.stop: StopFlag | None = None  # set by a runner whose work can be asked to stop (a search)
        self.started = time.perf_counter()
        self.took = 0.0  # seconds the work itself took, once finished

    @property
    def finished(self) -> bool:
        """Nothing more will happen to it: answered, failed, or cancelled and its work ended."""
        return self.state in ENDED

    @property
    def cancelled(self) -> bool:
        return self.state in (JobState.CANCELLING, JobState.CANCELLED)

    @property
    def latest(self) -> T | None:
        return self.items[-1] if self.items else None

    @property
    def seconds(self) -> float:
        """Real time since the job was asked for."""
        return time.perf_counter() - self.started

    def begin(self) -> None:
        """Its work starts (the working side); a move still waiting for its kernels stays preparing."""
        with self._moving:
            if self.state is JobState.PENDING:
                self.state = JobState.RUNNING

    def prepared(self) -> None:
        """The move's kernels are there: its search runs (the working side)."""
        with self._moving:
            if self.state is JobState.PREPARING:
                self.state = JobState.RUNNING

    def report(self, item: T) -> None:
        """Something found on the way (the working side)."""
        self.items.append(item)

    def finish(self, value: Any = None, error: str | None = None) -> None:
        """The answer, or what went wrong (the working side); a cancelled job's work has ended."""
        self.value, self.error = value, error
        with self._moving:
            if self.cancelled:
                self.state = JobState.CANCELLED
            else:
                self.state = JobState.ERROR if error is not None else JobState.SUCCESS

    def cancel(self) -> None:
        """Nobody wants the answer any more: the work is asked to stop."""
        with self._moving:
            if not self.finished:
                self.state = JobState.CANCELLING
        if self.stop is not None:
            self.stop.set()


class Runner(Protocol):
    """What does the work of a lane's jobs."""

    def start(self, job: Job[Any], work: Any) -> None:
        """Begin ``work`` for ``job`` (queued or at once); never blocks the caller."""

    def cancel(self, job: Job[Any]) -> None:
        """``job`` was cancelled: stop its work if it is under way."""


class Lane(Generic[T]):
    """Requests of one kind, of which only the newest counts."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.current: Job[T] | None = None  # the newest job, until it is cancelled or polled

    def submit(
        self,
        work: Any,
        *,
        kind: Kind = Kind.NONE,
        key: object = None,
        items: tuple[T, ...] = (),
        preparing: bool = False,
    ) -> Job[T]:
        """Ask for ``work`` (the runner's kind of work), cancelling the request before; ``items``: what the
        job says until the work says more; ``preparing``: a move that waits for its kernels first."""
        self.cancel()
        job: Job[T] = Job(kind, key, items, preparing=preparing)
        self.current = job
        self.runner.start(job, work)
        return job

    def keep(self, key: object, work: Any, *, kind: Kind = Kind.NONE) -> Job[T]:
        """The current job if it is (or was) about ``key``, else a new one for it."""
        if self.current is not None and self.current.key == key:
            return self.current
        return self.submit(work, kind=kind, key=key)

    def cancel(self) -> None:
        """Stop the current job, if any, and forget it: its answer will never be read."""
        job, self.current = self.current, None
        if job is not None and not job.finished:
            job.cancel()
            self.runner.cancel(job)

    def poll(self) -> Job[T] | None:
        """The current job once it has finished, handed over once (the lane is then free); else None."""
        job = self.current
        if job is None or not job.finished:
            return None
        self.current = None
        return job

    @property
    def kind(self) -> Kind:
        """What the current job is for (:attr:`Kind.NONE` when there is none)."""
        return Kind.NONE if self.current is None else self.current.kind
