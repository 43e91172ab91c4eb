"""The perfect agent: a move of best exact score, from the solver and the opening book.

On 7x6 the opening book answers the first moves and the solver the rest, so
every move is exact. On other boards the solver gets ``time`` seconds; if it
does not finish, the agent plays the move of the strongest heuristic search
instead and says so: ``exact=estimate`` in its statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import create_agent, param, register, register_preset
from engine.board import Board
from engine.geometry import Geometry
from engine.progress import Progress
from engine.score import Score
from engine.solver.book import load_default
from engine.solver.solver import Solver
from engine.stop import StopFlag

#: Solve time when none is given: generous where a book keeps solves short, else short.
BOOK_TIME, NO_BOOK_TIME = 10.0, 2.0
#: The heuristic search used when a solve does not finish.
FALLBACK_SPEC = "alphabeta:eval=threats,time={time:g}"


@register("perfect", "plays a move of best exact score (solver and opening book); an estimate where it runs out")
@dataclass
class PerfectAgent(Agent):
    time: float | None = param(
        None,
        f"seconds for the exact solve (none: {BOOK_TIME:g} with an opening book, else {NO_BOOK_TIME:g})",
        kind=float,
        low=0.01,
        high=86400,
        label="Solve time",
    )
    fallback_time: float = param(
        1.0, "seconds for the heuristic search if the solve does not finish", low=0.01, high=600, label="Fallback time"
    )
    table_mb: int = param(64, "transposition table size in MB", low=1, high=4096, label="Table MB")
    book: bool = param(True, "use the opening book where there is one (7x6)", label="Opening book")
    _solver: Solver | None = field(default=None, init=False, repr=False, compare=False)

    def _solver_for(self, geometry: Geometry) -> Solver:
        # Keep one solver (and its table) across moves and games: what it learnt stays true.
        if self._solver is None or self._solver.geometry != geometry:
            book = load_default(geometry) if self.book else None  # None (and a warning) if it is damaged
            self._solver = Solver(geometry, self.table_mb, book=book)
            self._solver.warm_up()  # so that no move of the game waits for the compiler
        return self._solver

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        solver = self._solver_for(board.geometry)
        budget = self.time if self.time is not None else BOOK_TIME if solver.book is not None else NO_BOOK_TIME
        best = solver.best_move(board, seconds=budget, stop=stop)
        remaining = board.geometry.cells - board.ply
        if best.column is not None and best.score is not None:
            in_book = best.nodes == 0 and solver.book is not None and solver.book.entry(board) is not None
            return SearchResult(
                column=best.column,
                nodes=best.nodes,
                depth=remaining,
                score=Score.pons(best.score),
                pv=(best.column,),
                info={"book": "yes"} if in_book else {},
            )
        return _fallback(board, stop, self.fallback_time, best.nodes)

    def _progress(self, seconds: float) -> Progress | None:
        solver = self._solver
        return None if solver is None else Progress(seconds, solver.live_nodes)

    def close(self) -> None:
        self._solver = None


def _fallback(board: Board, stop: StopFlag, seconds: float, solver_nodes: int) -> SearchResult:
    """The heuristic search's move: its score stays an estimate unless the search proved it."""
    spec = FALLBACK_SPEC.format(time=seconds)
    result = create_agent(spec).choose(board, stop)
    return SearchResult(
        column=result.column,
        nodes=solver_nodes + result.nodes,
        depth=result.depth,
        score=result.score,
        pv=result.pv,
        completed=False,
        info={"fallback": spec},
    )


register_preset("perfect", "perfect", "perfect play: exact solver and opening book", level=5)
