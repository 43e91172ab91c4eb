"""A PettingZoo AEC environment of Connect Four on every board the engine plays (4..9 x 4..9, connect 3..6).

It speaks ``connect_four_v3``'s language, so a policy written for that
environment plays here on other sizes: agents ``player_0`` (moves first) and
``player_1``; an observation is ``{"observation": planes (rows, columns, 2)
int8, plane 0 the observer's stones, top row first, "action_mask": (columns,)
int8}``, the mask all zeros for the player not to move; the action is the
0-based column; the reward +1 / -1 for a win / loss, 0 for a draw. An
illegal move ends the game and loses it, as PettingZoo's own wrapper makes
``connect_four_v3`` do. ``render_mode="ansi"`` returns the board as text.
The rules are the engine's :class:`~engine.board.Board`.

::

    from engine.interop import as_pettingzoo_policy, connect_four_env

    env = connect_four_env(cols=9, rows=7, connect=5)
    policy = as_pettingzoo_policy("hard", env.unwrapped.geometry)

This module imports PettingZoo and Gymnasium (``pip install pettingzoo``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from engine.board import Board, Side
from engine.geometry import Geometry

AGENTS = ("player_0", "player_1")


class ConnectFourEnv(AECEnv):
    """The environment of one board size (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "connect_four_engine_v0",
        "is_parallelizable": False,
    }

    def __init__(self, cols: int = 7, rows: int = 6, connect: int = 4, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.geometry = Geometry(cols, rows, connect)  # (a GeometryError for a board the engine does not play)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        planes = spaces.Box(low=0, high=1, shape=(rows, cols, 2), dtype=np.int8)
        mask = spaces.Box(low=0, high=1, shape=(cols,), dtype=np.int8)
        self.observation_spaces = {name: spaces.Dict({"observation": planes, "action_mask": mask}) for name in AGENTS}
        self.action_spaces = {name: spaces.Discrete(cols) for name in AGENTS}
        self.board = Board(self.geometry)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.board = Board(self.geometry)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        g, board = self.geometry, self.board
        me = Side.FIRST if agent == AGENTS[0] else Side.SECOND
        planes = np.zeros((g.rows, g.cols, 2), dtype=np.int8)
        for col in range(g.cols):
            for row in range(g.rows):
                side = board.cell(col, row)
                if side is not None:
                    planes[g.rows - 1 - row, col, 0 if side is me else 1] = 1
        mask = np.zeros(g.cols, dtype=np.int8)
        if agent == self.agent_selection and not board.is_over:
            mask[board.legal_columns()] = 1
        return {"observation": planes, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        other = AGENTS[1] if agent == AGENTS[0] else AGENTS[0]
        self._clear_rewards()
        if action is None or not self.board.is_legal(action):
            self.rewards[agent], self.rewards[other] = -1, 0
            self.infos[agent] = {"illegal_move": True}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.board.play(int(action))
            if self.board.winner is not None:
                self.rewards[agent], self.rewards[other] = 1, -1
            if self.board.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._agent_selector.next()
        self._accumulate_rewards()

    def render(self) -> str | None:
        return str(self.board) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release (no window)."""


def connect_four_env(cols: int = 7, rows: int = 6, connect: int = 4, render_mode: str | None = None) -> AECEnv:
    """The environment of a board, wrapped as PettingZoo wraps its own (out-of-bounds actions and the order of calls
    checked)."""
    env = ConnectFourEnv(cols, rows, connect, render_mode)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))
