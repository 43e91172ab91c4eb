"""One game between two agent specs as a task of :mod:`engine.tasks`: studies and tournaments play these."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from engine.agents.registry import create_agent
from engine.board import Board, Side
from engine.formats import format_moves
from engine.geometry import Geometry
from engine.match import GameRecord, play_game
from engine.tasks import Row


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

    def fits(self, rows: list[Row]) -> bool:
        """One row of this very game (its task fields) with an outcome a tournament can count."""
        if len(rows) != 1:
            return False
        row = rows[0]
        for name, value in asdict(self).items():
            if type(row.get(name)) is not type(value) or row.get(name) != value:
                return False
        numbers = [row.get(f"{side}_{what}") for side in ("red", "yellow") for what in ("moves", "nodes")]
        times = [row.get(f"{side}_{what}") for side in ("red", "yellow") for what in ("ms_per_move", "max_ms")]
        return (
            row.get("winner") in ("red", "yellow", "draw")
            and row.get("result") in ("first", "second", "draw")
            and type(row.get("plies")) is int
            and isinstance(row.get("moves"), str)
            and isinstance(row.get("forfeit"), str)
            and all(type(n) is int and n >= 0 for n in numbers)
            and all(type(t) in (int, float) for t in times)
        )
