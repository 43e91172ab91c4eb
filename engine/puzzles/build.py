"""The shipped puzzle set: positions of seeded games of good play that the solver proves to be puzzles.

Each game is one task of engine/tasks.py (:class:`GameTask`, so ``--jobs``
and a cluster work as for the studies): from a few random opening moves, two
alpha-beta players of seeded depths (3 to 7 plies: good players who still
miss things) play it out, and every position from :func:`first_ply` on is
given to :func:`~engine.puzzles.finder.find`, except the positions further
along the line of a win found before in the game (the same puzzle, shorter). A task's rows depend only on
its seed (exact values do not depend on a table), so the same seed gives the
same set wherever and in whatever order its games run.

:func:`select` then keeps, board by board and game by game, each position
once (mirror images count as one: a puzzle's id is its symmetric key) and at
most ``per_band`` puzzles of each band.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from engine.board import Board
from engine.geometry import Geometry
from engine.puzzles.finder import find
from engine.puzzles.puzzle import BANDS, Puzzle, board_id, from_json
from engine.puzzles.settings import BOARDS
from engine.solver.book import load_default
from engine.solver.solver import Solver
from engine.tasks import Row, derive_seed, run_tasks

#: Depths (plies) of the alpha-beta players, drawn per game and side.
DEPTHS = (3, 4, 5, 6, 7)
#: Random moves that open each game, at most (drawn per game from 0 up).
OPENING_MOVES = 4
#: Each game's solver table (MB): a process keeps one per board.
TABLE_MB = 64

Key: TypeAlias = tuple[int, int, int]
_SOLVERS: dict[Key, Solver] = {}


def first_ply(geometry: Geometry) -> int:
    """The first ply whose positions are looked at: a third of the board filled (earlier ones take the
    solver seconds each, and a player does not meet a one-answer position there often)."""
    return geometry.cells // 3


def _solver(geometry: Geometry) -> Solver:
    key = (geometry.cols, geometry.rows, geometry.connect)
    if key not in _SOLVERS:
        _SOLVERS[key] = Solver(geometry, TABLE_MB, book=load_default(geometry))
    return _SOLVERS[key]


@dataclass(frozen=True)
class GameTask:
    """One seeded game of good play on a board, and the puzzles on its way."""

    cols: int
    rows: int
    connect: int
    seed: int
    game: int

    @property
    def key(self) -> str:
        return f"puzzles|{self.cols}x{self.rows}x{self.connect}|{self.seed}|{self.game}"

    def run(self) -> list[Row]:
        from engine.agents.registry import create_agent  # (the agents load numba kernels of their own)

        geometry = Geometry(self.cols, self.rows, self.connect)
        rng = random.Random(derive_seed("puzzles", self.seed, board_id(geometry), self.game))
        board = Board(geometry)
        for _ in range(rng.randint(0, OPENING_MOVES)):
            board.play(rng.choice(board.legal_columns()))
            if board.is_over:
                return []
        players = [create_agent(f"alphabeta:depth={rng.choice(DEPTHS)}", seed=rng.randrange(2**31)) for _ in "ab"]
        solver, rows = _solver(geometry), []
        covered: set[int] = set()  # later positions of a win found: the same puzzle, shorter
        try:
            while not board.is_over:
                if board.ply >= first_ply(geometry) and board.symmetric_key() not in covered:
                    started = time.process_time()
                    found = find(board, solver)
                    if isinstance(found, Puzzle):
                        rows.append(row_of(found, self.game, time.process_time() - started))
                        covered |= set(winner_turns(board, found.line))
                board.play(players[board.ply % 2].choose(board).column)
        finally:
            for player in players:
                player.close()
        return rows

    def fits(self, rows: list[Row]) -> bool:
        """Rows read back from a resume file must be puzzles of this board and game."""
        try:
            puzzles = [puzzle_of(row) for row in rows]
        except (KeyError, TypeError, ValueError):
            return False
        return all(
            (p.geometry.cols, p.geometry.rows, p.geometry.connect) == (self.cols, self.rows, self.connect)
            and row.get("game") == self.game
            for p, row in zip(puzzles, rows, strict=True)
        )


def winner_turns(board: Board, line: tuple[int, ...]) -> list[int]:
    """The symmetric keys of the positions of ``line`` where the winner moves again (after the first)."""
    board, keys = board.copy(), []
    for index in range(1, len(line) - 1, 2):
        board.play(line[index - 1])
        board.play(line[index])
        keys.append(board.symmetric_key())
    return keys


def row_of(puzzle: Puzzle, game: int, seconds: float) -> Row:
    """A puzzle as a flat row of the runner (lists as text: ``line`` a move string, motifs comma-separated)."""
    data = puzzle.to_json()
    data.update(
        solution=",".join(str(col + 1) for col in puzzle.solution),
        motifs=",".join(puzzle.motifs),
        line="".join(str(col + 1) for col in puzzle.line),
        game=game,
        seconds=round(seconds, 3),
    )
    return data


def puzzle_of(row: Row) -> Puzzle:
    """The puzzle of a row of :func:`row_of` (checked as any puzzle from a file is)."""
    line = row["line"]
    if not isinstance(line, str) or not line.isascii() or not line.isdigit():
        raise ValueError("a line is a string of column digits")
    data = {name: row[name] for name in ("id", "cols", "rows", "connect", "position", "kind", "band")}
    data.update(
        solution=[int(col) for col in str(row["solution"]).split(",")],
        motifs=[name for name in str(row["motifs"]).split(",") if name],
        line=[int(digit) for digit in line],
    )
    return from_json(data)


def tasks_for(geometry: Geometry, seed: int, games: int) -> list[GameTask]:
    return [GameTask(geometry.cols, geometry.rows, geometry.connect, seed, game) for game in range(games)]


def select(rows: Iterable[Row], per_band: int) -> list[Puzzle]:
    """Each position once (the first game that found it), at most ``per_band`` per board and band;
    board by board, band by band, in the order found."""
    kept: dict[str, Puzzle] = {}
    counts: dict[tuple[str, int], int] = {}
    for row in rows:
        puzzle = puzzle_of(row)
        bucket = (board_id(puzzle.geometry), puzzle.band)
        if puzzle.id in kept or counts.get(bucket, 0) >= per_band:
            continue
        kept[puzzle.id] = puzzle
        counts[bucket] = counts.get(bucket, 0) + 1
    order = {board_id(g): index for index, g in enumerate(BOARDS)}
    return sorted(kept.values(), key=lambda p: (order.get(board_id(p.geometry), len(order)), p.band))


def build(
    boards: Sequence[Geometry],
    seed: int,
    games: int,
    per_band: int,
    executor: Executor | None = None,
    progress: bool = True,
    checkpoint: Path | None = None,
) -> tuple[list[Puzzle], int]:
    """The puzzle set of ``boards`` (``games`` games each) and how many positions were puzzles in all;
    each game's rows go to ``checkpoint`` as they come (a stopped build goes on from there)."""
    rows: list[Row] = []
    for geometry in boards:
        tasks = tasks_for(geometry, seed, games)
        rows += run_tasks(tasks, executor=executor, checkpoint=checkpoint, desc=board_id(geometry), progress=progress)
    return select(rows, per_band), len(rows)


def counts(puzzles: Iterable[Puzzle]) -> dict[str, list[int]]:
    """Puzzles per board and band: ``{"7x6x4": [band 1, ..., band 5]}``."""
    table: dict[str, list[int]] = {}
    for puzzle in puzzles:
        table.setdefault(board_id(puzzle.geometry), [0] * len(BANDS))[puzzle.band - 1] += 1
    return table
