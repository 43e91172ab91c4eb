"""Building an opening book with the project's own solver, on any number of cores or machines.

The book holds what the perfect agent needs and the solver cannot answer
fast: for every position the agent may face, its exact score and best
column. Those positions form a tree: at the agent's turn the book follows its
best move only, at the opponent's every legal move. The agent plays either
side, so the tree has two roots: the empty board (the agent moves first) and
the positions after any first move (it moves second).

**Where the tree stops.** What the agent faces in a game is a position just
past the book, solved from scratch. So every position is judged the way the
agent meets it: a *cold* solve (a fresh table of the agent's size, no book)
limited to ``leaf_nodes`` nodes. A position is a *leaf*, stored but not
followed, when it and every position two plies on (our best move, then any
reply) pass that judgement; the positions two plies on are then left out of
the book, because the agent solves them within its budget. Every other
position is solved in full and followed. So the book's edge is, by
construction, positions a cold solve answers within ``leaf_nodes`` nodes;
``bench solver --parts edge`` measures their time. A position still followed
at ``max_ply`` is counted in :attr:`BookBuilder.open_edges`: the book is then
not deep enough.

**How the work runs.** One ply at a time: the positions of a ply are
independent :class:`~engine.solver.book_tasks.PositionTask` s, run by the
studies' runner (:func:`engine.tasks.run_tasks`) here, in local
processes or on a Dask cluster, and their rows go to a resume file (one JSON
line a position, :func:`resume_path`) as they come back. The book file is
saved after every ply. A build stopped in any way (Ctrl-C, ``kill``, a
machine that goes down) and started again takes every position already in
the book as it is, its leaf flag included, skips the positions whose rows
are in the resume file, and goes on; a build that ends removes its resume
file. Tasks are numbered by position, never by where or when they ran, and
their rows do not depend on it (see :mod:`engine.solver.book_tasks`): a book
is the same file however many workers built it. ``rejudge`` judges stored
positions again (after a change of ``leaf_nodes``); it is not cheap once a
book is big: a leaf's judgement solves every position two plies on.

**Every position of one ply** (``every_ply``). The tree answers the agent,
not a person: after a few moves of two people (a hotseat game's hint, a
review) the position is usually off it, and on 7x6 a position of 4 or 5
stones takes a cold solve seconds. So the builder can also store every
position of ``every_ply`` stones (games not over), without following them
and without judging their leaf flag (stored clear: a later build that
meets one on the tree follows it, which costs time, never truth). The
solver answers a position whose every child is in the book by one ply of
look-ahead, so the book then answers every position of ``every_ply - 1``
and ``every_ply`` stones at once. Where the book already holds every
position of ``every_ply + 1`` stones, a position of ``every_ply`` is not
solved but *derived*: its score is the best of its children's (one ply of
negamax over exact scores is exact), so a ply below a whole one costs
nothing (7x6: plies 2 to 4 from the whole ply 5, and ply 6 from the whole
ply 7). A ply at which a book holds every position is kept by every later build
(:func:`complete_plies`), so a deepening without the option neither drops nor
forgets it.

:func:`check_book` checks a book: every stored score is the exact score of
its position and the stored column keeps it, by fresh solves without the book.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from pathlib import Path

import numpy as np

from engine.board import Board
from engine.files import FileProblem
from engine.geometry import Geometry
from engine.solver.book import (
    DATA_BITS,
    Book,
    BookError,
    board_of_key,
    book_key,
    check_geometry,
    pack,
    remove_stale_temporaries,
    stones_of,
    unpack,
)
from engine.solver.book_tasks import CheckTask, PositionTask, grandchildren
from engine.solver.settings import DEFAULT_TABLE_MB, checked_table_bits
from engine.tasks import Checkpoint, Row, run_tasks

__all__ = [
    "BookBuilder",
    "check_book",
    "complete_plies",
    "edge_positions",
    "every_position",
    "grandchildren",
    "resume_path",
    "verify_path",
]

#: The suffix of a build's resume file, beside its book: ``book_7x6.bin.resume``.
RESUME_SUFFIX = ".resume"


def resume_path(book: Path) -> Path:
    """Where the build of ``book`` keeps the rows of its positions until it ends."""
    return book.with_name(book.name + RESUME_SUFFIX)


#: The suffix of a check's resume file (``book --verify``), beside its book: ``book_7x6.bin.verify``.
VERIFY_SUFFIX = ".verify"


def verify_path(book: Path) -> Path:
    """Where a check of ``book`` keeps the rows of the positions it has checked, until it passes."""
    return book.with_name(book.name + VERIFY_SUFFIX)


class BookBuilder:
    """Grows a book file ply by ply; see the module docstring."""

    def __init__(
        self,
        geometry: Geometry,
        path: Path,
        max_ply: int,
        leaf_nodes: int,
        *,
        table_mb: float = 256.0,
        judge_table_mb: float = DEFAULT_TABLE_MB,
        threads: int = 1,
        every_ply: int | None = None,
        rejudge: bool = False,
        resume: bool = True,
        log: Callable[[str], None] | None = None,
    ) -> None:
        check_geometry(geometry)
        for megabytes in (table_mb, judge_table_mb):  # one line now, not an error from each worker later
            checked_table_bits(megabytes, geometry.wide)
        self.geometry, self.path = geometry, Path(path)
        self.max_ply, self.leaf_nodes, self.rejudge = max_ply, leaf_nodes, rejudge
        self.table_mb, self.judge_table_mb, self.threads = table_mb, judge_table_mb, threads
        #: The resume file (None: none is kept, a stopped build starts its ply again).
        self.resume = resume_path(self.path) if resume else None
        self.log = log
        self.entries: dict[int, int] = {}
        remove_stale_temporaries(self.path)  # what saves of an earlier, killed build left
        if self.path.exists():
            book = Book.load(self.path)
            if book.geometry != geometry:
                raise BookError(f"{self.path} is a book for {book.geometry}, not {geometry}")
            self.entries = {int(word) >> DATA_BITS: int(word) for word in book.entries}
        #: Plies at which the book stores every position: the one asked for, and those the file has.
        self.every_plies = complete_plies(self.entries, geometry)
        if every_ply is not None:
            self.every_plies.add(every_ply)
        #: Positions solved in full (not answered by a cold solve) in this run (not read from the resume file).
        self.solved = 0
        #: Positions at ``max_ply`` that are not leaves: the agent may meet a slow position past them.
        self.open_edges = 0

    def run(self, executor: Executor | None = None, progress: bool = True) -> Book:
        """Build (or resume, or deepen) the book; ``executor`` None runs every position here, in order."""
        kept = set(self.entries)  # stored by an earlier run: kept, and looked at again on the way
        level: dict[int, set[int]] = self._roots()  # the agent's tree
        layers = {ply: every_position(self.geometry, ply) for ply in self.every_plies}
        visited: set[int] = set()
        for ply in range(max(self.max_ply, *self.every_plies, 0) + 1):
            on_tree = level.get(ply, set()) if ply <= self.max_ply else set()
            # The tree's positions, then the layer's in the order found: siblings side by side, so that
            # what one solve leaves in a worker's table serves the next (a third fewer nodes on 7x6 ply 7).
            keys = sorted(on_tree) + [key for key in layers.get(ply, []) if key not in on_tree]
            if not keys:
                continue
            wanted = [key for key in keys if self._wanted(key, key in on_tree)]
            derived = self._derive([key for key in wanted if key not in on_tree], ply)
            tasks = [self._task(key, judged=key in on_tree) for key in wanted if key not in derived]
            earlier = set(Checkpoint(self.resume).rows) if tasks and self.resume is not None else set()
            rows = (
                run_tasks(tasks, executor=executor, checkpoint=self.resume, desc=f"ply {ply:2d}", progress=progress)
                if tasks
                else []
            )
            for task, row in zip(tasks, rows, strict=True):
                self.entries[row["position"]] = pack(row["position"], row["score"], row["column"], row["leaf"])
                self.solved += row["solved"] and task.key not in earlier
            followed = 0
            for key in keys:
                visited.add(key)
                entry = unpack(self.entries[key], self.geometry, False)
                if key not in on_tree or entry.leaf or entry.column is None:
                    continue
                followed += 1
                if ply + 2 > self.max_ply:
                    self.open_edges += 1
                    continue
                for child, _ in grandchildren(board_of_key(key, self.geometry), entry.column):
                    level.setdefault(ply + 2, set()).add(child)
            self.save()
            if self.log is not None:
                seconds = sum(row["seconds"] for row in rows)
                self.log(
                    f"ply {ply:2d}: {len(keys):,} positions, {len(rows) + len(derived):,} new "
                    f"({sum(r['solved'] for r in rows):,} solved in full, {len(derived):,} from the ply above), "
                    f"{followed:,} followed; {seconds:,.1f} s of processor time in the tasks"
                )
        for key in kept - visited:  # no longer on the agent's tree (an earlier, different rule)
            del self.entries[key]
        book = self.save()
        self._forget_resume()
        return book

    def _derive(self, keys: list[int], ply: int) -> set[int]:
        """Store the positions ``keys`` (off the tree, of ``ply`` stones) without a search where the book holds
        every position of ``ply + 1`` stones: a score is then the best of the children's (negamax, one ply).
        The keys stored so."""
        if not keys or ply + 1 not in complete_plies(self.entries, self.geometry):
            return set()
        for key in keys:
            self.entries[key] = pack(key, self._best_child(board_of_key(key, self.geometry)), None, False)
        return set(keys)

    def _best_child(self, board: Board) -> int:
        """The exact score of ``board`` from its children's stored scores (every one is stored)."""
        best = None
        for col in board.legal_columns():
            if board.is_winning_move(col):
                return self.geometry.win_score(board.ply + 1)
            board.play(col)
            if board.is_over:  # a full board (a win was taken above)
                child = 0
            else:
                child = unpack(self.entries[book_key(board)[0]], self.geometry, False).score
            board.undo()
            best = -child if best is None else max(best, -child)
        assert best is not None  # (a position of the book is not over: it has a legal column)
        return best

    def _roots(self) -> dict[int, set[int]]:
        empty = Board(self.geometry)
        second = set()
        for col in empty.legal_columns():
            child = empty.copy()
            child.play(col)
            if not child.is_over:
                second.add(book_key(child)[0])
        return {0: {book_key(empty)[0]}, 1: second}

    def _wanted(self, key: int, on_tree: bool) -> bool:
        """Is ``key`` to be solved in this run? (A position of the tree stored off it has no column yet.)"""
        if key not in self.entries or self.rejudge:
            return True
        return on_tree and unpack(self.entries[key], self.geometry, False).column is None

    def _task(self, key: int, judged: bool = True) -> PositionTask:
        """The task of ``key``: on the agent's tree (``judged``) its leaf flag is judged too."""
        known = unpack(self.entries[key], self.geometry, False) if key in self.entries else None
        g = self.geometry
        return PositionTask(
            g.cols,
            g.rows,
            g.connect,
            key,
            self.leaf_nodes if judged else None,
            self.table_mb,
            self.judge_table_mb,
            self.threads,
            known_score=None if known is None or known.column is None else known.score,
            known_column=None if known is None else known.column,
        )

    def _forget_resume(self) -> None:
        """Remove the resume file of a finished build, if all of it is this builder's (else leave it be)."""
        if self.resume is None or not self.resume.exists():
            return
        try:
            store = Checkpoint(self.resume)
        except FileProblem:
            return
        if store.damaged == 0 and all(key.startswith("book|") for key in store.rows):
            self.resume.unlink()

    def drop(self, positions: list[int]) -> None:
        """Forget these positions (e.g. wrong ones found by :func:`check_book`): :meth:`run` solves them again."""
        for position in positions:
            self.entries.pop(position, None)

    def save(self) -> Book:
        words = np.array(sorted(self.entries.values()), dtype=np.uint64)
        book = Book(self.geometry, words)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        book.save(self.path)
        return book


