"""Run independent tasks (games, measurements) on an executor, keeping every row.

A task is a small frozen dataclass of plain data with a stable ``key`` and a
``run() -> dict`` method: it can be pickled to a local process or a Dask
worker, and it rebuilds everything it needs (agents from their specs, the
start position from its move string) on the other side, so the same task
gives the same row wherever it runs.

Rows are appended to a checkpoint file (one JSON object a line) as they come
back. Running the same tasks again with the same checkpoint skips the rows
already there: a long study stopped with Ctrl-C resumes where it stopped.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from concurrent.futures import Executor, Future, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from tqdm import tqdm

from engine.agents.registry import create_agent
from engine.board import Board, Side
from engine.formats import format_moves
from engine.geometry import Geometry
from engine.match import GameRecord, play_game

Row = dict[str, Any]


class Task(Protocol):
    """One unit of work: plain data in, one row (or a list of rows) of plain data out."""

    @property
    def key(self) -> str: ...

    def run(self) -> Row | list[Row]: ...


def derive_seed(*parts: int | str) -> int:
    """A 31-bit seed from a tuple of ints and strings, the same on every machine and Python run."""
    words = [
        int.from_bytes(str(part).encode(), "little") % (2**32) if isinstance(part, str) else part for part in parts
    ]
    return int(np.random.SeedSequence([abs(int(w)) for w in words]).generate_state(1)[0] & 0x7FFFFFFF)


@dataclass(frozen=True)
class GameTask:
    """One game between two agent specs from an opening, red playing first or second."""

    red: str
    yellow: str
    opening: str = ""
    red_first: bool = True
    seed: int = 0
    cols: int = 7
    rows: int = 6
    connect: int = 4

    @property
    def key(self) -> str:
        first = "red" if self.red_first else "yellow"
        return f"{self.red}|{self.yellow}|{self.opening}|{first}|{self.seed}|{self.cols}x{self.rows}x{self.connect}"

    def run(self) -> Row:
        geometry = Geometry(self.cols, self.rows, self.connect)
        red = create_agent(self.red, seed=self.seed)
        yellow = create_agent(self.yellow, seed=self.seed + 1)
        try:
            first, second = (red, yellow) if self.red_first else (yellow, red)
            record = play_game(first, second, Board.from_moves(self.opening, geometry))
        finally:
            red.close()
            yellow.close()
        return self.row(record)

    def row(self, record: GameRecord) -> Row:
        """The row of this game, played however it was (here, or by the game's own window)."""
        red_side = Side.FIRST if self.red_first else Side.SECOND
        # The record's moves alternate from the side to move at the opening.
        mover = record.start.turn
        totals = {"red": [0.0, 0, 0, 0.0], "yellow": [0.0, 0, 0, 0.0]}  # time, nodes, moves, slowest
        for result in record.results:
            name = "red" if mover == red_side else "yellow"
            total = totals[name]
            total[0] += result.seconds * 1000.0
            total[1] += result.nodes
            total[2] += 1
            total[3] = max(total[3], result.seconds * 1000.0)
            mover = mover.other
        if record.winner is None:
            winner, first_result = "draw", "draw"
        else:
            winner = "red" if record.winner == red_side else "yellow"
            first_result = "first" if record.winner == Side.FIRST else "second"
        row: Row = asdict(self)
        row.update(
            winner=winner,
            result=first_result,
            plies=record.start.ply + len(record.moves),
            moves=format_moves(record.moves),
            forfeit=record.reason,
        )
        for name, (time_ms, nodes, moves, slowest) in totals.items():
            row[f"{name}_moves"] = moves
            row[f"{name}_ms_per_move"] = round(time_ms / moves, 3) if moves else 0.0
            row[f"{name}_max_ms"] = round(slowest, 3)
            row[f"{name}_nodes"] = nodes
        return row


def _run(task: Task) -> list[Row]:
    rows = task.run()
    return rows if isinstance(rows, list) else [rows]


class Checkpoint:
    """Rows already computed, keyed by task, in a JSON-lines file appended task by task."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.rows: dict[str, list[Row]] = {}
        if path is not None and path.exists():
            for line in path.read_text().splitlines():
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by an interruption: its task runs again
                self.rows[entry["key"]] = entry["rows"]

    def add(self, key: str, rows: list[Row]) -> None:
        self.rows[key] = rows
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a") as out:
                out.write(json.dumps({"key": key, "rows": rows}) + "\n")


def run_tasks(
    tasks: Sequence[Task],
    *,
    executor: Executor | None = None,
    checkpoint: Path | None = None,
    desc: str = "tasks",
    progress: bool = True,
) -> list[Row]:
    """Every task's rows, in task order; tasks already in ``checkpoint`` are not run again.

    ``executor`` None runs the tasks here, one after the other. A progress bar
    with an ETA goes to standard error. On Ctrl-C the tasks not started are
    cancelled, the rows already back stay in the checkpoint, and
    ``KeyboardInterrupt`` goes on up.
    """
    store = Checkpoint(checkpoint)
    pending = [task for task in tasks if task.key not in store.rows]
    bar = tqdm(
        total=len(tasks),
        initial=len(tasks) - len(pending),
        desc=desc,
        file=sys.stderr,
        disable=not progress,
        unit="task",
    )
    try:
        if executor is None:
            for task in pending:
                store.add(task.key, _run(task))
                bar.update()
        else:
            futures: dict[Future[list[Row]], Task] = {executor.submit(_run, task): task for task in pending}
            try:
                for future in as_completed(futures):
                    store.add(futures[future].key, future.result())
                    bar.update()
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        bar.close()
    return [row for task in tasks for row in store.rows[task.key]]
