"""Connect Four engine: rules for any board size, agents, solver, experiments.

The public API in one import::

    from engine import Board, Geometry, create_agent

    board = Board.from_moves("4453")
    result = create_agent("random:seed=1").choose(board)
    print(result.column, result.stats_line())

This package never imports pygame; the game in :mod:`game` builds on it.
"""

from engine import kernel_cache

kernel_cache.configure()  # before any kernel is compiled or loaded (see engine.kernel_cache)

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

if TYPE_CHECKING:  # (what the names below are, for type checkers)
    from engine.agents import Agent, SearchResult, StopFlag, create_agent
    from engine.board import Board, Side
    from engine.errors import AgentFailure, AgentSpecError, EngineError, GeometryError, IllegalMoveError, PositionError
    from engine.geometry import Geometry
    from engine.limits import Limits
    from engine.solver.auto import AutoSolver

#: Where each public name lives; imported on first use, so that ``python -m engine solve`` and
#: other light commands do not load every agent (and numba) first.
_HOMES = {
    "Agent": "engine.agents",
    "AgentFailure": "engine.errors",
    "AgentSpecError": "engine.errors",
    "AutoSolver": "engine.solver.auto",
    "Board": "engine.board",
    "EngineError": "engine.errors",
    "Geometry": "engine.geometry",
    "GeometryError": "engine.errors",
    "IllegalMoveError": "engine.errors",
    "Limits": "engine.limits",
    "PositionError": "engine.errors",
    "SearchResult": "engine.agents",
    "Side": "engine.board",
    "StopFlag": "engine.agents",
    "create_agent": "engine.agents",
}

__all__ = [
    "Agent",
    "AgentFailure",
    "AgentSpecError",
    "AutoSolver",
    "Board",
    "EngineError",
    "Geometry",
    "GeometryError",
    "IllegalMoveError",
    "Limits",
    "PositionError",
    "SearchResult",
    "Side",
    "StopFlag",
    "create_agent",
]
__getattr__ = lazy_exports(__name__, _HOMES)
