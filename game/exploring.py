"""The engine's explorer for the game's screens: each position's column values, on the worker thread.

The puzzle screen (why a try was wrong) and the explorer screen ask for the
exact value of every column of a position. The work runs on the app's
:class:`~game.worker.Worker` thread (a :class:`~game.jobs.Lane` there: a newer
request cancels the older), through one :class:`~engine.explore.Explorer`
per board size kept for the run: a position the opening book answers takes
no search (and loads no numba); any other is solved by the compiled solver,
stopped at once when the player moves on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.board import Board
    from engine.explore import Exploration, Explorer
    from engine.geometry import Geometry
    from game.jobs import Job

#: The solver's table for the explorations (MB): they are early positions, or quick ones.
TABLE_MB = 64
#: Nodes each move of the best line may take past the book (about 0.02 s): the line is a sketch, the values
#: are what the screen waits for.
LINE_NODES = 50_000

_EXPLORERS: dict[Geometry, Explorer] = {}


def explorer_for(geometry: Geometry) -> Explorer:
    """The explorer of ``geometry`` (made on first use; used only on the worker thread)."""
    from engine.explore import Explorer
    from engine.solver.auto import AutoSolver

    if geometry not in _EXPLORERS:
        _EXPLORERS[geometry] = Explorer(AutoSolver(geometry, table_mb=TABLE_MB), line_nodes=LINE_NODES)
    return _EXPLORERS[geometry]


def exploration(board: Board) -> Callable[[Job[Any]], Exploration]:
    """The work of a job that explores ``board`` (a copy is taken now), stopped by the job's stop flag."""
    from engine.limits import Limits

    position = board.copy()

    def work(job: Job[Any]) -> Exploration:
        return explorer_for(position.geometry).explore(position, Limits(stop=job.stop))

    return work
