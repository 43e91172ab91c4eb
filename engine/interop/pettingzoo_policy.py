"""The engine's agents as PettingZoo policies: a ``connect_four_v3`` observation in, an action out.

The observation is PettingZoo's dict: ``observation``, planes of shape
``(rows, columns, 2)`` (plane 0 the stones of the player to move, plane 1 the
other's, top row first) and ``action_mask``, one 0 or 1 per column. The
policy answers with a column the mask allows: the agent's own choice when
the mask allows it, else the best allowed one (a mask may be narrower than
the legal moves). A bad observation is one
:class:`~engine.interop.observations.ObservationError` naming the field.
Boards the engine does not play get the plain-Python search, said once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.agents.base import Agent
from engine.board import Board
from engine.geometry import Geometry
from engine.interop.observations import ObservationError, read_pettingzoo
from engine.interop.plain import plain_move
from engine.interop.player import EnginePlayer

#: The board of PettingZoo's own ``connect_four_v3``.
CONNECT_FOUR_V3 = Geometry(7, 6, 4)


class PettingZooPolicy:
    """``policy(observation) -> action`` for ``connect_four_v3`` or :mod:`engine.interop.pettingzoo_env`."""

    def __init__(self, spec: str | Agent, geometry: Geometry | None = CONNECT_FOUR_V3, seconds: float | None = None):
        self.player = EnginePlayer(spec)
        self.geometry, self.seconds = geometry, seconds

    def __call__(self, observation: Mapping[str, Any]) -> int:
        position, allowed = read_pettingzoo(observation, self.geometry)
        if position.geometry is None:
            self.player.say(
                f"connect-four: the engine plays 4..9 x 4..9 boards, connect 3..6; on {position.cols}x{position.rows}"
                " a plain-Python search plays instead"
            )
            seconds = 0.5 if self.seconds is None else self.seconds
            size = (position.cols, position.rows, position.connect)
            return plain_move(position.cells, *size, seconds=seconds, allowed=allowed)
        return self.player.move(position.board(), seconds=self.seconds, allowed=allowed)

    def __repr__(self) -> str:
        return f"as_pettingzoo_policy({self.player.spec!r}, {self.geometry!r})"


def as_pettingzoo_policy(
    spec: str | Agent, geometry: Geometry | None = CONNECT_FOUR_V3, *, seconds: float | None = None
) -> PettingZooPolicy:
    """An engine agent (or spec) as a policy: observation dict -> action (see the module).

    ``geometry``: the board the observations must be of (``connect_four_v3``'s 7x6 by default;
    the environments of :mod:`engine.interop.pettingzoo_env` say theirs); ``seconds``: a time
    limit per move on top of the agent's own.
    """
    return PettingZooPolicy(spec, geometry, seconds)


def pettingzoo_board(observation: Mapping[str, Any], geometry: Geometry | None = CONNECT_FOUR_V3) -> Board:
    """The position of a ``connect_four_v3`` observation (checked), seen by the player to move."""
    position, _ = read_pettingzoo(observation, geometry)
    if position.geometry is None:
        raise ObservationError(f"observation['observation']: the engine does not play {position.cols}x{position.rows}")
    return position.board()
