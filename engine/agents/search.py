"""Search agents: greedy, minimax and alpha-beta, and the difficulty presets built on them.

- ``greedy`` looks one move ahead: the best evaluation after its own move,
  ignoring the replies (what seed 004 calls A*). It takes a win when it sees
  one, but never sees the opponent's.
- ``minimax`` searches every move to a fixed depth: the teaching baseline.
- ``alphabeta`` prunes what cannot matter, orders moves, remembers positions in
  a transposition table, and deepens iteratively (depth 1, 2, ...), so a time
  or node limit always leaves the best move of the deepest finished iteration.

The kernels are in :mod:`engine.kernels.search`; this module runs them and
turns their arrays into a :class:`~engine.agents.base.SearchResult`. Values are
in the evaluation's units, a forced win is ``1_000_000 - p`` (``p``: stones on
the board after the winning move) and a forced loss its negative. When every
value a search reports is a game value (it never cut off at its depth limit, or
it found only forced wins and losses), the result gives them in Pons's
convention with ``exact=True``.
"""

from __future__ import annotations

import math
import random
import secrets
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import ClassVar

import numpy as np

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import param, register
from engine.board import Board
from engine.errors import IllegalMoveError
from engine.geometry import Geometry
from engine.kernels import search as kernels
from engine.kernels.evaluation import NAMES, evaluate, evaluation_id
from engine.kernels.rules import can_play, is_winning_move
from engine.kernels.search import CUT, INF, WIN, SearchContext, new_context
from engine.progress import Progress
from engine.score import Score
from engine.stats import ABORTED, NO_LIMIT, NODE_LIMIT, NODES
from engine.stop import StopFlag

_EVAL_HELP = "evaluation function where the search stops (see engine/kernels/evaluation.py)"
_MODE_HELP = (
    "with eval=seed000: seed 000's weight mode 1 (0.9/0.6/0.3 of a line), 2 (0.6/0.4/0.2), 3 (30/20/10); 0: 3/2/1"
)


def proven_plies(score: int, ply: int, geometry: Geometry) -> int | None:
    """Plies until the forced end that ``score`` announces, or None for a heuristic value."""
    if abs(score) < WIN - geometry.cells:
        return None
    return WIN - abs(score) - ply


def table_entries(megabytes: int) -> int:
    """The most table entries (a power of two, or 0) that fit in ``megabytes``."""
    fitting = (megabytes << 20) // kernels.TABLE_ENTRY.itemsize
    return 1 << (fitting.bit_length() - 1) if fitting else 0


def _all_forced(columns: list[int | None], geometry: Geometry) -> bool:
    """Is every known column value a forced win or loss?

    Such values are proofs, and their distances exact: a quicker win, or a
    slower loss, would have been found within the same depth.
    """
    return all(proven_plies(s, 0, geometry) is not None for s in columns if s is not None)


def pons_score(score: int, geometry: Geometry) -> int:
    """A proven value in Pons's convention: a win with the p-th stone is ``(cells + 2 - p) // 2``."""
    if score == 0:
        return 0
    magnitude = geometry.win_score(WIN - abs(score))
    return magnitude if score > 0 else -magnitude


@dataclass
class _Iteration:
    """The outcome of one finished search to a fixed depth."""

    column: int
    depth: int
    score: int
    pv: tuple[int, ...]
    columns: list[int | None]  # exact value of each column, None if full or only bounded
    proven: bool  # the values are game values: no evaluation, or only forced wins and losses


def _pv(ctx: SearchContext) -> tuple[int, ...]:
    return tuple(int(col) for col in ctx.pv[0, : ctx.pv_len[0]])


def _score(value: int, proven: bool, geometry: Geometry) -> Score:
    """A search value as a Score: Pons's exact score when the iteration proved it, else an estimate."""
    return Score.pons(pons_score(value, geometry)) if proven else Score.estimate(value)


def _result(best: _Iteration, ctx: SearchContext, geometry: Geometry, ply: int, completed: bool) -> SearchResult:
    """The SearchResult of the last finished iteration."""
    nodes = int(ctx.stats[NODES])

    def convert(value: int) -> Score:
        return _score(value, best.proven, geometry)

    info: dict[str, object] = {}
    plies = proven_plies(best.score, ply, geometry)
    if plies is not None:
        info["win_in" if best.score > 0 else "loss_in"] = plies
    return SearchResult(
        column=best.column,
        nodes=nodes,
        depth=best.depth,
        score=convert(best.score),
        pv=best.pv,
        column_scores=tuple(None if s is None else convert(s) for s in best.columns),
        completed=completed,
        info=info,
    )


