"""The one agent interface: a position in, a column and statistics out.

Every agent - random, search, Monte Carlo, solver, a student's function - is
an :class:`Agent`. The GUI, the command line, matches, tournaments and tests
all call :meth:`Agent.choose`, which takes a :class:`~engine.board.Board` and
optional :class:`~engine.limits.Limits` and returns a :class:`SearchResult`. Search
limits (depth, nodes, time, iterations) are the agent's own parameters, set
from its spec (``alphabeta:depth=8``), see :mod:`engine.agents.registry`; a
caller's Limits tighten them for one move.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, fields, replace
from typing import ClassVar

from engine.board import Board
from engine.errors import IllegalMoveError, ValueRangeError
from engine.formats import format_moves
from engine.geometry import Geometry
from engine.limits import NO_LIMITS, Limits
from engine.progress import Progress
from engine.score import Score
from engine.stop import StopFlag

#: Seconds a time limit keeps back at least for turning the stopped search into a
#: result. On a busy machine that takes longer (the search thread waits for a core),
#: so each agent learns how late its moves come back and keeps that much back too.
RESERVE = 0.02
#: How early a move aims to be back, before its limit.
MARGIN = 0.01


class Details(Mapping[str, object]):
    """An agent's extra statistics (``ties=2``, ``visits=...``): a read-only mapping, in the order given.

    A :class:`SearchResult` is frozen, so what it carries cannot change
    either: no ``dict`` inside it that someone could still fill.
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, object] | Iterable[tuple[str, object]] = ()) -> None:
        self._items: tuple[tuple[str, object], ...] = tuple(dict(items).items())

    def __getitem__(self, key: str) -> object:
        for name, value in self._items:
            if name == key:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return f"Details({dict(self._items)!r})"


@dataclass(frozen=True)
class SearchResult:
    """An agent's move and what it found out on the way.

    ``score`` is from the mover's point of view, a :class:`~engine.score.Score`
    that says its unit (an exact Pons score, a heuristic estimate or a win
    rate) and whether it is proven. ``column_scores`` has one entry per column
    (None for a full or unsearched column); ``info`` the agent's own extra
    statistics (a dict given here is kept as read-only :class:`Details`). Times are in seconds, as
    everywhere in the engine's Python API; only the ``time_ms=`` statistic
    prints milliseconds.
    """

    column: int
    nodes: int = 0
    seconds: float = 0.0
    depth: int | None = None
    score: Score | None = None
    pv: tuple[int, ...] = ()
    column_scores: tuple[Score | None, ...] | None = None
    completed: bool = True
    info: Mapping[str, object] = Details()

    def __post_init__(self) -> None:
        if not isinstance(self.info, Details):
            object.__setattr__(self, "info", Details(self.info))

    @property
    def exact(self) -> bool | None:
        """Is the move's score proven? None when the agent gives no score."""
        return None if self.score is None else self.score.is_exact

    def stats(self) -> dict[str, object]:
        """The statistics as ``key -> value``, for ``key=value`` output."""
        out: dict[str, object] = {"nodes": self.nodes, "time_ms": round(self.seconds * 1000.0, 1)}
        if self.depth is not None:
            out["depth"] = self.depth
        if self.score is not None:
            out["score"] = str(self.score)
            out["exact"] = "exact" if self.score.is_exact else "estimate"
        if self.pv:
            out["pv"] = format_moves(self.pv)
        if self.column_scores is not None:
            out["columns"] = ",".join("x" if s is None else str(s) for s in self.column_scores)
        out.update(self.info)
        return out

    def stats_line(self) -> str:
        return " ".join(f"{key}={value}" for key, value in self.stats().items())


