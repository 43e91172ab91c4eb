"""The classroom interface: ``agent(board, player=1) -> column`` over numpy boards.

The course assignments (seeds 000 and 001) ask every agent to be a function
``agent(board, player=1)`` that takes a numpy board and the value of the
player to move, and returns a 0-based column, "to play against agents from
other students". This module goes both ways:

- :func:`as_classroom_function` turns any engine agent into such a function;
- :class:`ClassroomAgent` (spec ``file.py:function`` or
  ``classroom:path=file.py,function=name``) turns a student's function into an
  engine agent for ``match``, ``play``, tournaments and the GUI.

A student's function is untrusted code: it runs in a process of its own
(:mod:`engine.sandbox`; on Linux inside a sandbox with no network and none
of the user's files) that speaks plain text, with a memory limit
(``memory_mb``, default 2 GB), a cap on what it may print (``output_kb``)
and time limits for loading (``load_seconds``) and for each move
(``seconds``). If it raises, crashes, returns something that is not a
column, or does not answer in time, its side forfeits the game with a
message saying which; the process and everything it forked are killed, and
the next game starts a fresh one. Nothing else is affected.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import TRUST_MARK, create_agent, param, register
from engine.board import Board, Side
from engine.errors import AgentFailure, PositionError
from engine.formats import CHARACTERS, Encoding, Origin, encoding_values, from_array, integer_grid, to_array
from engine.sandbox.process import StudentFailure, StudentProcess
from engine.sandbox.text import clean
from engine.sandbox.view import note_contestant
from engine.stop import StopFlag
from engine.validate import is_column_value


def trust_note() -> str:
    """What loading a student's file means on this machine, as its sandbox really is (docs/sandbox.md).

    Finding it out starts ``bwrap`` once a process, so ``--help`` and the game's editor ask for it
    only when they show it: their texts carry :data:`TRUST_MARK` until then (:func:`with_trust_note`).
    """
    from engine.sandbox import boundary

    return boundary.current().trust_note()


def with_trust_note(text: str) -> str:
    """``text`` with :data:`TRUST_MARK` replaced by :func:`trust_note` (found out only if it is there)."""
    return text.replace(TRUST_MARK, trust_note()) if TRUST_MARK in text else text


#: The student's memory limit unless the spec sets ``memory_mb``.
DEFAULT_MEMORY_MB = 2048


class AgentForfeit(AgentFailure):
    """A student's function failed: it raised, hung or gave a bad answer."""


# -- engine agent -> classroom function ------------------------------------------
def board_for_player(
    array: Any, player: int | str = 1, connect: int = 4, encoding: Encoding | None = None, origin: Origin = "top"
) -> Board:
    """The position in ``array`` with ``player`` (a value of the encoding) to move.

    Students do not always let the value 1 move first, so the side to move is
    taken from ``player``: it moved first if it has as many discs as the other
    side, second if it has one fewer. Seed 001's arrays of ``'x'`` / ``'o'``
    are read with ``player`` ``'x'`` or ``'o'``.
    """
    grid = integer_grid(array)
    if isinstance(player, str) and player.lower() in ("x", "o"):
        player, encoding = CHARACTERS[player.lower()], "signed"
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
        raise PositionError(
            f"player {player} has one disc more than the opponent, so it is not its turn: no game reaches this "
            "board with that player to move (several of the seeds' test boards are such; the seed-boards study "
            "reads them leniently and says so)"
        )
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
@register(
    "classroom",
    "a student's agent(board, player=1), or a Kaggle ConnectX agent(observation, configuration), from a Python "
    f"file (also FILE.py:FUNCTION); {TRUST_MARK}",
)
@dataclass
class ClassroomAgent(Agent):
    path: str = param("", "the Python file that defines the function (it sees only its own files: docs/sandbox.md)")
    function: str = param("agent", "the function's name (empty: the file's last callable, as Kaggle takes it)")
    seconds: float = param(10.0, "seconds the function may take per move", low=0.1, high=3600, aliases=("timeout",))
    load_seconds: float = param(
        30.0, "seconds the file may take to load (its imports)", low=0.1, high=3600, aliases=("load_timeout",)
    )
    memory_mb: int = param(
        DEFAULT_MEMORY_MB, "memory limit of the student's process in MB (0: none; POSIX only)", low=0, high=2**20
    )
    output_kb: int = param(
        64, "KB of the student's printed output shown per game (the rest is dropped)", low=0, high=2**20
    )
    encoding: str = param("signed", "board values: signed (1/-1/0) or 012 (1/2/0)", choices=("signed", "012"))
    origin: str = param("top", "row 0 of the array: top or bottom", choices=("top", "bottom"))
    interface: str = param(
        "auto",
        "how the function is called: classroom agent(board, player), kaggle agent(observation, configuration) "
        "(Kaggle ConnectX), pettingzoo policy(observation) (connect_four_v3's dict), openspiel (a pyspiel.Bot, or "
        "make_bot(game, player_id) returning one), or auto: classroom or kaggle by its parameters' names",
        choices=("auto", "classroom", "kaggle", "pettingzoo", "openspiel"),
    )
    _student: StudentProcess | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.path:
            raise ValueError("the classroom agent needs path=FILE.py (or write FILE.py:FUNCTION)")
        if not Path(self.path).is_file():
            raise ValueError(f"no such file: {self.path}")
        note_contestant(Path(self.path), self.function)  # before any side starts: no student sees another's file

    @property
    def spec(self) -> str:
        return f"{self.path}:{self.function}" if self.function else self.path

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        try:
            if self._student is None or not self._student.alive:
                self._start(stop)
            assert self._student is not None
            # A Kaggle agent gets Kaggle's board: 1 for the first player, 2 for the second, top row first (the
            # child makes PettingZoo's planes and OpenSpiel's state from it).
            kaggle = self._student.interface != "classroom"  # (PettingZoo and OpenSpiel read Kaggle's board)
            encoding: Encoding = "012" if kaggle else self.encoding  # type: ignore[assignment]
            origin: Origin = "top" if kaggle else self.origin  # type: ignore[assignment]
            first_value, second_value, _ = encoding_values(encoding)
            player = first_value if board.turn is Side.FIRST else second_value
            cells = to_array(board, encoding, origin)
            reply = self._student.ask(cells, player, stop, self.seconds, board.geometry.connect)
        except StudentFailure as exc:
            self.close()  # the next move (or game) starts a fresh process
            raise AgentForfeit(clean(f"{self.spec} {exc}")) from None
        kind, _, rest = reply.partition(" ")
        if kind == "MOVE" and rest.lstrip("-").isascii() and rest.lstrip("-").isdigit():
            return SearchResult(column=int(rest), nodes=1)
        if kind == "ERROR":
            raise AgentForfeit(clean(f"{self.spec} raised {rest}"))
        if kind == "BAD":
            raise AgentForfeit(clean(f"{self.spec} returned {rest}, not a column number"))
        self.close()
        raise AgentForfeit(clean(f"{self.spec} sent {reply!r}, which is no answer"))

    def _start(self, stop: StopFlag) -> None:
        self._student = StudentProcess(
            self.path,
            self.function,
            memory_mb=self.memory_mb,
            output_bytes=self.output_kb * 1024,
            interface=self.interface,
        )
        self._student.start(stop, self.load_seconds)

    def new_game(self, seed: int | None = None) -> None:
        """End the process (and whatever it forked): each game starts with a fresh one."""
        self.close()

    def close(self) -> None:
        student, self._student = self._student, None
        if student is not None:
            student.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # interpreter shutdown may have torn down the pipes
            self.close()