def _levels(geometry: Geometry, limit: int | None = None) -> Iterator[list[int]]:
    """The book keys of every position (games not over, mirror images once) of 0, 1, 2... stones,
    ply by ply, each ply in the order found (the children of one position side by side); it ends
    before a ply of more than ``limit`` positions, or when none is left."""
    boards = {book_key(Board(geometry))[0]: Board(geometry)}
    while boards:
        yield list(boards)
        found: dict[int, Board] = {}
        for board in boards.values():
            for col in board.legal_columns():
                child = board.copy()
                child.play(col)
                if not child.is_over:
                    found.setdefault(book_key(child)[0], child)
            if limit is not None and len(found) > limit:
                return
        boards = found


def every_position(geometry: Geometry, ply: int) -> list[int]:
    """The book keys of every position of ``ply`` stones whose game is not over (mirror images once),
    siblings side by side (see :func:`_levels`)."""
    for stones, keys in enumerate(_levels(geometry)):
        if stones == ply:
            return keys
    return []


def complete_plies(entries: dict[int, int] | set[int], geometry: Geometry) -> set[int]:
    """The plies of at least two stones at which ``entries`` (by book key) hold every position.

    (Plies 0 and 1 are the tree's roots, whole in every book.) Only plies of no more
    positions than the book holds at one ply are made, so this stays cheap.
    """
    stored = set(entries)
    stones = stones_of(np.fromiter(stored, dtype=np.uint64, count=len(stored)), geometry)
    held = np.bincount(stones, minlength=geometry.cells + 1)  # positions stored per ply
    return {
        ply
        for ply, keys in enumerate(_levels(geometry, limit=int(held.max())))
        if ply >= 2 and len(keys) <= held[ply] and stored.issuperset(keys)
    }