def _unfinished(board_current: int, board_mask: int, geometry: Geometry, ctx: SearchContext) -> SearchResult:
    """The answer when not even a depth-1 search finished: a win if there is one, else the first legal column."""
    g = geometry.kernel
    current, mask = geometry.to_kernel(board_current), geometry.to_kernel(board_mask)
    legal = [int(c) for c in ctx.base_order if can_play(mask, g, int(c))]
    column = next((col for col in legal if is_winning_move(current, mask, g, col)), legal[0])
    return SearchResult(column=column, nodes=int(ctx.stats[NODES]), depth=0, completed=False)


class AlphaBetaSearch:
    """Alpha-beta with iterative deepening on one board size; keeps its table between moves."""

    def __init__(self, geometry: Geometry, eval_name: str, order: str, table_entries: int) -> None:
        self.geometry = geometry
        self.ctx = new_context(geometry.cols, geometry.rows, order, evaluation_id(eval_name), table_entries)
        # Published for other threads (see engine.progress): the depth under way, the last finished iteration.
        self.live_depth = 0
        self.live_best: _Iteration | None = None

    def progress(self, seconds: float) -> Progress:
        """A snapshot of the search under way (any thread may call it)."""
        best = self.live_best
        return Progress(
            seconds,
            int(self.ctx.stats[NODES]),  # the kernels' own counter, read live
            depth=self.live_depth,
            best_column=None if best is None else best.column,
            pv=() if best is None else best.pv,
            score=None if best is None else _score(best.score, best.proven, self.geometry),
        )

    def clear(self) -> None:
        """Forget every stored position."""
        self.ctx.table.view(np.uint8)[:] = 0  # a plain memset: assigning to the record array is far slower

    def search(
        self,
        current: int,
        mask: int,
        depth: int,
        *,
        nodes: int | None = None,
        all_exact: bool = False,
        margin: int = -1,
        flag: np.ndarray | None = None,
    ) -> SearchResult:
        """Search the position ``(current, mask)`` (Python-int bitboards, game not over) to ``depth``.

        Iterations run at depth 1, 2, ... up to ``depth`` (or the number of
        empty cells), and stop early once an iteration is proven, or finds a
        forced win or loss unless ``all_exact`` asks for every column's value
        (a quicker win would have been found already). If the
        ``flag`` (a StopFlag's array) is set or ``nodes`` are used up, the
        result is the last finished iteration, improved by the unfinished one
        if it already found a better move (it searches the previous best first).
        ``margin`` (0 or more) makes every root value within it of the best
        exact, for :func:`vary`; -1 is plain alpha-beta.
        """
        geometry, g = self.geometry, self.geometry.kernel
        ctx = self.ctx._replace(flag=np.zeros(1, dtype=np.uint8) if flag is None else flag)
        ctx.stats[NODES], ctx.stats[ABORTED] = 0, 0
        ctx.stats[NODE_LIMIT] = NO_LIMIT if nodes is None else nodes
        kcurrent, kmask = geometry.to_kernel(current), geometry.to_kernel(mask)
        ply = mask.bit_count()
        scores = np.zeros(geometry.cols, dtype=np.int64)
        exact = np.zeros(geometry.cols, dtype=np.uint8)
        best: _Iteration | None = None
        self.live_best = None
        for d in range(1, min(depth, geometry.cells - ply) + 1):
            self.live_depth = d
            exact[:] = 0
            ctx.stats[CUT] = 0
            first = -1 if best is None else best.column
            col = int(kernels.alphabeta_root(kcurrent, kmask, g, d, first, all_exact, margin, ctx, scores, exact))
            if ctx.stats[ABORTED]:
                # The unfinished iteration searched the previous best move first, so a
                # different best move among the moves it finished is a better choice.
                if col >= 0 and (best is None or col != best.column):
                    columns: list[int | None] = best.columns if best else [None] * geometry.cols
                    best = _Iteration(col, d - 1, int(scores[col]), _pv(ctx), columns, proven=False)
                if best is None:
                    return _unfinished(current, mask, geometry, ctx)
                return _result(best, ctx, geometry, ply, False)
            columns = [int(scores[c]) if exact[c] else None for c in range(geometry.cols)]
            proven = ctx.stats[CUT] == 0 or _all_forced(columns, geometry)
            best = self.live_best = _Iteration(col, d, int(scores[col]), _pv(ctx), columns, proven)
            if best.proven or (not all_exact and proven_plies(best.score, ply, geometry) is not None):
                break  # deeper iterations cannot change a proven value, or a forced win or loss
        assert best is not None  # the position has an empty cell, so depth 1 was searched
        return _result(best, ctx, geometry, ply, True)


