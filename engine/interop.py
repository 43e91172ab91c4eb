"""The engine's agents in the two places Python Connect Four agents live: Kaggle and PettingZoo.

- :func:`as_kaggle_agent` gives a function that Kaggle's ConnectX environment
  (``kaggle_environments.make("connectx")``) runs as an agent, on whatever
  board its configuration sets;
- :func:`as_pettingzoo_policy` gives a function from an observation of
  PettingZoo's ``connect_four_v3`` (a dict of the ``observation`` planes and
  the ``action_mask``) to a legal action.

The other way round, a Kaggle submission file plays in the engine as it is:
``python -m engine match --red submission.py:my_agent ...`` (see the
classroom agent). Importing this module costs nothing: neither library is
imported, and the engine's agent is built on the first call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from engine.agents.base import Agent
from engine.agents.classroom import board_for_player
from engine.agents.registry import create_agent
from engine.board import Board
from engine.formats import from_array


def _field(value: Any, name: str) -> Any:
    """``value.name`` or ``value[name]``: Kaggle passes structs that allow both, tests often plain dicts."""
    if isinstance(value, Mapping):
        return value[name]
    return getattr(value, name)


def kaggle_board(observation: Any, configuration: Any) -> Board:
    """The position of a ConnectX observation: a flat row-major board, top row first, 1 moved first."""
    cols, rows, inarow = (int(_field(configuration, key)) for key in ("columns", "rows", "inarow"))
    cells = np.asarray(_field(observation, "board"), dtype=np.int64).reshape(rows, cols)
    return from_array(cells, connect=inarow, encoding="012", origin="top")


def as_kaggle_agent(spec: str | Agent) -> Callable[[Any, Any], int]:
    """An engine agent (or spec such as ``"hard"``) as a Kaggle ConnectX ``agent(observation, configuration)``."""
    agent: Agent | None = spec if isinstance(spec, Agent) else None

    def kaggle_agent(observation: Any, configuration: Any) -> int:
        nonlocal agent
        if agent is None:
            agent = create_agent(str(spec))
        return int(agent.choose(kaggle_board(observation, configuration)).column)

    kaggle_agent.__name__ = "kaggle_agent"
    kaggle_agent.__doc__ = f"The engine's {spec if isinstance(spec, str) else spec.spec} agent for Kaggle ConnectX."
    return kaggle_agent


def pettingzoo_board(observation: Mapping[str, Any], connect: int = 4) -> Board:
    """The position of a ``connect_four_v3`` observation.

    Plane 0 holds the stones of the player to move, plane 1 the other's, top row first.
    """
    planes = np.asarray(observation["observation"])
    cells = planes[:, :, 0].astype(np.int64) - planes[:, :, 1].astype(np.int64)  # 1 mine, -1 theirs
    return board_for_player(cells, player=1, connect=connect, encoding="signed", origin="top")


def as_pettingzoo_policy(spec: str | Agent, connect: int = 4) -> Callable[[Mapping[str, Any]], int]:
    """An engine agent (or spec) as a policy for PettingZoo's ``connect_four_v3``: observation -> action.

    The action is the agent's column; one the ``action_mask`` rules out is an error, never played.
    """
    agent: Agent | None = spec if isinstance(spec, Agent) else None

    def policy(observation: Mapping[str, Any]) -> int:
        nonlocal agent
        if agent is None:
            agent = create_agent(str(spec))
        column = int(agent.choose(pettingzoo_board(observation, connect)).column)
        mask = observation.get("action_mask")
        if mask is not None and not mask[column]:
            raise ValueError(f"the agent chose column {column}, which the action mask rules out")
        return column

    return policy
