"""The engine's exceptions, each with a message meant for the user, in two families.

- :class:`EngineError` (a ``ValueError``): bad input - a board size, a move, a position, an agent
  spec, a number, a file - that the caller can fix.
- :class:`AgentFailure` (a ``RuntimeError``): a sound request an agent failed at - a student's
  function that raised, hung, crashed or answered nonsense. A match forfeits that agent's game.

python-chess keeps the same line between ``IllegalMoveError`` and ``EngineError``.
"""

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


class AgentFailure(RuntimeError):
    """An agent that gave no move: the request was sound, the agent failed at it (see the module)."""
