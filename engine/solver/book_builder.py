"""Building an opening book with the project's own solver.

The book holds what the perfect agent needs and the solver cannot answer
fast: for every position the agent may face in its first ``max_ply``
plies, its exact score and best column. Those positions form a tree: at
the agent's turn the book follows its best move only, at the opponent's
every legal move. The agent plays either side, so the tree has two roots:
the empty board (the agent moves first) and the positions after any first
move (it moves second).

A position the solver answered in fewer than ``leaf_nodes`` nodes is a
*leaf*: it is stored (so that a rerun does not solve it again) but not
followed, because the solver handles it and, almost always, what comes
after it, within the agent's time. That keeps the book to the hard lines,
where both sides still play well.

The work goes breadth first, one ply at a time, in a fixed order. The book
file is rewritten every ``checkpoint`` seconds, at the end and on Ctrl-C (or
``kill``, see :mod:`engine.cli.book`), so an interrupted build loses little
work; a new run with the same file skips every position already in it and
carries on.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from engine.board import Board
from engine.solver.book import Book, BookError, book_key, check_geometry, pack, unpack
from engine.solver.solver import BestMove, Solver
from engine.stop import StopFlag

#: Positions that took at least this much processor time are listed as the build goes.
SLOW_SECONDS = 5.0


class BookBuilder:
    """Grows a book file ply by ply; see the module docstring."""

    def __init__(self, solver: Solver, path: Path, max_ply: int, leaf_nodes: int, checkpoint: float = 60.0) -> None:
        check_geometry(solver.geometry)
        self.solver, self.path = solver, Path(path)
        self.max_ply, self.leaf_nodes, self.checkpoint = max_ply, leaf_nodes, checkpoint
        self.entries: dict[int, int] = {}
        if self.path.exists():
            book = Book.load(self.path)
            if book.geometry != solver.geometry:
                raise BookError(f"{self.path} is a book for {book.geometry}, not {solver.geometry}")
            self.entries = {int(word) >> 12: int(word) for word in book.entries}
        self.solver.book = None  # solve for real: the book being built is not trusted yet
        self._saved_at = time.monotonic()
        self.solved = 0

    def run(self, progress: bool = True) -> Book:
        level = self._roots()
        for ply in range(self.max_ply + 1):
            if not level.get(ply):
                continue
            nodes = level[ply]
            bar = tqdm(sorted(nodes), desc=f"ply {ply:2d}", unit="pos", disable=not progress, leave=True)
            for key in bar:
                board = nodes[key]
                column, leaf = self._entry(key, board)
                if not leaf and ply + 2 <= self.max_ply:
                    self._expand(board, column, level.setdefault(ply + 2, {}))
                if time.monotonic() - self._saved_at > self.checkpoint:
                    self.save()
        return self.save()

    def _roots(self) -> dict[int, dict[int, Board]]:
        empty = Board(self.solver.geometry)
        second: dict[int, Board] = {}
        for col in empty.legal_columns():
            child = empty.copy()
            child.play(col)
            second.setdefault(book_key(child)[0], child)
        return {0: {book_key(empty)[0]: empty}, 1: second}

    def _entry(self, key: int, board: Board) -> tuple[int, bool]:
        """The best column and leaf flag of an agent position, solving it if new."""
        mirrored = book_key(board)[1]
        if key in self.entries:
            entry = unpack(self.entries[key], board.geometry, mirrored)
            return entry.column, entry.leaf  # type: ignore[return-value]
        cpu = time.process_time()
        best = self._best_move(board)
        column, score = best.column, best.score
        assert column is not None and score is not None  # nothing stopped the search
        cpu = time.process_time() - cpu
        if cpu >= SLOW_SECONDS:  # worth a line: these are the positions the book is for
            tqdm.write(
                f"{board.move_string or '(empty)'}: score {score}, column {column + 1}, "
                f"{best.nodes:,} nodes, {cpu:.1f} s cpu ({best.seconds:.1f} s wall)"
            )
        leaf = best.nodes < self.leaf_nodes
        stored = board.geometry.cols - 1 - column if mirrored else column
        self.entries[key] = pack(key, score, stored, leaf)
        self.solved += 1
        return column, leaf

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

    @staticmethod
    def _expand(board: Board, column: int, into: dict[int, Board]) -> None:
        """Add the agent positions two plies on: our best move, then every reply."""
        after = board.copy()
        after.play(column)
        if after.is_over:
            return
        for reply in after.legal_columns():
            child = after.copy()
            child.play(reply)
            if not child.is_over:
                into.setdefault(book_key(child)[0], child)

    def save(self) -> Book:
        words = np.array(sorted(self.entries.values()), dtype=np.uint64)
        book = Book(self.solver.geometry, words)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        book.save(self.path)
        self._saved_at = time.monotonic()
        return book