def plain_alphabeta(
    current: int,
    mask: int,
    geometry: Geometry,
    depth: int,
    eval_name: str,
    order: str = "center",
    nodes: int | None = None,
) -> SearchResult:
    """One alpha-beta search to ``depth``, without table or deepening: the seeds' algorithm.

    With ``nodes``, the search stops there and says so (``completed=False``, the move
    of :func:`_unfinished`): how the studies show a search that would take hours.
    """
    ctx = new_context(geometry.cols, geometry.rows, order, evaluation_id(eval_name))
    ctx.stats[NODE_LIMIT] = NO_LIMIT if nodes is None else nodes
    ply = mask.bit_count()
    depth = min(depth, geometry.cells - ply)
    scores, exact = np.zeros(geometry.cols, dtype=np.int64), np.zeros(geometry.cols, dtype=np.uint8)
    kcurrent, kmask = geometry.to_kernel(current), geometry.to_kernel(mask)
    col = int(kernels.alphabeta_root(kcurrent, kmask, geometry.kernel, depth, -1, False, -1, ctx, scores, exact))
    if ctx.stats[ABORTED]:
        return _unfinished(current, mask, geometry, ctx)
    columns = [int(scores[c]) if exact[c] else None for c in range(geometry.cols)]
    proven = ctx.stats[CUT] == 0 or _all_forced(columns, geometry)
    return _result(_Iteration(col, depth, int(scores[col]), _pv(ctx), columns, proven), ctx, geometry, ply, True)


def minimax_search(
    current: int, mask: int, geometry: Geometry, depth: int, eval_name: str, flag: np.ndarray | None = None
) -> SearchResult:
    """Plain minimax of ``(current, mask)`` to ``depth``, with the value of every column.

    If stopped, the best of the columns searched so far is played.
    """
    g = geometry.kernel
    ctx = new_context(geometry.cols, geometry.rows, "natural", evaluation_id(eval_name))
    if flag is not None:
        ctx = ctx._replace(flag=flag)
    ctx.stats[NODE_LIMIT] = NO_LIMIT
    ply = mask.bit_count()
    scores = np.full(geometry.cols, -INF, dtype=np.int64)
    kcurrent, kmask = geometry.to_kernel(current), geometry.to_kernel(mask)
    col = int(kernels.minimax_root(kcurrent, kmask, g, min(depth, geometry.cells - ply), ctx, scores))
    completed = col >= 0
    if not completed:
        searched = [c for c in range(geometry.cols) if scores[c] > -INF]
        if not searched:
            return _unfinished(current, mask, geometry, ctx)
        col = max(searched, key=lambda c: scores[c])
    columns = [int(s) if s > -INF else None for s in scores]
    proven = completed and (ctx.stats[CUT] == 0 or _all_forced(columns, geometry))
    iteration = _Iteration(col, depth, int(scores[col]), _pv(ctx) if completed else (col,), columns, proven)
    return _result(iteration, ctx, geometry, ply, completed)


_MINIMAX_READY: set[bool] = set()


def _warm_minimax(geometry: Geometry) -> None:
    """Compile or load the minimax kernel for this width of bitboard, once per process."""
    if geometry.wide not in _MINIMAX_READY:
        minimax_search(0, 0, geometry, 1, "zero")
        _MINIMAX_READY.add(geometry.wide)


def _compile_evaluation(geometry: Geometry, eval_id: int) -> None:
    """Compile (or load) the evaluation kernel, as the search calls it."""
    empty = geometry.to_kernel(0)
    evaluate(empty, empty, geometry.kernel, eval_id)


def _compile_ordering(geometry: Geometry, order: str, eval_id: int) -> None:
    """Compile (or load) the move ordering, as the search calls it, on the empty board."""
    empty = geometry.to_kernel(0)
    kernels.order_moves(empty, empty, geometry.kernel, 0, -1, new_context(geometry.cols, geometry.rows, order, eval_id))


