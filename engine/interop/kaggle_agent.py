"""The engine's agents as Kaggle ConnectX agents, inside Kaggle's clock from the first move.

Kaggle gives each move ``configuration.actTimeout`` seconds (2) and a bank of
overage time for the whole game (``observation.remainingOverageTime``, 60 s);
a move past both loses the game. :class:`KaggleAgent` keeps every move inside
``actTimeout`` less :data:`MARGIN`, without touching the bank:

- its engine agent is prepared on a thread of its own (numba compiles its
  kernels the first time: 10 to 40 s on a fresh install), and until then a
  stand-in in plain Python plays (:mod:`engine.interop.player`);
- on a board the engine does not play (Kaggle allows any size: ``columns=10``,
  ``rows=3``, ``inarow=7``) the plain-Python search plays every move, said
  once in the log (:mod:`engine.interop.plain`);
- a bad observation or configuration is one :class:`ObservationError` naming
  the field (:mod:`engine.interop.observations`).

It pickles as its spec, so it can be sent to another process.
"""

from __future__ import annotations

import time
from typing import Any

from engine.agents.base import Agent
from engine.board import Board
from engine.interop.observations import read_kaggle
from engine.interop.plain import plain_move
from engine.interop.player import STAND_IN_SHARE, EnginePlayer

#: Seconds kept back from ``actTimeout`` for what Kaggle counts beyond our move (its own calls, a pause).
MARGIN = 0.5
#: The least time a move is given, whatever ``actTimeout`` says.
MIN_SECONDS = 0.1


class KaggleAgent:
    """``agent(observation, configuration) -> column`` for Kaggle's ConnectX; see the module."""

    def __init__(self, spec: str | Agent, loaded_at: float | None = None) -> None:
        self.player = EnginePlayer(spec, background=True)
        #: When Kaggle's clock for the first move started (``time.perf_counter()``): Kaggle loads the
        #: submission inside the first move's call, so that move has the less time left.
        self.loaded_at = loaded_at
        self.__name__ = "kaggle_agent"
        self.__doc__ = f"The engine's {self.player.spec} agent for Kaggle ConnectX."

    def __call__(self, observation: Any, configuration: Any = None) -> int:
        started = time.perf_counter()
        turn = read_kaggle(observation, configuration)
        spent = 0.0 if self.loaded_at is None else max(0.0, started - self.loaded_at)
        self.loaded_at = None
        seconds = max(MIN_SECONDS, turn.act_timeout - MARGIN - spent)
        position = turn.position
        if position.geometry is None:
            self.player.say(
                f"connect-four: the engine plays 4..9 x 4..9 boards, connect 3..6; on {position.cols}x{position.rows}"
                f" connect {position.connect} a plain-Python search plays instead"
            )
            return plain_move(
                position.cells, position.cols, position.rows, position.connect, seconds=seconds * STAND_IN_SHARE
            )
        return self.player.move(position.board(), seconds=seconds)

    def __getstate__(self) -> dict[str, Any]:
        return {"player": self.player, "__name__": self.__name__, "__doc__": self.__doc__, "loaded_at": None}

    def __repr__(self) -> str:
        return f"as_kaggle_agent({self.player.spec!r})"


def as_kaggle_agent(spec: str | Agent, loaded_at: float | None = None) -> KaggleAgent:
    """An engine agent (or spec such as ``"hard"``) as a Kaggle ConnectX ``agent(observation, configuration)``.

    ``loaded_at``: the ``time.perf_counter()`` at which loading the submission began, when Kaggle's
    clock for the first move already runs (a submission's ``main.py`` passes it).
    """
    return KaggleAgent(spec, loaded_at)


def kaggle_board(observation: Any, configuration: Any) -> Board:
    """The position of a ConnectX observation (checked; see :mod:`engine.interop.observations`).

    Raises :class:`~engine.interop.observations.ObservationError` for a board the engine does not play.
    """
    position = read_kaggle(observation, configuration).position
    if position.geometry is None:
        from engine.interop.observations import ObservationError

        raise ObservationError(
            f"configuration: the engine plays 4..9 x 4..9 boards, connect 3..6, not {position.cols}x{position.rows}"
            f" connect {position.connect}"
        )
    return position.board()
