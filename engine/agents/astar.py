"""A* search for a line of its own (seed 004's "A* Search"): informed, not adversarial.

Seed 004 contrasts an *informed* search with the adversarial ones: A* looks
for the shortest way to complete a line of its own and ignores what the
opponent may do (so it does not block, which is the point of the comparison).

States are the positions reached by adding the agent's own stones only (the
opponent's stones stay as they are; gravity still holds). The cost ``g`` is
the number of stones added; the heuristic ``h`` is the fewest stones still
missing from a window of ``connect`` cells that holds no opponent stone. ``h``
never overestimates (every missing stone takes at least one move), so the
first goal popped is a shortest plan. Ties of ``f = g + h`` go to the state
that seed 004's evaluation likes best, then to the earlier-found one.

Unlike ``greedy`` (one ply of evaluation for every column) it plans several
moves ahead; unlike the adversarial searches it never looks at replies.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import param, register
from engine.board import Board
from engine.geometry import Geometry
from engine.kernels.evaluation import NAMES, evaluate, evaluation_id
from engine.score import Score
from engine.stop import StopFlag

_NO_LINE = 10**6  # h when no window is still open: no line can be made


@cache
def windows(geometry: Geometry) -> tuple[int, ...]:
    """Every line of ``connect`` cells as a bit mask (horizontal, vertical and both diagonals)."""
    out = []
    n = geometry.connect
    for col, row in itertools.product(range(geometry.cols), range(geometry.rows)):
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            end_col, end_row = col + dc * (n - 1), row + dr * (n - 1)
            if 0 <= end_col < geometry.cols and 0 <= end_row < geometry.rows:
                out.append(sum(geometry.cell(col + dc * k, row + dr * k) for k in range(n)))
    return tuple(out)


def stones_missing(geometry: Geometry, own: int, other: int) -> int:
    """The fewest own stones still needed to fill a window free of ``other``'s stones."""
    best = _NO_LINE
    for window in windows(geometry):
        if not window & other:
            best = min(best, geometry.connect - (window & own).bit_count())
    return best


@register("astar", "A* search for the shortest way to a line of its own, ignoring replies (seed 004)")
@dataclass
class AStarAgent(Agent):
    node_key: ClassVar[str | None] = "nodes"  # (what Limits.nodes caps)
    nodes: int = param(10_000, "states to expand at most per move", low=1, high=10**9)
    eval: str = param("seed004", "evaluation that breaks ties between equally short plans", choices=NAMES)

    def __post_init__(self) -> None:
        self._eval_id = evaluation_id(self.eval)  # ValueError for an unknown name

    def _evaluate(self, geometry: Geometry, own: int, mask: int) -> int:
        """The tie-break evaluation of a state, from the agent's side."""
        return int(evaluate(geometry.to_kernel(own), geometry.to_kernel(mask), geometry.kernel, self._eval_id))

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        geometry = board.geometry
        own, mask = board.current, board.mask
        other = own ^ mask
        start_h = stones_missing(geometry, own, other)
        counter = itertools.count()  # the last tie-break: first found, first expanded
        # Entries: (f, tie-break, order found, g, own stones, all stones, plan so far).
        frontier: list[tuple[int, int, int, int, int, int, tuple[int, ...]]] = [
            (start_h, 0, next(counter), 0, own, mask, ())
        ]
        seen = {own}
        expanded, best = 0, None  # best: the plan whose state is closest to a line
        while frontier and expanded < self.nodes and not stop.is_set():
            f, _, _, g, own_now, mask_now, plan = heapq.heappop(frontier)
            h = f - g
            if plan and (best is None or (h, g) < (best[0], best[1])):
                best = (h, g, plan)
            if h == 0 and plan:
                break  # a line: the shortest plan, since h never overestimates
            expanded += 1
            for col in range(geometry.cols):
                if mask_now & geometry.top_cell(col):
                    continue  # full column
                # mask + bottom cell carries up the column to its lowest empty cell.
                landing = (mask_now + geometry.bottom_cell(col)) & geometry.column_mask(col)
                child_own, child_mask = own_now | landing, mask_now | landing
                if child_own in seen:
                    continue
                seen.add(child_own)
                child_h = stones_missing(geometry, child_own, other)
                liking = -self._evaluate(geometry, child_own, child_mask)
                entry = (g + 1 + child_h, liking, next(counter), g + 1, child_own, child_mask, (*plan, col))
                heapq.heappush(frontier, entry)
        if best is None:  # stopped before the first expansion: any legal move
            return SearchResult(column=board.legal_columns()[0], nodes=expanded, completed=False)
        h, g, plan = best
        return SearchResult(
            column=plan[0],
            nodes=expanded,
            depth=len(plan),
            score=Score.estimate(-(g + h)) if h < _NO_LINE else None,
            pv=plan,
            completed=h == 0,
            info={"frontier": len(frontier), "states": len(seen)},
        )
