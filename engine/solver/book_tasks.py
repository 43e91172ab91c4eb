"""The book builder's units of work: one position each, plain data in, one row of plain data out.

They run through :func:`engine.tasks.run_tasks`, here, in local
processes (``book --jobs``) or on a Dask cluster (``book --cluster``), so a
task names its position by its symmetric book key (a number) and rebuilds
the board from it on the other side. Its row is the same wherever and in
whatever order it runs: an exact score and the centre-most best column do not
depend on what a transposition table remembers, and a cold judgement starts
from an empty table. That is what makes ``--jobs 2`` write the very bytes of
``--jobs 1``. A process keeps its solvers between tasks (:func:`solver_for`):
a table of hundreds of MB is allocated once, not once a position.

Rows come back from a resume file or a worker, neither trusted: each task's
``fits`` checks that a row could be its own (its position, a score within the
board's range, a column that is legal there) before the builder stores it.
A wrong but plausible row is what :class:`CheckTask` (``book --verify``) finds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.board import Board
from engine.geometry import Geometry
from engine.limits import Limits
from engine.solver.book import DATA_BITS, board_of_key, book_key, mirror_bits, unpack
from engine.solver.results import BestMove
from engine.solver.settings import DEFAULT_TABLE_MB
from engine.solver.solver import Solver, win_now_score
from engine.stop import StopFlag

Row = dict[str, Any]
T = TypeVar("T")

#: The solvers of this process, by (thread, board, table size, threads): a worker reuses its tables.
_SOLVERS: dict[tuple[int, Geometry, float, int], Solver] = {}


def solver_for(geometry: Geometry, table_mb: float, threads: int = 1) -> Solver:
    """This thread's solver of ``geometry`` with a table of ``table_mb`` (made on first use), without a book.

    One per thread: a Dask worker started with ``--nthreads 4`` runs four tasks at once in one process.
    """
    key = (threading.get_ident(), geometry, float(table_mb), threads)
    if key not in _SOLVERS:
        _SOLVERS[key] = Solver(geometry, table_mb, threads=threads) if threads > 1 else Solver(geometry, table_mb)
    return _SOLVERS[key]


def grandchildren(board: Board, column: int) -> list[tuple[int, Board]]:
    """The agent positions two plies on, with their book keys: ``column``, then every reply (games not over)."""
    after = board.copy()
    after.play(column)
    if after.is_over:
        return []
    out = []
    for reply in after.legal_columns():
        child = after.copy()
        child.play(reply)
        if not child.is_over:
            out.append((book_key(child)[0], child))
    return out


#: Judgements made by this process, by (judging solver, budget, position): a position judged as a
#: grandchild is often a task of its own two plies later. A judgement depends on nothing else (the
#: solver, kept here, stands for its board and table size).
_JUDGED: dict[tuple[Solver, int, int], BestMove | None] = {}
#: Judgements kept at most (some 200 bytes each); the oldest half goes beyond it.
MAX_JUDGED = 1_000_000


def judge(solver: Solver, key: int, geometry: Geometry, leaf_nodes: int) -> BestMove | None:
    """:func:`judge_afresh`, or what this process found for the same position, solver and budget."""
    memo = (solver, leaf_nodes, key)
    if memo not in _JUDGED:
        if len(_JUDGED) >= MAX_JUDGED:
            for old in list(_JUDGED)[: MAX_JUDGED // 2]:
                del _JUDGED[old]
        _JUDGED[memo] = judge_afresh(solver, key, geometry, leaf_nodes)
    return _JUDGED[memo]


def judge_afresh(solver: Solver, key: int, geometry: Geometry, leaf_nodes: int) -> BestMove | None:
    """The cold solve of the position ``key`` within ``leaf_nodes`` nodes (its column seen from the key's side),
    or None if it needs more.

    Both mirror images are judged: they share a book entry, but the move
    order's ties (centre first, left before right) make their searches differ,
    by a factor of two or three at times, and the perfect agent may meet either.
    """
    if leaf_nodes == 0:
        return None  # no budget: every position is solved in full and followed
    found = None
    for image in {key, mirror_bits(key, geometry)}:  # one image when the position is symmetric
        solver.reset()
        best = solver.best_move(board_of_key(image, geometry), Limits(leaf_nodes))
        if not best.finished:
            return None
        if image == key:
            found = best
    return found


def interruptible(search: Callable[[StopFlag], T]) -> T:
    """``search(stop)`` in a thread of its own, so that Ctrl-C (or ``kill``) is seen at once.

    A numba kernel does not return to Python until it is done, which can be
    minutes in an opening; the calling thread waits instead, and on an
    interrupt stops the search (within milliseconds) and passes it on.
    """
    stop, found = StopFlag(), []
    worker = threading.Thread(target=lambda: found.append(search(stop)), daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.2)
    except KeyboardInterrupt:
        stop.set()
        worker.join()
        raise
    return found[0]


def _geometry(task: PositionTask | CheckTask) -> Geometry:
    return Geometry(task.cols, task.rows, task.connect)


def _fits_position(task: PositionTask | CheckTask, row: Row) -> Board | None:
    """The task's board if ``row`` names the task's position, else None."""
    if type(row.get("position")) is not int or row["position"] != task.position:
        return None
    return board_of_key(task.position, _geometry(task))


def _score_in_range(value: object, geometry: Geometry) -> bool:
    return type(value) is int and abs(value) <= (geometry.cells + 1) // 2


@dataclass(frozen=True)
class PositionTask:
    """One position of the perfect agent's tree: its exact score, a best column and its leaf flag.

    A *leaf* is a position that a cold solve (a fresh table of
    ``judge_table_mb``, as the agent meets it) answers within ``leaf_nodes``
    nodes, as it does every position two plies on (the best column, then any
    reply): the book stores it and goes no further. Any other position is
    solved in full with a table of ``table_mb``, unless ``known_score`` and
    ``known_column`` (from the book being extended) already say its answer.
    ``leaf_nodes`` None: a position off the tree (see ``every_ply`` in
    :mod:`~engine.solver.book_builder`): its score only (no column, half the work to
    build and to check), no judgement, its leaf flag clear.
    """

    cols: int
    rows: int
    connect: int
    position: int  # the symmetric book key (engine.solver.book.book_key)
    leaf_nodes: int | None
    table_mb: float = 256.0
    judge_table_mb: float = DEFAULT_TABLE_MB
    threads: int = 1
    known_score: int | None = None
    known_column: int | None = None  # seen from the key's side

    @property
    def key(self) -> str:
        judged = "off-tree" if self.leaf_nodes is None else f"leaf-nodes={self.leaf_nodes}"
        return f"book|{self.cols}x{self.rows}x{self.connect}|{judged}|{self.position}"

    def run(self) -> Row:
        geometry = _geometry(self)
        board = board_of_key(self.position, geometry)
        started = time.process_time()
        # (Off the tree nothing is judged: no judging solver, whose table would be one more per process.)
        cold_solver = None if self.leaf_nodes is None else solver_for(geometry, self.judge_table_mb)
        cold = None if cold_solver is None else judge(cold_solver, self.position, geometry, self.leaf_nodes or 0)
        solved, nodes = False, 0
        if self.known_score is not None and self.known_column is not None:
            column, score = self.known_column, self.known_score
        elif cold is not None and cold.column is not None and cold.score is not None:
            column, score = cold.column, int(cold.score.value)
        elif self.leaf_nodes is None:  # off the tree: the score is what the solver's look-ahead needs
            solver = solver_for(geometry, self.table_mb, self.threads)
            solution = interruptible(lambda stop: solver.solve(board, Limits(stop=stop)))
            assert solution.score is not None  # no limit, nothing stopped it
            column, score, solved, nodes = None, int(solution.score.value), True, solution.nodes
        else:
            solver = solver_for(geometry, self.table_mb, self.threads)
            best = interruptible(lambda stop: solver.best_move(board, Limits(stop=stop)))
            assert best.column is not None and best.score is not None  # no limit, nothing stopped it
            column, score, solved, nodes = best.column, int(best.score.value), True, best.nodes
        leaf = (
            cold_solver is not None
            and cold is not None
            and column is not None
            and all(
                judge(cold_solver, child, geometry, self.leaf_nodes or 0) is not None
                for child in sorted({key for key, _ in grandchildren(board, column)})
            )
        )
        return {
            "position": self.position,
            "score": score,
            "column": column,
            "leaf": leaf,
            "solved": solved,
            "nodes": nodes,
            "seconds": round(time.process_time() - started, 3),
        }

    def fits(self, rows: list[Row]) -> bool:
        """One row of this position: a score in the board's range, a legal column, flags and counts."""
        if len(rows) != 1:
            return False
        row = rows[0]
        board = _fits_position(self, row)
        column = row.get("column")
        if board is None:
            return False
        if self.leaf_nodes is None:  # off the tree: a score only
            column_fits = column is None
        else:
            column_fits = type(column) is int and 0 <= column < board.geometry.cols and board.is_legal(column)
        return (
            _score_in_range(row.get("score"), board.geometry)
            and column_fits
            and type(row.get("leaf")) is bool
            and type(row.get("solved")) is bool
            and type(row.get("nodes")) is int
            and row["nodes"] >= 0
            and type(row.get("seconds")) in (int, float)
        )


@dataclass(frozen=True)
class CheckTask:
    """One stored entry (``word``) checked against fresh solves, without the book.

    The stored score must be the position's exact score, and the exact score
    after the stored column must be the same (seen from the mover): then the
    column is a best move. An entry without a column (off the agent's tree,
    see :class:`PositionTask`) is checked by its score. Row: ``ok``, and the two scores found.
    """

    cols: int
    rows: int
    connect: int
    word: int  # the book's entry: key, leaf flag, column and score
    table_mb: float = 256.0
    threads: int = 1

    @property
    def position(self) -> int:
        return self.word >> DATA_BITS

    @property
    def key(self) -> str:
        return f"check|{self.cols}x{self.rows}x{self.connect}|{self.word}"

    def run(self) -> Row:
        geometry = _geometry(self)
        board = board_of_key(self.position, geometry)
        entry = unpack(self.word, geometry, False)
        solver = solver_for(geometry, self.table_mb, self.threads)
        exact = interruptible(lambda stop: solver.solve(board, Limits(stop=stop))).score
        assert exact is not None  # no limit
        column = entry.column
        after: int | None = None
        if column is not None and board.is_legal(column):
            if board.is_winning_move(column):
                after = win_now_score(board)
            else:
                board.play(column)
                solution = interruptible(lambda stop: solver.solve(board, Limits(stop=stop)))
                assert solution.score is not None  # no limit
                after = int(-solution.score.value)
        score = int(exact.value)
        ok = score == entry.score and (column is None or after == score)  # (no column: a score only, see PositionTask)
        return {"position": self.position, "ok": ok, "exact": score, "after": after}

    def fits(self, rows: list[Row]) -> bool:
        if len(rows) != 1:
            return False
        row = rows[0]
        board = _fits_position(self, row)
        return (
            board is not None
            and type(row.get("ok")) is bool
            and _score_in_range(row.get("exact"), board.geometry)
            and (row.get("after") is None or _score_in_range(row.get("after"), board.geometry))
        )
