"""The random agent: a uniformly random legal column (the seeds' baseline)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import param, register
from engine.board import Board
from engine.stop import StopFlag


@register("random", "plays a uniformly random legal column")
@dataclass
class RandomAgent(Agent):
    seed: int | None = param(None, "random seed (none: a fresh one)", kind=int, low=0)
    _rng: random.Random = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def new_game(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        return SearchResult(column=self._rng.choice(board.legal_columns()), nodes=1)
