"""The engine's exceptions: each carries a message meant for the user."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: bad input to the engine, explained in plain words."""


class GeometryError(EngineError):
    """A board size or connect-N outside what the engine supports."""


class IllegalMoveError(EngineError):
    """A move that the rules do not allow in this position."""


class PositionError(EngineError):
    """A position (move string, grid, array) that cannot arise in a game."""


class AgentSpecError(EngineError):
    """An agent specification such as ``alphabeta:depth=x`` that cannot be used."""


class ValueRangeError(EngineError):
    """A number that is not finite, not whole, or outside its range (see :mod:`engine.validate`)."""


class ResourceError(EngineError):
    """A request for more memory than the machine has (refused before allocating)."""
