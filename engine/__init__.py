"""Connect Four engine: rules for any board size, agents, solver, experiments.

The public API in one import::

    from engine import Board, Geometry, create_agent

    board = Board.from_moves("4453")
    result = create_agent("random:seed=1").choose(board)
    print(result.column, result.stats_line())

This package never imports pygame; the game in :mod:`game` builds on it.
"""

from engine import kernel_cache

kernel_cache.configure()  # before any kernel is compiled or loaded (see kernel_cache)

from engine.agents import Agent, SearchResult, StopFlag, create_agent
from engine.board import Board, Side
from engine.errors import AgentSpecError, EngineError, GeometryError, IllegalMoveError, PositionError
from engine.geometry import Geometry

__all__ = [
    "Agent",
    "AgentSpecError",
    "Board",
    "EngineError",
    "Geometry",
    "GeometryError",
    "IllegalMoveError",
    "PositionError",
    "SearchResult",
    "Side",
    "StopFlag",
    "create_agent",
]