class Agent(ABC):
    """Base class of every agent.

    Subclasses are dataclasses whose fields are their parameters (declared
    with :func:`engine.agents.registry.param`), and implement :meth:`_search`.
    """

    #: The registered name, e.g. ``"alphabeta"`` (set by ``@register``).
    name: ClassVar[str] = "agent"
    #: True for agents that wait for a person (the GUI and terminal ask them).
    is_human: ClassVar[bool] = False
    #: The parameter that :attr:`Limits.nodes <engine.limits.Limits.nodes>` caps (positions,
    #: iterations or playouts: what the agent's ``nodes=`` statistic counts); None: no budget.
    node_key: ClassVar[str | None] = None
    #: When the search under way started (None: no search running). Not a parameter.
    _started: float | None = None
    #: The longest time limit of the move under way, and the seconds kept back from limits.
    _limit: float | None = None
    _reserve: float = RESERVE

    def __post_init__(self) -> None:  # noqa: B027 - dataclass agents call it; @register adds the key checks
        """Check the parameters (agents extend this with their own checks)."""

    def choose(self, board: Board, limits: Limits | StopFlag = NO_LIMITS) -> SearchResult:
        """Pick a column for the side to move in ``board`` (which is not changed).

        ``limits`` (:class:`~engine.limits.Limits`) may add a stop flag, a time
        limit (the tighter of it and the agent's own ``seconds=`` holds) and a
        node budget (capping the agent's :attr:`node_key`; an agent without
        one refuses it) to the agent's own parameters; a bare stop flag is the
        documented short form of ``Limits(stop=flag)``. One-time work
        (:meth:`prepare_for`) is done before the clock starts; the result's
        ``seconds`` and every time limit count from after it.
        """
        if isinstance(limits, StopFlag):
            limits = Limits(stop=limits)
        elif not isinstance(limits, Limits):
            raise ValueRangeError(f"limits must be Limits or a StopFlag, not {type(limits).__name__}")
        if board.is_over:
            raise IllegalMoveError("the game is over: there is no move to choose")
        restore = self._cap_nodes(limits.nodes)
        try:
            self.prepare_for(board)
            started = self._start_clock()
            try:
                with self._outer_limit(limits) as flag:
                    result = self._search(board.copy(), flag)
            finally:
                elapsed = self._stop_clock(started)
        finally:
            restore()
        return replace(result, seconds=elapsed)

    def _outer_limit(self, limits: Limits) -> AbstractContextManager[StopFlag]:
        """The stop flag a move searches with: the caller's (or a fresh one), set at ``limits.seconds``."""
        stop = limits.stop or StopFlag()
        return stop.deadline(None) if limits.seconds is None else self.time_limit(stop, limits.seconds)

    def _cap_nodes(self, nodes: int | None) -> Callable[[], None]:
        """Cap the agent's node key at ``nodes`` for one move; returns what puts the key back."""
        if nodes is None:
            return lambda: None
        key = self.node_key
        if key is None:
            raise ValueRangeError(f"{self.name} has no node budget: its own keys limit it (see --help)")
        own = getattr(self, key)
        setattr(self, key, nodes if own is None else min(own, nodes))
        return lambda: setattr(self, key, own)

    def _start_clock(self) -> float:
        self._started = time.perf_counter()
        self._limit = None
        return self._started

    def _stop_clock(self, started: float) -> float:
        """The move's seconds; a move that came back late makes the next ones keep more time back.

        ``started`` is the caller's own start: a nested move of the same agent
        may have reset ``_started`` meanwhile.
        """
        elapsed = time.perf_counter() - started
        self._started = None
        if self._limit is not None:
            over = elapsed - (self._limit - MARGIN)
            reserve = self._reserve + over if over > 0 else self._reserve + over / 4  # grow at once, shrink slowly
            self._reserve = min(max(reserve, RESERVE), self._limit / 3)
        return elapsed

    def prepare(self, geometry: Geometry) -> None:  # noqa: B027 - optional hook
        """Do the one-time work of playing on ``geometry`` (compiling or loading kernels, books).

        Called before every move and outside its clock, so it must be quick
        when there is nothing left to do.
        """

    def prepare_for(self, board: Board) -> None:
        """Do the one-time work a move from ``board`` needs (called by :meth:`choose`).

        By default all of :meth:`prepare`. An agent whose early moves need less
        (an opening book answers them, an endgame solver is not used yet)
        prepares only that, so that the first move of a fresh install waits
        for fewer kernels; a later move prepares the rest, still off the clock.
        """
        self.prepare(board.geometry)

    def preparation_parts(self, board: Board) -> tuple[Callable[[], None], ...]:
        """The compiling :meth:`prepare_for` does for ``board``, split into parts that can run at once.

        Each part compiles some of the kernels the move needs, independently
        of the others, so that on a first start they can be compiled at the
        same time in processes of their own (``python -m engine.warmup
        --jobs 2``), each filling numba's on-disk cache; :meth:`prepare_for`,
        run after them, loads what they compiled and compiles the rest. None
        by default (and once the kernels are loaded here).
        """
        return ()

    def time_limit(self, stop: StopFlag, seconds: float | None) -> AbstractContextManager[StopFlag]:
        """A child of ``stop`` that is set ``seconds`` after this move's clock started.

        What the agent did since the clock started (copying a tree, a solve
        before a fallback) counts, and the time late moves needed is kept back
        for building the result, so the whole move keeps within ``seconds``.
        """
        if seconds is None:
            return stop.deadline(None)
        if self._started is None:
            self._start_clock()
        assert self._started is not None
        self._limit = max(seconds, self._limit or 0.0)
        used = time.perf_counter() - self._started
        return stop.deadline(max(0.0, seconds - used - self._reserve))

    def progress(self) -> Progress | None:
        """What the search under way has found so far, or None (idle, or the agent tells nothing).

        Safe to call from any thread while :meth:`choose` runs on another: it
        only reads (see :mod:`engine.progress`).
        """
        started = self._started
        if started is None:
            return None
        return self._progress(time.perf_counter() - started)

    def _progress(self, seconds: float) -> Progress | None:
        """The snapshot of a search running for ``seconds``; agents that publish progress override it."""
        return None

    @abstractmethod
    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        """Find a move; ``board`` is a private copy the agent may change."""

    def new_game(self, seed: int | None = None) -> None:  # noqa: B027 - optional hook
        """Forget per-game state (trees, tables) before a new game; reseed if given."""

    def exact_on(self, geometry: Geometry) -> bool:
        """Whether every move on ``geometry`` is proven best in the agent's time (the game tells players
        where a claim of perfect play holds and where the moves are a best guess); no by default."""
        return False

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release what the agent holds (processes, large tables)."""

    @property
    def spec(self) -> str:
        """The spec that recreates this agent, e.g. ``alphabeta:depth=8``."""
        defaults = type(self)()
        changed = [
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)  # type: ignore[arg-type]
            if f.init and getattr(self, f.name) != getattr(defaults, f.name)
        ]
        return self.name + (":" + ",".join(changed) if changed else "")

    def __str__(self) -> str:
        return self.spec
