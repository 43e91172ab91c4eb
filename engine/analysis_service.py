"""The live analysis and the game review in a process of their own: jobs in, snapshots out, as JSON lines.

The game's window draws a frame every 16 ms on its main thread. The analysis
solver runs in kernels that release the interpreter lock, but everything
around them - loading the kernels from numba's cache, the analyst's and the
review's Python between kernel calls - holds it, and in the game's own
process each such stretch delays a frame. In a child process none of it
competes with the frame loop, and the child runs at the lowest priority, so
it gives way to the player whose turn it is as well.

``python -m engine.analysis_service`` reads jobs on standard input and
answers on standard output, one JSON object a line (plain data only: the
game never unpickles or evaluates what it reads)::

    parent -> child  {"id": 3, "job": "analyze", "position": POSITION, "seconds": 30}
                     {"id": 4, "job": "review", "position": POSITION}
                     {"id": 5, "job": "lessons", "position": POSITION, "plies": [9, 14]}
                     {"id": 6, "job": "explain", "position": POSITION, "names": ["Red", "Yellow"]}
                     {"id": 7, "job": "answer", "position": POSITION, "from": 12, "names": [...]}
                     {"job": "stop"}                 stop the job under way
    child -> parent  {"id": 3, "item": ITEM}         one snapshot, as it comes
                     {"id": 3, "end": true}          finished, or stopped
                     {"id": 3, "error": "Type: message"}

A ``lessons`` job makes the puzzles of a reviewed game's mistakes (the moves
``plies``, 1-based: :func:`engine.puzzles.mistakes.from_plies`) within
:data:`LESSONS_SECONDS` in all, its solver's table still warm from the
review; an item is a puzzle's JSON (:meth:`Puzzle.to_json
<engine.puzzles.puzzle.Puzzle.to_json>`), checked again by the game.

A new job stops the one under way (within the solver's 50 ms); jobs that
queued up meanwhile are skipped for the newest. ``seconds`` (optional) bounds
the analysis' solve stage (:data:`engine.analysis.SOLVE_SECONDS` without it): then
the job ends, its last item says ``unsolved``, and the process waits idle
for the next job instead of keeping a core busy. ``POSITION`` is the board
size, the stones of the root position (a bitboard per player, so that a game
begun from a grid travels too) and the moves since. An ``analyze`` item is a
:class:`~engine.analysis.PositionAnalysis`, a ``review`` item a
:class:`~engine.review.MoveReview` (a mistake's comes again with its ``why``),
an ``explain`` item the :class:`~engine.explain.marks.Why` of the position's
explanation (``names``: the players, the first player's first), an ``answer``
item ``{"column": C, "rule": RULE}``: the move of the side whose strategy the
explanation of the position after the first ``from`` moves shows ("Show me").
End of input ends the process.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import asdict
from enum import Enum
from typing import IO, Any

from engine.board import Board, Side
from engine.geometry import Geometry
from engine.limits import Limits
from engine.resources import cores_beside_a_window
from engine.stop import StopFlag

#: The child's niceness: below the game (0) and below the thread of the players' searches (10).
NICENESS = 19
#: Seconds a ``lessons`` job takes at most: a game's mistakes are puzzles within 5 s of its review.
LESSONS_SECONDS = 4.5
#: Plies a ``lessons`` job takes at most (a game of the largest board has 81 moves).
MAX_PLIES = 81
#: Seconds the explain job gives the solve and the search for a reason.
EXPLAIN_SECONDS = 10.0


class Job(str, Enum):
    """The jobs the service runs; a request names one by its value."""

    ANALYZE = "analyze"
    REVIEW = "review"
    LESSONS = "lessons"
    EXPLAIN = "explain"
    ANSWER = "answer"


JOBS = tuple(job.value for job in Job)


# -- the wire format (both sides) --------------------------------------------------------------
def position_data(board: Board) -> dict[str, Any]:
    """``board`` as plain data: its size, the stones where its history starts, and the moves since."""
    root = board.root()
    g = board.geometry
    return {
        "cols": g.cols,
        "rows": g.rows,
        "connect": g.connect,
        "first": root.stones(Side.FIRST),
        "second": root.stones(Side.SECOND),
        "moves": list(board.history),
    }


def board_from(data: dict[str, Any]) -> Board:
    """The board of :func:`position_data` (checked like any position from outside)."""
    board = Board.from_stones(data["first"], data["second"], Geometry(data["cols"], data["rows"], data["connect"]))
    for col in data["moves"]:
        board.play(col)
    return board


def item_data(item: Any) -> dict[str, Any]:
    """A snapshot (a frozen dataclass of numbers, strings and scores, or already plain data) as plain data."""
    return item if isinstance(item, dict) else asdict(item)


def analysis_from(data: dict[str, Any]) -> Any:
    """The :class:`~engine.analysis.PositionAnalysis` of :func:`item_data`."""
    from engine.analysis import PositionAnalysis, Stage
    from engine.score import Score

    values = tuple(None if value is None else Score(**value) for value in data["values"])
    return PositionAnalysis(values, Stage(data["stage"]), data["seconds"], data["solving"])


def review_from(data: dict[str, Any]) -> Any:
    """The :class:`~engine.review.MoveReview` of :func:`item_data`."""
    from engine.review import MoveReview

    return MoveReview(**data)


def puzzle_from(data: dict[str, Any]) -> Any:
    """The :class:`~engine.puzzles.puzzle.Puzzle` of a ``lessons`` item (checked field by field)."""
    from engine.puzzles.puzzle import from_json

    return from_json(data)


def why_data_from(data: dict[str, Any]) -> Any:
    """The :class:`~engine.explain.marks.Why` of :func:`item_data`."""
    from engine.explain.marks import why_from

    return why_from(data)


def answer_from(data: dict[str, Any]) -> tuple[int, str]:
    """``(column, rule)`` of an answer item."""
    return int(data["column"]), str(data["rule"])


#: How the parent turns each job's items back into objects.
DECODERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    Job.ANALYZE: analysis_from,
    Job.REVIEW: review_from,
    Job.LESSONS: puzzle_from,
    Job.EXPLAIN: why_data_from,
    Job.ANSWER: answer_from,
}


# -- the child -------------------------------------------------------------------------------------
class Service:
    """Runs one job at a time for the newest request; keeps an analyst (and its solver's table) per board size."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self._analyst: Any = None
        self._explainer: Any = None
        self._explained: tuple[object, Any, Any] | None = None  # (position, explanation, strategist): "answer"

    def run(
        self, job: str, board: Board, stop: StopFlag, seconds: float | None = None, request: dict | None = None
    ) -> Iterator[Any]:
        if job not in JOBS:
            raise ValueError(f"unknown job {job!r} (expected one of {', '.join(JOBS)})")
        request = request or {}
        names = _names(request.get("names"))
        if job in (Job.EXPLAIN, Job.ANSWER):
            return self._explaining(job, board, stop, names, seconds or EXPLAIN_SECONDS, request.get("from"))
        analyst = self._analyst_for(board.geometry)
        if job == Job.ANALYZE:
            from engine.analysis import SOLVE_SECONDS

            return analyst.analyze(board, Limits(seconds=SOLVE_SECONDS if seconds is None else seconds, stop=stop))
        if job == Job.LESSONS:
            return lessons(board, ply_list(request.get("plies")) or [], analyst.solver, stop)
        from engine.review import review_game

        explainer = self._explainer_for(board.geometry)
        return review_game(board, analyst.solver, stop, explainer=explainer, names=names)

    def _explaining(
        self, job: str, board: Board, stop: StopFlag, names: tuple[str, str], seconds: float, start_moves: Any
    ) -> Iterator[Any]:
        """The explain job's one item (a Why), or the answer job's one move."""
        from engine.explain.marks import why_of
        from engine.explain.play import Strategist
        from engine.limits import Limits

        start = board
        if job == Job.ANSWER:
            moves = _index(start_moves, len(board.history))
            start = board.root()
            for col in board.history[:moves]:
                start.play(col)
        key = (start.geometry, start.key(), names)
        if self._explained is None or self._explained[0] != key:
            explainer = self._explainer_for(board.geometry)
            explanation = explainer.explain(start, Limits(seconds=seconds, stop=stop), names)
            if stop.is_set():
                return
            strategist = Strategist(start, explanation) if explanation.proof is not None else None
            self._explained = (key, explanation, strategist)
        _, explanation, strategist = self._explained
        if job == Job.EXPLAIN:
            yield why_of(start, explanation, names)
            return
        move = None if strategist is None else strategist.move(board)
        if move is None:
            raise ValueError("the explained strategy has no move here")
        yield {"column": move.column, "rule": move.rule}

    def _explainer_for(self, geometry: Geometry) -> Any:
        from engine.explain.explainer import Explainer

        if self._explainer is None or self._explainer.geometry != geometry:
            self._explainer = Explainer(geometry)
        return self._explainer

    def _analyst_for(self, geometry: Geometry) -> Any:
        from engine.analysis import Analyst

        if self._analyst is None or self._analyst.geometry != geometry:
            # The game's window keeps one core; the solves take the others.
            self._analyst = Analyst(geometry, threads=cores_beside_a_window())
        return self._analyst

    def answer(self, request: dict[str, Any], stop: StopFlag) -> None:
        """Run one job, writing each item as it comes, then its end (or what went wrong)."""
        number = request.get("id")
        try:
            seconds = solve_seconds(request.get("seconds"))
            job = str(request.get("job"))
            for item in self.run(job, board_from(request["position"]), stop, seconds, request):
                if stop.is_set():
                    break
                self.send({"id": number, "item": item_data(item)})
        except Exception as exc:  # a bad request or a bug: said in one line, and the next job runs
            self.send({"id": number, "error": f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__})
            return
        self.send({"id": number, "end": True})

    def send(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, separators=(",", ":")) + "\n")
        self.out.flush()


