"""The classroom interface: ``agent(board, player=1) -> column`` over numpy boards.

The course assignments (seeds 000 and 001) ask every agent to be a function
``agent(board, player=1)`` that takes a numpy board and the value of the
player to move, and returns a 0-based column, "to play against agents from
other students". This module goes both ways:

- :func:`as_classroom_function` turns any engine agent into such a function;
- :class:`ClassroomAgent` (spec ``file.py:function`` or
  ``classroom:path=file.py,function=name``) turns a student's function into an
  engine agent for ``match``, ``play``, tournaments and the GUI.

A student's function runs in its own process. If it raises, returns
something that is not a legal column, or does not answer within ``timeout``
seconds, its side forfeits the game with a message saying which; the process
is then killed (a hang cannot be interrupted any other way) and started afresh
for the next game. Nothing else is affected.
"""

from __future__ import annotations

import contextlib
import importlib.util
import multiprocessing
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import create_agent, param, register
from engine.board import Board, Side
from engine.errors import EngineError, PositionError
from engine.formats import Encoding, Origin, encoding_values, from_array, integer_grid, to_array
from engine.stop import StopFlag
from engine.validate import is_column_value


class AgentForfeit(EngineError):
    """A student's function failed: it raised, hung or gave a bad answer."""


# -- engine agent -> classroom function ------------------------------------------
def board_for_player(
    array: Any, player: int = 1, connect: int = 4, encoding: Encoding | None = None, origin: Origin = "top"
) -> Board:
    """The position in ``array`` with ``player`` (a value of the encoding) to move.

    Students do not always let the value 1 move first, so the side to move is
    taken from ``player``: it moved first if it has as many discs as the other
    side, second if it has one fewer.
    """
    grid = integer_grid(array)
    if encoding is None:
        encoding = "012" if (grid == 2).any() or player == 2 else "signed"
    first_value, second_value, _ = encoding_values(encoding)
    if not is_column_value(player) or player not in (first_value, second_value):
        raise PositionError(
            f"player must be {first_value} or {second_value} in the {encoding!r} encoding, not {player!r}"
        )
    other = second_value if player == first_value else first_value
    mine, theirs = int((grid == player).sum()), int((grid == other).sum())
    if mine == theirs + 1:
        raise PositionError(f"player {player} has one disc more than the opponent, so it is not its turn")
    if mine == theirs - 1:
        # ``player`` moved second: swap the values so that it reads as the second player.
        swapped = np.where(grid == player, second_value, np.where(grid == other, first_value, grid))
        return from_array(swapped, connect, encoding, origin)
    return from_array(
        np.where(grid == player, first_value, np.where(grid == other, second_value, grid)), connect, encoding, origin
    )


def as_classroom_function(
    agent: Agent | str,
    connect: int = 4,
    encoding: Encoding | None = None,
    origin: Origin = "top",
) -> Callable[..., int]:
    """An engine agent (or spec) as ``agent(board, player=1) -> column``."""
    engine_agent = create_agent(agent) if isinstance(agent, str) else agent

    def classroom_agent(board: Any, player: int = 1) -> int:
        return engine_agent.choose(board_for_player(board, player, connect, encoding, origin)).column

    classroom_agent.__name__ = f"{engine_agent.name}_agent"
    classroom_agent.__doc__ = f"The engine's {engine_agent.spec} agent as a classroom function."
    return classroom_agent


# -- classroom function -> engine agent ----------------------------------------------
def load_function(path: str, function: str) -> Callable[..., Any]:
    """Import ``function`` from the Python file at ``path``."""
    file = Path(path)
    if not file.is_file():
        raise AgentForfeit(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(f"student_{file.stem}", file)
    if spec is None or spec.loader is None:
        raise AgentForfeit(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, function, None)
    if not callable(fn):
        raise AgentForfeit(f"{path} has no function {function!r}")
    return fn


def _worker(conn: Any, path: str, function: str) -> None:
    """The student's process: load the function, then answer boards until closed."""
    try:
        fn = load_function(path, function)
    except BaseException as exc:  # a broken file is reported, not raised in the parent
        conn.send(("error", f"loading {path}: {exc}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            board, player = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", fn(board, player)))
        except BaseException as exc:
            last = traceback.extract_tb(exc.__traceback__)[-1]
            conn.send(("error", f"{type(exc).__name__}: {exc} (line {last.lineno} of {Path(last.filename).name})"))


@register("classroom", "a student's agent(board, player=1) function from a Python file (also FILE.py:FUNCTION)")
@dataclass
class ClassroomAgent(Agent):
    path: str = param("", "the Python file that defines the function")
    function: str = param("agent", "the function's name")
    timeout: float = param(10.0, "seconds the function may take per move", low=0.1, high=3600)
    encoding: str = param("signed", "board values: signed (1/-1/0) or 012 (1/2/0)", choices=("signed", "012"))
    origin: str = param("top", "row 0 of the array: top or bottom", choices=("top", "bottom"))
    _process: Any = field(default=None, init=False, repr=False, compare=False)
    _conn: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.path:
            raise ValueError("the classroom agent needs path=FILE.py (or write FILE.py:FUNCTION)")
        if not Path(self.path).is_file():
            raise ValueError(f"no such file: {self.path}")

    @property
    def spec(self) -> str:
        return f"{self.path}:{self.function}"

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self._process = context.Process(target=_worker, args=(child, self.path, self.function), daemon=True)
        self._process.start()
        child.close()
        self._conn = parent
        status, message = self._receive(StopFlag(), max(self.timeout, 30.0), "loading")
        if status != "ready":
            self.close()
            raise AgentForfeit(message)

    def _receive(self, stop: StopFlag, timeout: float, what: str) -> tuple[str, Any]:
        deadline = time.monotonic() + timeout
        while not self._conn.poll(0.02):  # short slices so that a stop is seen within 50 ms
            if stop.is_set():
                self.close()
                raise AgentForfeit(f"{self.spec} was stopped")
            if time.monotonic() > deadline or not self._process.is_alive():
                alive = self._process.is_alive()
                self.close()
                if alive:
                    raise AgentForfeit(f"{self.spec} did not answer within {timeout:g} s ({what})")
                raise AgentForfeit(f"{self.spec} crashed ({what})")
        return self._conn.recv()

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        if self._process is None or not self._process.is_alive():
            self._start()
        encoding: Encoding = self.encoding  # type: ignore[assignment]
        first_value, second_value, _ = encoding_values(encoding)
        player = first_value if board.turn is Side.FIRST else second_value
        self._conn.send((to_array(board, encoding, self.origin), player))  # type: ignore[arg-type]
        status, value = self._receive(stop, self.timeout, "choosing a move")
        if status != "ok":
            raise AgentForfeit(f"{self.spec} raised {value}")
        try:
            column = int(value)
            if column != value:
                raise ValueError
        except (TypeError, ValueError):
            raise AgentForfeit(f"{self.spec} returned {value!r}, not a column number") from None
        return SearchResult(column=column, nodes=1)

    def close(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join(timeout=1)
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # interpreter shutdown may have torn down the pipe
            self.close()
