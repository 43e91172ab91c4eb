"""Positions labelled with the exact score of every column, for the accuracy studies.

The file (``assets/labelled_positions.txt``) is made by this project's own
solver: ``python -m engine.experiments.labelled`` regenerates it (seeded). Each
line is ``COLSxROWS POSITION SCORES``: the board size, the move string, and
the exact score of each column in Pons's convention (``x`` for a full column).
Positions come from seeded random games at plies spread over the whole game;
a position is kept only if it is a real decision (not every column has the
same score) and not a one-move win (which every agent finds).
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

from engine.board import Board
from engine.geometry import Geometry
from engine.limits import Limits
from engine.solver.book import load_default
from engine.solver.solver import Solver

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "assets" / "labelled_positions.txt"
#: (cols, rows, positions) of the shipped file.
PLAN = ((7, 6, 120), (6, 5, 40), (5, 4, 40))


@dataclass(frozen=True)
class LabelledPosition:
    cols: int
    rows: int
    moves: str
    scores: tuple[int | None, ...]

    @property
    def geometry(self) -> Geometry:
        return Geometry(self.cols, self.rows, 4)

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def phase(self) -> str:
        """Opening, middle game or end game: the first, second or last third of the board's cells."""
        third = self.cols * self.rows / 3
        return "opening" if self.ply < third else "middle" if self.ply < 2 * third else "end"

    @property
    def best(self) -> int:
        return max(s for s in self.scores if s is not None)

    def is_optimal(self, column: int) -> bool:
        """The move has the best exact score."""
        return self.scores[column] == self.best

    def keeps_value(self, column: int) -> bool:
        """The move keeps the game's value (win, draw or loss), if not the quickest win."""
        score = self.scores[column]
        return score is not None and _sign(score) == _sign(self.best)

    def line(self) -> str:
        scores = ",".join("x" if s is None else str(s) for s in self.scores)
        return f"{self.cols}x{self.rows} {self.moves or '-'} {scores}"


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def load(path: Path = DEFAULT_PATH) -> list[LabelledPosition]:
    lines = path.read_text().splitlines()
    return [parse_line(line) for line in lines if line.strip() and not line.startswith("#")]


def generate(cols: int, rows: int, count: int, seed: int, seconds: float = 2.0) -> list[LabelledPosition]:
    """``count`` labelled decisions from seeded random games, plies spread evenly; slow solves are skipped."""
    geometry = Geometry(cols, rows, 4)
    solver = Solver(geometry, 64, book=load_default(geometry))
    rng = random.Random(seed)
    first, last = max(2, geometry.cells // 5), geometry.cells - 4  # the first plies are slow to solve
    found: list[LabelledPosition] = []
    attempt = 0
    while len(found) < count:
        ply = first + (attempt % (last - first + 1))
        attempt += 1
        board = Board(geometry)
        while board.ply < ply and not board.is_over:
            board.play(rng.choice(board.legal_columns()))
        if board.is_over or any(board.is_winning_move(c) for c in board.legal_columns()):
            continue
        analysis = solver.analyze(board, Limits(seconds=seconds))
        legal = [s for s in analysis.scores if s is not None]
        if not analysis.finished or len(set(legal)) < 2:
            continue
        values = tuple(None if score is None else int(score.value) for score in analysis.scores)
        found.append(LabelledPosition(cols, rows, board.move_string or "", values))
        print(found[-1].line(), flush=True)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="regenerate the labelled positions with the solver")
    parser.add_argument("--out", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    lines = [
        "# COLSxROWS POSITION SCORES: exact score of every column (Pons's convention, x = full column).",
        f"# Made by python -m engine.experiments.labelled --seed {args.seed} (random games, real decisions only).",
    ]
    for cols, rows, count in PLAN:
        for position in generate(cols, rows, count, args.seed + cols * 10 + rows):
            lines.append(position.line())
    args.out.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


@dataclass(frozen=True)
class MoveQualityTask:
    """An agent's move in each of some labelled positions: optimal? value kept? how long?"""

    spec: str
    lines: tuple[str, ...]  # LabelledPosition.line() texts
    seed: int = 0

    @property
    def key(self) -> str:
        return f"{self.spec}|{self.seed}|{hash_lines(self.lines)}"

    def run(self) -> list[dict]:
        from engine.agents.registry import create_agent

        agent = create_agent(self.spec, seed=self.seed)
        rows = []
        try:
            warm_up = parse_line(self.lines[0])
            agent.choose(Board.from_moves(warm_up.moves, warm_up.geometry))  # load the kernels outside the clock
            for text in self.lines:
                position = parse_line(text)
                agent.new_game()
                result = agent.choose(Board.from_moves(position.moves, position.geometry))
                rows.append(
                    {
                        "agent": self.spec,
                        "size": f"{position.cols}x{position.rows}",
                        "moves": position.moves,
                        "ply": position.ply,
                        "phase": position.phase,
                        "column": result.column + 1,
                        "optimal": position.is_optimal(result.column),
                        "keeps_value": position.keeps_value(result.column),
                        "time_ms": round(result.seconds * 1000.0, 3),
                        "nodes": result.nodes,
                    }
                )
        finally:
            agent.close()
        return rows


def hash_lines(lines: tuple[str, ...]) -> str:
    import hashlib

    return hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12]


def parse_line(text: str) -> LabelledPosition:
    size, moves, scores = text.split()
    cols, rows = map(int, size.split("x"))
    values = tuple(None if s == "x" else int(s) for s in scores.split(","))
    return LabelledPosition(cols, rows, "" if moves == "-" else moves, values)


def chunks(positions: list[LabelledPosition], size: int) -> list[tuple[str, ...]]:
    """The positions as line texts in groups of ``size`` (one task each)."""
    lines = [p.line() for p in positions]
    return [tuple(lines[i : i + size]) for i in range(0, len(lines), size)]
