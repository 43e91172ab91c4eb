"""One engine agent behind an adapter: built when first needed, ready in time, picklable.

Every adapter (Kaggle, PettingZoo, OpenSpiel) holds an :class:`EnginePlayer`
and asks it for a column with :meth:`EnginePlayer.move`. The player:

- builds the agent from its spec at the first move (importing the adapters
  costs nothing);
- with ``background=True`` (Kaggle: every move must be back within
  ``actTimeout``, the first included, on a fresh install too) prepares the
  agent off the clock: a child process compiles its kernels into numba's
  cache (seconds to tens of seconds the first time), then a thread loads
  them (where no cache folder can be written, the thread compiles them:
  :mod:`engine.kernel_cache`). Until it is ready a stand-in in plain Python
  answers: the opening book's move where the board has one, else
  :mod:`engine.interop.plain`'s search. It says so once on standard error
  (Kaggle's log);
- chooses among the columns a caller allows (a mask narrower than the legal
  moves): the agent's column if allowed, else the best allowed by the
  agent's own column scores, else the plain search among them;
- pickles as its spec alone, so an adapter can go to another process
  (a process pool, Dask, Ray) and rebuilds its agent there.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

from engine.agents.base import Agent
from engine.board import Board
from engine.geometry import Geometry
from engine.interop.plain import plain_move
from engine.solver.book import Book, load_default

#: The stand-in's share of a move's time: the rest is margin for the caller's overhead, and for the
#: pauses of the thread that loads the compiled kernels (numba holds the interpreter while it links them).
STAND_IN_SHARE = 0.5


class EnginePlayer:
    """An engine agent (or its spec) that an adapter asks for moves; see the module."""

    def __init__(self, spec: str | Agent, *, background: bool = False) -> None:
        self.spec = spec.spec if isinstance(spec, Agent) else str(spec)
        self.background = background
        self._agent: Agent | None = spec if isinstance(spec, Agent) else None
        self._ready: set[Geometry] = set()  # the geometries the agent is prepared for
        self._preparing: tuple[Geometry, threading.Thread] | None = None
        self._failure: str | None = None
        self._said: set[str] = set()

    # -- pickling: the spec alone (a thread, a compiled agent and its tables stay here) ----------------
    def __getstate__(self) -> dict[str, Any]:
        return {"spec": self.spec, "background": self.background}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["spec"], background=state["background"])  # type: ignore[misc]

    # -- moves --------------------------------------------------------------------------------------
    @property
    def agent(self) -> Agent:
        """The engine agent, built on first use (prepared as its moves need)."""
        if self._agent is None:
            from engine.agents.registry import create_agent  # (the agents load numba: only when playing)

            self._agent = create_agent(self.spec)
        return self._agent

    def move(self, board: Board, *, seconds: float | None = None, allowed: Collection[int] | None = None) -> int:
        """A column for ``board``'s side to move, among ``allowed`` (default: every legal one), within ``seconds``.

        Without ``background`` the agent is prepared first (off the clock,
        as :meth:`Agent.choose <engine.agents.base.Agent.choose>` does);
        with it, a move asked before the agent is ready comes from the stand-in.
        """
        started = time.perf_counter()
        if self.background and not self._is_ready(board.geometry):
            budget = 1.0 if seconds is None else seconds * STAND_IN_SHARE
            return stand_in_move(board, budget - (time.perf_counter() - started), allowed)
        from engine.limits import Limits

        left = None if seconds is None else max(0.01, seconds - (time.perf_counter() - started))
        result = self.agent.choose(board, Limits(seconds=left))
        if allowed is None or result.column in allowed:
            return int(result.column)
        return self._best_allowed(board, result.column_scores, allowed)

    def _best_allowed(self, board: Board, scores: Any, allowed: Collection[int]) -> int:
        """The allowed column the agent's own scores rank best, else the plain search's among them."""
        ranked = [(scores[col], col) for col in sorted(allowed) if scores and scores[col] is not None]
        if ranked:
            return max(ranked, key=lambda item: item[0])[1]
        return stand_in_move(board, 0.2, allowed)

    # -- preparing in the background ------------------------------------------------------------------
    def _is_ready(self, geometry: Geometry) -> bool:
        """Is the agent prepared for ``geometry``? Starts preparing it (in a thread) if not yet."""
        if geometry in self._ready:
            return True
        if self._preparing is not None:
            prepared, thread = self._preparing
            if thread.is_alive():
                return False
            self._preparing = None
            if self._failure is None:
                self._ready.add(prepared)
            if geometry in self._ready:
                return True
        if self._failure is not None:
            return False
        thread = threading.Thread(
            target=self._prepare, args=(geometry, time.perf_counter()), name="prepare-agent", daemon=True
        )
        self._preparing = (geometry, thread)
        self.say(
            f"connect-four: preparing {self.spec} for {geometry} (compiling, the first time: seconds); "
            "plain-Python moves until it is ready"
        )
        thread.start()
        return False

    def _prepare(self, geometry: Geometry, started: float) -> None:
        """Compile (or load) every kernel the agent's moves on ``geometry`` use (on the preparing thread)."""
        try:
            from engine.agents.registry import create_agent
            from engine.stop import StopFlag

            compile_apart(self.spec, geometry)
            # A move of a throwaway copy compiles what a search needs (the agent's own stays unplayed).
            probe = create_agent(self.spec, seed=0)
            probe.prepare(geometry)
            with StopFlag().deadline(0.05) as flag:
                probe.choose(Board.from_moves("12", geometry), flag)
            probe.close()
            self.agent.prepare(geometry)
        except Exception as exc:  # (numba missing or failing on this machine: the stand-in plays on)
            self._failure = f"{type(exc).__name__}: {exc}"
            self.say(f"connect-four: {self.spec} could not be prepared ({self._failure}); plain-Python moves")
        else:
            self.say(f"connect-four: {self.spec} is ready ({time.perf_counter() - started:.1f} s after its first move)")

    def wait_until_ready(self, geometry: Geometry, timeout: float | None = None) -> bool:
        """Prepare for ``geometry`` now (waiting up to ``timeout`` s); True once the agent plays its moves."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._is_ready(geometry):
            if self._failure is not None or (deadline is not None and time.monotonic() > deadline):
                return False
            time.sleep(0.01)
        return True

    def say(self, line: str) -> None:
        """Write ``line`` to standard error once per player (the log Kaggle keeps of each agent)."""
        if line not in self._said:
            self._said.add(line)
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._agent is not None:
            self._agent.close()


def compile_apart(spec: str, geometry: Geometry) -> None:
    """Compile ``spec``'s kernels into numba's cache folder in a child process, and wait for it.

    numba's compiler holds the interpreter for up to half a second at a time, so
    compiling on a thread of this process would stall the stand-in's moves; a
    child costs them nothing, and this process then only loads the kernels.
    Without a cache folder to share (none can be written) this does nothing:
    the caller compiles in place.
    """
    import os
    import subprocess

    from engine.startup import preparation

    if not os.environ.get("NUMBA_CACHE_DIR"):
        return
    command = preparation(spec, wide=geometry.wide).command(parent=os.getpid())
    root = str(Path(__file__).resolve().parents[2])  # where the engine is (a submission's folder, say)
    environment = dict(
        os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    )
    subprocess.run(command, env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=False)


# -- the stand-in -------------------------------------------------------------------------------------------
def stand_in_move(board: Board, seconds: float, allowed: Collection[int] | None = None) -> int:
    """A move in plain Python within ``seconds``: the opening book's, else the plain search's (which proves the
    wins and losses near the end too; the plain-Python exact solver has a node budget, not a clock)."""
    legal = [col for col in board.legal_columns() if allowed is None or col in allowed]
    book = _book(board.geometry)
    entry = None if book is None else book.entry(board)
    if entry is not None and entry.column is not None and entry.column in legal:
        return entry.column
    mover = board.turn
    cells = []
    for row in reversed(range(board.geometry.rows)):  # top row first
        for col in range(board.geometry.cols):
            side = board.cell(col, row)
            cells.append(0 if side is None else 1 if side is mover else 2)
    g = board.geometry
    return plain_move(cells, g.cols, g.rows, g.connect, seconds=seconds, allowed=legal)


@functools.cache
def _book(geometry: Geometry) -> Book | None:
    """The shipped opening book of ``geometry`` (read once a process)."""
    return load_default(geometry)
