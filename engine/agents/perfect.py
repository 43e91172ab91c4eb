"""The perfect agent: a move of best exact score, from the solver and the opening books.

Among equally good moves (the same exact score: the same result, as soon or
as late) it picks one at random with its ``seed``, so two perfect players do
not replay one game, and the same seed replays the same game. The ties are
proven, never guessed: a move the book answers is tied only with the columns
after which the book holds the position of every reply, and so their score
(any other column would lead the agent out of its book, to positions that may
take minutes to solve); a
solved move is tied with every column that one more null-window test each,
within :data:`TIE_NODES` nodes in all, shows to score as well. (That budget
is the one thing a warm table can change: a fresh agent with the same seed
always replays the same game.)

On every connect-4 board of up to :data:`EXACT_CELLS` cells (7x6, 6x7 and
everything smaller) every move is exact: the shipped opening books answer
the slow first moves and the solver the rest, with no time limit (only a
stop, from the game's undo or new game, cuts a solve short, and that move is
then marked an estimate). Longer lines make longer games, so connect 5 and 6
are exact that way only up to :data:`EXACT_CELLS_LONG_LINES` cells or with a
book of their own (:func:`exact_in_time`): on 7x6 the empty board of connect
5 is not solved in five minutes. Everywhere else no exact answer is certain
in time: the solver gets two thirds of ``seconds`` and, if it does not
finish, the strongest heuristic search plays in what is left and the move
says ``exact=estimate``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import create_agent, param, register
from engine.agents.search import AlphaBetaAgent, new_random
from engine.board import Board
from engine.geometry import Geometry
from engine.limits import Limits
from engine.progress import Progress
from engine.solver.book import Book, book_path, load_default
from engine.solver.settings import DEFAULT_TABLE_MB, MAX_THREADS
from engine.solver.solver import Solver
from engine.stop import StopFlag

#: Connect-4 boards of up to this many cells are solved exactly on every move.
EXACT_CELLS = 42
#: Connect 5 and 6 boards of up to this many cells too (more need books: see exact_in_time).
EXACT_CELLS_LONG_LINES = 30
#: The share of ``seconds`` the solver gets on bigger boards; the heuristic search has the rest.
SOLVE_SHARE = 2 / 3
#: The heuristic search used when a solve does not finish.
FALLBACK_SPEC = "alphabeta:eval=threats"
#: Nodes the tie tests of one solved move may take together (a fifth of a second of one core):
#: they cost a quarter to a half of the solve's nodes past the books (up to its whole cost on a
#: few positions), so a move that needed a long solve does not take much longer for its variety.
TIE_NODES = 1_000_000


def exact_in_time(geometry: Geometry, book: Book | bool | None) -> bool:
    """True where every move is solved exactly within seconds, so the agent solves without a time limit.

    Measured with cold solves of the first moves (docs/solver.md):
    connect 3 and 4 everywhere up to 42 cells with the shipped books; connect
    5 and 6 up to 30 cells without a book (at most 4.3 million nodes, 7x4
    connect 6), above that only with one (8x4 connect 5 needs over 9 million
    nodes, 7x6 connect 5 more than five minutes). ``book``: the book, or whether there is one.
    """
    if geometry.cells > EXACT_CELLS:
        return False
    has_book = book if isinstance(book, bool) else book is not None
    return geometry.connect <= 4 or geometry.cells <= EXACT_CELLS_LONG_LINES or has_book


@register(
    "perfect", "exact best moves up to 42 cells (solver and opening books); estimates where a solve may not finish"
)
@dataclass
class PerfectAgent(Agent):
    seconds: float = param(
        2.0,
        f"seconds per move where a solve may not finish (more than {EXACT_CELLS} cells; connect 5 and 6"
        f" on more than {EXACT_CELLS_LONG_LINES} without a book)",
        low=0.01,
        high=86400,
        label="Seconds (big boards)",
        aliases=("time",),
    )
    table_mb: int = param(DEFAULT_TABLE_MB, "transposition table size in MB", low=1, high=4096, label="Table MB")
    book: bool = param(True, "use the opening book where there is one", label="Opening book")
    threads: int = param(
        1, "threads a long solve shares its work between (see engine.solver.parallel)", low=1, high=MAX_THREADS
    )
    seed: int | None = param(
        None, "random seed of the choice among equally good moves (none: a fresh one)", kind=int, low=0
    )
    _rng: random.Random = field(init=False, repr=False, compare=False)
    _solver: Solver | None = field(default=None, init=False, repr=False, compare=False)
    _fallback: AlphaBetaAgent | None = field(default=None, init=False, repr=False, compare=False)
    _warm: bool = field(default=False, init=False, repr=False, compare=False)  # the solver's kernels are loaded
    _nodes_before: int = field(default=0, init=False, repr=False, compare=False)  # this move's finished solves

    def __post_init__(self) -> None:
        self._rng = new_random(self.seed)

    def new_game(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)

    def prepare(self, geometry: Geometry) -> None:
        solver = self._solver_for(geometry)
        if not self._warm:
            solver.warm_up()  # so that no move of the game waits for the compiler
            self._warm = True
        if self._fallback is None:
            self._fallback = create_agent(FALLBACK_SPEC)  # type: ignore[assignment]
        assert self._fallback is not None
        self._fallback.prepare(geometry)

    def prepare_for(self, board: Board) -> None:
        # A position the book answers needs no kernel: the first moves of a fresh install
        # do not wait for the solver's compiling (the moves after the book prepare it).
        if not self._warm and self._book_move(board) is not None:
            return
        self.prepare(board.geometry)

    def exact_on(self, geometry: Geometry) -> bool:
        """Every move exact on ``geometry`` (see :func:`exact_in_time`), with the shipped book if it uses one."""
        return exact_in_time(geometry, self.book and book_path(geometry).is_file())

    def _solver_for(self, geometry: Geometry) -> Solver:
        """The solver of ``geometry``: one kept across moves and games, since what its table learnt stays true."""
        if self._solver is None or self._solver.geometry != geometry:
            book = load_default(geometry) if self.book else None  # None (and a warning) if it is damaged
            self._solver = Solver(geometry, self.table_mb, book=book, threads=self.threads)
            self._warm = False
        return self._solver

    def _book_move(self, board: Board) -> int | None:
        """The book's best column for ``board`` (None: not in the book, or no book)."""
        book = self._solver_for(board.geometry).book
        entry = None if book is None or board.is_over else book.entry(board)
        return None if entry is None else entry.column

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        assert self._solver is not None  # choose() made it
        exact_board = exact_in_time(board.geometry, self._solver.book)
        self._nodes_before = 0
        with self.time_limit(stop, None if exact_board else self.seconds * SOLVE_SHARE) as flag:
            best = self._solver.best_move(board, Limits(stop=flag))
            if best.column is not None and best.score is not None:
                self._nodes_before = best.nodes  # the tie tests count their nodes afresh
                in_book = best.from_book
                ties = self._solver.tied_columns(board, best, Limits(TIE_NODES, stop=flag), search=not in_book)
                column = self._rng.choice(ties.columns)
                return SearchResult(
                    column=column,
                    nodes=best.nodes + ties.nodes,
                    depth=board.geometry.cells - board.ply,
                    score=best.score,
                    pv=(column,),
                    info=({"book": "yes"} if in_book else {}) | {"ties": len(ties.columns)},
                )
        assert self._fallback is not None  # a position out of the book: prepare() made it
        with self.time_limit(stop, None if exact_board else self.seconds) as flag:
            result = self._fallback.choose(board, Limits(stop=flag))
        return SearchResult(
            column=result.column,
            nodes=best.nodes + result.nodes,
            depth=result.depth,
            score=result.score,  # an estimate, unless the heuristic search proved it
            pv=result.pv,
            completed=False,
            info={"fallback": FALLBACK_SPEC},
        )

    def _progress(self, seconds: float) -> Progress | None:
        solver = self._solver
        if solver is None:
            return None
        return Progress(
            seconds, self._nodes_before + solver.live_nodes, exact=exact_in_time(solver.geometry, solver.book)
        )

    def close(self) -> None:
        self._solver = self._fallback = None
