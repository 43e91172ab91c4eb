"""Building an opening book with the project's own solver.

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
position is solved in full (with the builder's big, warm table) and
followed. So the book's edge is, by construction, positions a cold solve
answers within ``leaf_nodes`` nodes; ``bench solver --parts edge`` measures
their time. A position still followed at ``max_ply`` is counted in
:attr:`BookBuilder.open_edges`: the book is then not deep enough.

The work goes breadth first, one ply at a time, in a fixed order. The book
file is rewritten every ``checkpoint`` seconds, at the end and on Ctrl-C (or
``kill``, see :mod:`engine.cli.book`), so an interrupted build loses little
work; a new run with the same file takes every position already in it as it
is, its leaf flag included, and goes on from there. Judging them all again
(``rejudge``, after a change of ``leaf_nodes`` or of the solver's speed) is
no longer cheap once a book is big: a leaf's judgement solves every position
two plies on, and a resumed 6x7 build spent hours of a shared core on it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from tqdm import tqdm

from engine.board import Board
from engine.score import Score
from engine.solver.book import (
    DATA_BITS,
    Book,
    BookError,
    board_of_key,
    book_key,
    check_geometry,
    pack,
    remove_stale_temporaries,
    unpack,
)
from engine.solver.settings import DEFAULT_TABLE_MB
from engine.solver.solver import BestMove, Solver, win_now_score
from engine.stop import StopFlag

#: Positions that took at least this much processor time are listed as the build goes.
SLOW_SECONDS = 5.0


class BookBuilder:
    """Grows a book file ply by ply; see the module docstring."""

    def __init__(
        self,
        solver: Solver,
        path: Path,
        max_ply: int,
        leaf_nodes: int,
        checkpoint: float = 60.0,
        judge_table_mb: float = DEFAULT_TABLE_MB,
        rejudge: bool = False,
    ) -> None:
        check_geometry(solver.geometry)
        self.solver, self.path = solver, Path(path)
        self.max_ply, self.leaf_nodes, self.checkpoint, self.rejudge = max_ply, leaf_nodes, checkpoint, rejudge
        # Cold solves, as the perfect agent meets a position (its table has the solver's default size).
        self.judge = Solver(solver.geometry, judge_table_mb)
        self.entries: dict[int, int] = {}
        remove_stale_temporaries(self.path)  # what saves of an earlier, killed build left
        if self.path.exists():
            book = Book.load(self.path)
            if book.geometry != solver.geometry:
                raise BookError(f"{self.path} is a book for {book.geometry}, not {solver.geometry}")
            self.entries = {int(word) >> DATA_BITS: int(word) for word in book.entries}
        self.solver.book = None  # solve for real: the book being built is not trusted yet
        self._cheap: dict[int, BestMove | None] = {}  # judgements of this run: key -> cold result (None: too dear)
        self._saved_at = time.monotonic()
        self.solved = 0
        #: Positions at ``max_ply`` that are not leaves: the agent may meet a slow position past them.
        self.open_edges = 0

    def run(self, progress: bool = True) -> Book:
        kept = set(self.entries)  # stored by an earlier run: kept, and judged again on the way
        level = self._roots()
        visited: set[int] = set()
        for ply in range(self.max_ply + 1):
            if not level.get(ply):
                continue
            nodes = level[ply]
            bar = tqdm(sorted(nodes), desc=f"ply {ply:2d}", unit="pos", disable=not progress, leave=True)
            for key in bar:
                visited.add(key)
                board = nodes[key]
                column, leaf = self._entry(key, board)
                if not leaf:
                    if ply + 2 <= self.max_ply:
                        for child_key, child in grandchildren(board, column):
                            level.setdefault(ply + 2, {}).setdefault(child_key, child)
                    else:
                        self.open_edges += 1
                if time.monotonic() - self._saved_at > self.checkpoint:
                    self.save()
        for key in kept - visited:  # no longer on the agent's tree (an earlier, different rule)
            del self.entries[key]
        return self.save()

    def _roots(self) -> dict[int, dict[int, Board]]:
        empty = Board(self.solver.geometry)
        second: dict[int, Board] = {}
        for col in empty.legal_columns():
            child = empty.copy()
            child.play(col)
            if not child.is_over:
                second.setdefault(book_key(child)[0], child)
        return {0: {book_key(empty)[0]: empty}, 1: second}

    def _entry(self, key: int, board: Board) -> tuple[int, bool]:
        """The best column and leaf flag of an agent position, solving it if new."""
        mirrored = book_key(board)[1]
        if key in self.entries and not self.rejudge:
            kept = unpack(self.entries[key], board.geometry, mirrored)
            if kept.column is not None:
                return kept.column, kept.leaf
        cold = self._judge(key, board)
        best: tuple[int | None, int | None]
        if key in self.entries:
            stored_entry = unpack(self.entries[key], board.geometry, mirrored)
            best = stored_entry.column, stored_entry.score
        elif cold is not None:
            best = cold.column, _pons(cold)
        else:
            best = self._solve(board)
        column, score = best
        assert column is not None and score is not None  # the builder always stores a column; nothing stopped it
        leaf = cold is not None and all(
            self._judge(child_key, child) is not None for child_key, child in grandchildren(board, column)
        )
        stored = board.geometry.cols - 1 - column if mirrored else column
        self.entries[key] = pack(key, score, stored, leaf)
        return column, leaf

    def _judge(self, key: int, board: Board) -> BestMove | None:
        """The cold solve of ``board`` within ``leaf_nodes`` nodes, or None if it needs more.

        Both mirror images are judged: they share a book entry, but the move
        order's ties (centre first, left before right) make their searches
        differ, by a factor of two or three at times, and the agent may meet either.
        """
        if self.leaf_nodes == 0:
            return None  # no budget: every position is solved in full and followed
        mirrored = book_key(board)[1]
        if key not in self._cheap:
            mirror = Board.from_moves([board.geometry.cols - 1 - col for col in board.history], board.geometry)
            found = None
            for image in (board, mirror):
                self.judge.reset()
                best = self.judge.best_move(image, nodes=self.leaf_nodes)
                if not best.finished:
                    found = None
                    break
                if image is board:
                    found = best
            # Kept as seen from the key's side: the next board with this key may be the other image.
            self._cheap[key] = None if found is None else _as_seen(found, mirrored, board.geometry.cols)
        cached = self._cheap[key]
        return None if cached is None else _as_seen(cached, mirrored, board.geometry.cols)

    def _solve(self, board: Board) -> tuple[int | None, int | None]:
        cpu = time.process_time()
        best = self._best_move(board)
        cpu = time.process_time() - cpu
        if cpu >= SLOW_SECONDS:  # worth a line: these are the positions the book is for
            tqdm.write(
                f"{board.move_string or '(empty)'}: score {best.score}, column {(best.column or 0) + 1}, "
                f"{best.nodes:,} nodes, {cpu:.1f} s cpu ({best.seconds:.1f} s wall)"
            )
        self.solved += 1
        return best.column, _pons(best)

    def _best_move(self, board: Board) -> BestMove:
        """The solver's best move, in a worker thread so that Ctrl-C is seen at once.

        A numba kernel does not return to Python until it is done, which can be
        minutes here; the main thread waits instead, and on an interrupt stops
        the search (within milliseconds) and passes the interrupt on.
        """
        stop, found = StopFlag(), []
        worker = threading.Thread(target=lambda: found.append(self.solver.best_move(board, stop=stop)), daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.2)
        except KeyboardInterrupt:
            stop.set()
            worker.join()
            raise
        best = found[0]
        return best

    def drop_wrong_columns(self) -> int:
        """Check the column of every position in the book; drop the positions whose column is not a best move.

        A column is a best move when the exact score after it is the stored
        score (the scores are right: a position and its mirror image share
        theirs). Builds before this check could store the best column of the
        mirror image instead (a judgement of one image reused for the other).
        :meth:`run` solves a dropped position again. Returns how many were dropped.
        """
        g = self.solver.geometry
        book = Book(g, np.array(sorted(self.entries.values()), dtype=np.uint64))
        solver = Solver(g, DEFAULT_TABLE_MB, book=book)  # the book answers most positions after a stored move
        wrong = []
        for key, word in self.entries.items():
            board, entry = board_of_key(key, g), unpack(word, g, False)
            if entry.column is None or not _is_best(solver, board, entry.column, entry.score):
                wrong.append(key)
        for key in wrong:
            del self.entries[key]
        return len(wrong)

    def save(self) -> Book:
        words = np.array(sorted(self.entries.values()), dtype=np.uint64)
        book = Book(self.solver.geometry, words)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        book.save(self.path)
        self._saved_at = time.monotonic()
        return book


def _is_best(solver: Solver, board: Board, column: int, score: int) -> bool:
    """Is the exact score of playing ``column`` in ``board`` the position's score ``score``?"""
    if not board.is_legal(column):
        return False
    if board.is_winning_move(column):
        return win_now_score(board) == score
    board.play(column)
    try:
        return solver.solve(board).score == Score.pons(-score)
    finally:
        board.undo()


def _as_seen(best: BestMove, mirrored: bool, cols: int) -> BestMove:
    """``best`` of one image of a position as the other image sees it when ``mirrored`` (else as it is)."""
    if not mirrored or best.column is None:
        return best
    return replace(best, column=cols - 1 - best.column)


def _pons(best: BestMove) -> int | None:
    """A best move's exact score as the book's integer."""
    return None if best.score is None else int(best.score.value)


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