def _names(value: Any) -> tuple[str, str]:
    """A request's names of the players (the first player's first; Red and Yellow by default)."""
    if value is None:
        return ("Red", "Yellow")
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(name, str) for name in value)):
        raise ValueError(f"names must be two strings, not {value!r}")
    return (value[0][:40], value[1][:40])


def _index(value: Any, count: int) -> int:
    """A request's number of moves: a whole number from 0 to ``count``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= count:
        raise ValueError(f"from must be a whole number of moves from 0 to {count}, not {value!r}")
    return value


def solve_seconds(value: Any) -> float | None:
    """A request's bound on the solve stage: a positive finite number of seconds, or None (the default)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
        raise ValueError(f"seconds must be a positive number, not {value!r}")
    return float(value)


def ply_list(value: Any) -> list[int] | None:
    """A request's plies: a list of at most :data:`MAX_PLIES` whole numbers (None when not given)."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > MAX_PLIES or not all(type(ply) is int for ply in value):
        raise ValueError("plies must be a list of whole numbers")
    return value


def lessons(board: Board, plies: list[int], solver: Any, stop: StopFlag) -> Iterator[dict[str, Any]]:
    """The puzzles of the mistakes at ``plies``, as JSON, within :data:`LESSONS_SECONDS` in all."""
    import time

    from engine.puzzles.mistakes import from_plies
    from engine.puzzles.puzzle import Puzzle

    deadline = time.perf_counter() + LESSONS_SECONDS

    def limits() -> Limits:
        return Limits(seconds=max(0.0, deadline - time.perf_counter()), stop=stop)

    for found in from_plies(board, plies, solver, limits):
        if isinstance(found, Puzzle):
            yield found.to_json()


def serve(lines: IO[str], out: IO[str]) -> None:
    """Answer the jobs read from ``lines`` until it ends; each new line stops the job under way.

    The reading happens on a thread of its own so that a new request can set
    the running job's stop flag while the solver works on this thread.
    """
    requests: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()
    running = [StopFlag()]  # the flag of the job under way, replaced for each job
    # Queuing a request and stopping the job under way happen together, and so do choosing the next
    # job's flag and looking for newer requests: then every request either stops the job or is seen.
    lock = threading.Lock()

    def arrived(message: dict[str, Any] | None) -> None:
        with lock:
            requests.put(message)
            running[0].set()

    def read() -> None:
        for line in lines:
            with contextlib.suppress(ValueError):  # a garbled line is no job
                message = json.loads(line)
                if isinstance(message, dict):
                    arrived(message)
        arrived(None)

    threading.Thread(target=read, name="analysis-requests", daemon=True).start()
    service = Service(out)
    while True:
        request = requests.get()
        while request is not None and not requests.empty():  # several came during the last job: the newest counts
            request = requests.get()
        if request is None:
            return
        if request.get("job") == "stop":
            continue
        with lock:
            stop = running[0] = StopFlag()
            if not requests.empty():  # a newer one came in meanwhile
                continue
        service.answer(request, stop)


def lower_priority() -> None:
    """The whole process at the lowest priority (called before any thread starts, so all of them inherit it)."""
    if hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, NICENESS)


def main() -> int:
    lower_priority()
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):  # the game went away: nothing left to do
        serve(sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