def vary(result: SearchResult, geometry: Geometry, tolerance: float, rng: random.Random) -> SearchResult:
    """Play a random one of the moves as good as the chosen one, or nearly (``tolerance``).

    Only columns whose value is known exactly count. A proven value (a forced
    win, loss or draw) ties only with the same value, so a quicker win is never
    traded for a slower one; heuristic values tie within ``tolerance``
    evaluation units. The principal variation is cut to the move when it changes.
    """
    scores = result.column_scores
    chosen = None if scores is None else scores[result.column]
    if scores is None or chosen is None:
        return result

    def near(score: Score | None) -> bool:
        if score is None or score.unit != chosen.unit:
            return False
        if score.value == chosen.value:
            return True
        heuristic = max(abs(score.value), abs(chosen.value)) < WIN - geometry.cells
        return heuristic and not score.is_exact and score.value >= chosen.value - tolerance

    candidates = [col for col, score in enumerate(scores) if near(score)]
    column = rng.choice(candidates)
    if column == result.column:
        return result
    return replace(result, column=column, score=scores[column], pv=(column,))


def new_random(seed: int | None) -> random.Random:
    """The generator of an agent's choices among equals: from ``seed``, or fresh when it is None."""
    return random.Random(secrets.randbits(63) if seed is None else seed)


_SEED_HELP = "random seed of the choice among equally good moves (none: a fresh one)"
_TOLERANCE_HELP = "moves within this many evaluation units of the best count as equally good"


