"""A student's tournament function as an engine agent: one move a call, in the grading child, in the sandbox.

An assignment's :class:`~engine.grade.model.Play` names the function its
students play with (``player(board)`` in seed 003, ``agent(board, player)``
in seeds 000 and 001) and how a position is shown to it. The agent keeps its
process for as long as it lives (a block of the class tournament's games), so
module state carries from move to move as it would in the student's own
notebook; ``random`` and ``numpy.random`` are seeded afresh at the first move
of each game (:meth:`StudentAgent.new_game`), so that a game's random choices
do not depend on the games the process played before it. A move that raises,
times out or is no column ends the game as a forfeit, with the student's own
answer in the message (0-based, as the student returned it).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from engine.agents.base import Agent, SearchResult
from engine.board import Board, Side
from engine.errors import AgentFailure
from engine.formats import to_array
from engine.grade import values
from engine.grade.model import Play
from engine.grade.process import ChildFailure, GradingProcess
from engine.stop import StopFlag

#: Seconds a file may take to load before its first move.
LOAD_SECONDS = 20.0


class StudentForfeit(AgentFailure):
    """The student's function failed a move: it raised, ran out of time, or answered no column."""


@dataclass
class StudentAgent(Agent):
    """``student``'s function ``play.function``, from its files (see the module docstring)."""

    student: str = ""
    files: dict[str, bytes] = field(default_factory=dict)
    main: str = ""
    play: Play | None = None
    seconds: float = 5.0
    memory_mb: int = 1024
    seed: int = 0
    _process: GradingProcess | None = field(default=None, init=False, repr=False)
    _game_seed: int | None = field(default=None, init=False, repr=False)  # sent with the game's first move

    @property
    def spec(self) -> str:
        return self.student

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        assert self.play is not None
        if self._process is None:
            self._start()
        assert self._process is not None
        cells = to_array(board, "012", "top").tolist()
        mover = 1 if board.turn is Side.FIRST else 2
        request = {"op": "call", **self.play.request(cells, mover)}
        if self._game_seed is not None:
            request["seed"], self._game_seed = self._game_seed, None
        try:
            reply = self._process.ask(request, self.seconds)
        except ChildFailure as failure:
            self.close()
            raise StudentForfeit(f"{self.student} {failure}") from None
        if "error" in reply or "missing" in reply:
            where = f" ({reply['where']})" if reply.get("where") else ""
            what = reply.get("error") or f"no function {reply['missing']}"
            raise StudentForfeit(f"{self.student}'s {self.play.function} raised {what}{where}")
        column = values.integer(reply.get("value"))
        if column is None or not board.is_legal(column):
            answer = values.shown(reply.get("value"))
            why = "not a column number" if column is None else f"column {column} (0-based) cannot be played"
            raise StudentForfeit(f"{self.student}'s {self.play.function} returned {answer}: {why}")
        return SearchResult(column=column, nodes=1)

    def new_game(self, seed: int | None = None) -> None:
        """Seed the student's ``random`` and ``numpy.random`` with ``seed`` at the next move."""
        self._game_seed = seed

    def _start(self) -> None:
        process = GradingProcess(self.files, self.main, memory_mb=self.memory_mb, seed=self.seed)
        try:
            first = process.start(LOAD_SECONDS)
        except ChildFailure as failure:
            process.close()
            raise StudentForfeit(f"{self.student}'s file {failure}") from None
        if first.get("ready") is not True:
            process.close()
            raise StudentForfeit(f"{self.student}'s file does not load: {first.get('error', '')}")
        self._process = process

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