def check_book(
    book: Book,
    executor: Executor | None = None,
    *,
    from_ply: int = 0,
    to_ply: int | None = None,
    table_mb: float = 256.0,
    threads: int = 1,
    progress: bool = True,
    checkpoint: Path | None = None,
) -> list[Row]:
    """The rows of the stored positions (of ``from_ply`` to ``to_ply`` stones) whose column is not a best move.

    Each position is solved afresh, without the book, as is the position
    after its stored column (see :class:`~engine.solver.book_tasks.CheckTask`):
    as dear as building the book again, so it runs on ``executor`` too, and
    keeps its rows in ``checkpoint`` (a stopped check goes on where it was;
    a task names its entry, so an entry changed since is checked again).
    """
    g = book.geometry
    checked_table_bits(table_mb, g.wide)
    words = [int(word) for word in book.entries]
    plies = [board_of_key(word >> DATA_BITS, g).ply for word in words]
    tasks = [
        CheckTask(g.cols, g.rows, g.connect, word, table_mb, threads)
        for word, ply in zip(words, plies, strict=True)
        if from_ply <= ply and (to_ply is None or ply <= to_ply)
    ]
    rows = run_tasks(tasks, executor=executor, checkpoint=checkpoint, desc="check", progress=progress)
    return [row for row in rows if not row["ok"]]


def edge_positions(book: Book) -> list[Board]:
    """The positions the perfect agent meets just past ``book``, which it must solve itself.

    The agent's tree walked from the book's roots (the empty board, every
    first move): at a stored position its best move, then every reply; a
    position reached that way and not stored is on the edge. Mirror images
    count once; in the order found, each with its moves (to print it).
    """
    found: dict[int, Board] = {}
    seen: set[int] = set()
    empty = Board(book.geometry)
    todo = [empty] + [Board.from_moves([col], book.geometry) for col in empty.legal_columns()]
    while todo:
        board = todo.pop()
        key = book_key(board)[0]
        if key in seen or key in found:
            continue
        entry = book.entry(board)
        if entry is None or entry.column is None:
            found[key] = board
            continue
        seen.add(key)
        todo.extend(child for _, child in grandchildren(board, entry.column))
    return list(found.values())