# -- the agents ------------------------------------------------------------------------------
class SearchAgent(Agent):
    """An agent that searches raw positions, not only boards reached by legal play.

    :meth:`search_position` takes ``(current, mask)`` bitboards as Python ints;
    the seeds' hand-made boards are not always reachable (a side to move with
    one stone too many), and the search does not mind.
    """

    eval: str
    tolerance: float
    seed: int | None
    _rng: random.Random
    mode: int  # seed 000's weight mode for eval=seed000 (0: its plain 3/2/1)

    def __post_init__(self) -> None:
        if self.mode and self.eval != "seed000":
            raise ValueError("mode= chooses seed 000's weights: it goes with eval=seed000")
        evaluation_id(self.evaluation)  # an unknown name fails when the agent is made, not at its first move
        self._rng = new_random(self.seed)

    @property
    def evaluation(self) -> str:
        """The kernel's evaluation name: ``eval``, or seed 000's weights in mode ``mode``."""
        return f"seed000/{self.mode}" if self.mode else self.eval

    def new_game(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        return self.search_position(board.geometry, board.current, board.mask, stop)

    def search_position(
        self, geometry: Geometry, current: int, mask: int, stop: StopFlag | None = None
    ) -> SearchResult:
        """Search ``(current, mask)``: ``current`` holds the stones of the side to move."""
        if mask == geometry.board_mask:
            raise IllegalMoveError("the game is over: the board is full")
        own_clock = self._started is None  # called directly, not through choose()
        if own_clock:
            self.prepare(geometry)
            started = self._start_clock()
        result = vary(self._run(geometry, current, mask, stop or StopFlag()), geometry, self.tolerance, self._rng)
        return replace(result, seconds=self._stop_clock(started)) if own_clock else result

    @abstractmethod
    def _run(self, geometry: Geometry, current: int, mask: int, stop: StopFlag) -> SearchResult:
        """Search the position; ``stop`` is set when the search must end."""


@register("greedy", "best evaluation after its own move, one ply, ignoring replies")
@dataclass
class GreedyAgent(SearchAgent):
    eval: str = param("seed004", _EVAL_HELP, choices=NAMES)
    mode: int = param(0, _MODE_HELP, low=0, high=3, label="Seed 000 mode")
    tolerance: float = param(0.0, _TOLERANCE_HELP, low=0.0, high=1e6, label="Near-tie tolerance")
    seed: int | None = param(None, _SEED_HELP, kind=int, low=0)
    _rng: random.Random = field(init=False, repr=False, compare=False)

    def _run(self, geometry: Geometry, current: int, mask: int, stop: StopFlag) -> SearchResult:
        return minimax_search(current, mask, geometry, 1, self.evaluation, stop.array)

    def prepare(self, geometry: Geometry) -> None:
        _warm_minimax(geometry)


@register("minimax", "plain minimax to a fixed depth, no pruning (the teaching baseline)")
@dataclass
class MinimaxAgent(SearchAgent):
    depth: int = param(4, "plies to search (the evaluation scores the positions there)", low=1, high=81)
    eval: str = param("f4", _EVAL_HELP, choices=NAMES)
    mode: int = param(0, _MODE_HELP, low=0, high=3, label="Seed 000 mode")
    tolerance: float = param(0.0, _TOLERANCE_HELP, low=0.0, high=1e6, label="Near-tie tolerance")
    seed: int | None = param(None, _SEED_HELP, kind=int, low=0)
    _rng: random.Random = field(init=False, repr=False, compare=False)

    def _run(self, geometry: Geometry, current: int, mask: int, stop: StopFlag) -> SearchResult:
        return minimax_search(current, mask, geometry, self.depth, self.evaluation, stop.array)

    def prepare(self, geometry: Geometry) -> None:
        _warm_minimax(geometry)


@register("alphabeta", "alpha-beta with move ordering, transposition table and iterative deepening")
@dataclass
class AlphaBetaAgent(SearchAgent):
    node_key: ClassVar[str | None] = "nodes"  # (what Limits.nodes caps)
    depth: int = param(8, "deepest iteration in plies (81: to the end of the game)", low=1, high=81)
    eval: str = param("threats", _EVAL_HELP, choices=NAMES)
    mode: int = param(0, _MODE_HELP, low=0, high=3, label="Seed 000 mode")
    order: str = param("heuristic", "move ordering", choices=kernels.ORDERS)
    nodes: int | None = param(None, "node limit per move (none: no limit)", kind=int, low=1, high=10**15)
    seconds: float | None = param(
        None, "seconds per move (none: no limit)", kind=float, low=0.001, high=86400, aliases=("time",)
    )
    table_mb: int = param(
        16, "transposition table in MB (0: none)", low=0, high=4096, label="Table MB", aliases=("tt",)
    )
    columns: bool = param(
        False, "exact value of every column (slower: no pruning between root moves)", label="All columns"
    )
    tolerance: float = param(0.0, _TOLERANCE_HELP, low=0.0, high=1e6, label="Near-tie tolerance")
    seed: int | None = param(None, _SEED_HELP, kind=int, low=0)
    _rng: random.Random = field(init=False, repr=False, compare=False)
    _search_state: AlphaBetaSearch | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.order not in kernels.ORDERS:
            raise ValueError(f"unknown move order {self.order!r} (known: {', '.join(kernels.ORDERS)})")

    def _searcher(self, geometry: Geometry) -> AlphaBetaSearch:
        if self._search_state is None or self._search_state.geometry != geometry:
            self._search_state = AlphaBetaSearch(geometry, self.evaluation, self.order, table_entries(self.table_mb))
            # The first call of a kernel compiles it or loads it from the cache: do it now,
            # on the empty board with a one-node limit, so that no move's clock pays for it.
            self._search_state.search(0, 0, 1, nodes=1)
        return self._search_state

    def prepare(self, geometry: Geometry) -> None:
        self._searcher(geometry)

    def preparation_parts(self, board: Board) -> tuple[Callable[[], None], ...]:
        # The evaluation and the move ordering have kernels of their own, which call no common
        # kernel but the rules; the search calls both.
        if self._search_state is not None and self._search_state.geometry == board.geometry:
            return ()
        eval_id = evaluation_id(self.evaluation)
        return (
            partial(_compile_evaluation, board.geometry, eval_id),
            partial(_compile_ordering, board.geometry, self.order, eval_id),
        )

    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        if self._search_state is not None:
            self._search_state.clear()

    def close(self) -> None:
        self._search_state = None

    def _progress(self, seconds: float) -> Progress | None:
        searcher = self._search_state
        return None if searcher is None else searcher.progress(seconds)

    def _run(self, geometry: Geometry, current: int, mask: int, stop: StopFlag) -> SearchResult:
        searcher = self._searcher(geometry)
        with self.time_limit(stop, self.seconds) as flag:
            return searcher.search(
                current,
                mask,
                self.depth,
                nodes=self.nodes,
                all_exact=self.columns,
                margin=math.ceil(self.tolerance),
                flag=flag.array,
            )
