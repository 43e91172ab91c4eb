"""Limits: how far one search may go - nodes, seconds and a stop flag - as one value.

The solver and the agents take the same :class:`Limits` as their second argument, as
python-chess's ``engine.play(board, chess.engine.Limit(time=2))`` does, so that a caller says "at
most 2 seconds, and stop when I say so" once, whatever answers::

    from engine import AutoSolver, Board, Limits, StopFlag, create_agent

    stop = StopFlag()
    AutoSolver().solve(Board.from_moves("4453"), Limits(seconds=2, stop=stop))
    create_agent("alphabeta:depth=81").choose(Board(), Limits(seconds=0.5, stop=stop))

Every field is optional; an empty ``Limits()`` (:data:`NO_LIMITS`) limits nothing.
``agent.choose(board, stop)`` with a bare stop flag is the one other spelling, kept because the
documentation has always shown it.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.errors import ValueRangeError
from engine.validate import MAX_NODES, MAX_SECONDS

if TYPE_CHECKING:  # (engine.stop loads numpy: a Limits without a stop flag must not)
    from engine.stop import StopFlag


@dataclass(frozen=True)
class Limits:
    """At most ``nodes`` positions (None or 0: no limit), ``seconds`` (None or inf: no limit), until ``stop`` is set.

    A search that reaches a limit says so in its result (the solver's
    ``finished=False``, an agent's best move so far); it never guesses.
    """

    nodes: int | None = None
    seconds: float | None = None
    stop: StopFlag | None = None

    def __post_init__(self) -> None:
        nodes, seconds = self.nodes, self.seconds
        if nodes is not None:
            if isinstance(nodes, bool) or not isinstance(nodes, numbers.Integral) or not 0 <= nodes <= MAX_NODES:
                raise ValueRangeError(f"nodes must be a whole number from 0 to {MAX_NODES:,}, not {nodes!r}")
            # (0: no limit, as the kernels count it)
            object.__setattr__(self, "nodes", int(nodes) or None)
        if seconds is not None:
            if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) or math.isnan(seconds) or seconds < 0:
                raise ValueRangeError(f"seconds must be a number from 0 up, not {seconds!r}")
            # (0: out of time already; inf, or more than any run lasts: no limit)
            object.__setattr__(self, "seconds", None if seconds > MAX_SECONDS else float(seconds))
        if self.stop is not None:
            from engine.stop import StopFlag  # (whoever has a stop flag has loaded it)

            if not isinstance(self.stop, StopFlag):
                raise ValueRangeError(f"stop must be a StopFlag, not {type(self.stop).__name__}")

    @property
    def node_budget(self) -> int:
        """The node limit as the kernels count it: 0 for none."""
        return self.nodes or 0


#: No limit at all.
NO_LIMITS = Limits()
