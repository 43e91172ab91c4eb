"""Study ``state-space`` (seeds 000, 001, 002): distinct positions per ply, beside the textbook bounds.

Positions are counted exactly by :mod:`engine.count` (breadth first, one copy
of each distinct position). Small boards are counted to the end; 7x6 as far as
it runs in about a minute. The average branching factor is measured on random
games: the mean number of legal columns in the positions they pass through.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

from engine.board import Board
from engine.count import count_positions
from engine.experiments import charts
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table, scientific
from engine.geometry import Geometry
from engine.tasks import Row, derive_seed

#: Positions of 7x6 Connect Four, all plies: John Tromp's count (OEIS A212693, summed over plies),
#: confirmed by Edelkamp and Kissmann (2008).
KNOWN_7X6_TOTAL = 4_531_985_219_092
#: Seed 000's "best value for the size of state-space" of 7x6, "around 1.6e13", citing MIT's
#: sp.268 slides (web.mit.edu/sp.268/www/2010/connectFourSlides.pdf).
SEED_000_ESTIMATE = 1.6e13
#: Seed 002 sums the same per-ply counts to 4,531,985,219,092 and writes it as "4.53 x 10^13".
SEED_002_WRITTEN = 4.53e13
#: (columns, rows, last ply counted): small boards to the end, 7x6 as far as is quick.
SIZES = ((4, 4, 16), (5, 4, 20), (4, 5, 20), (5, 5, 25), (6, 4, 24), (7, 6, 13))
QUICK_SIZES = ((4, 4, 16), (5, 4, 20), (7, 6, 8))


@dataclass(frozen=True)
class CountTask:
    cols: int
    rows: int
    plies: int
    seed: int
    samples: int = 2000

    @property
    def key(self) -> str:
        return f"{self.cols}x{self.rows}|{self.plies}|{self.seed}|{self.samples}"

    def run(self) -> list[Row]:
        geometry = Geometry(self.cols, self.rows, 4)
        branching = _branching(geometry, self.samples, self.seed)
        return [
            {
                "size": f"{self.cols}x{self.rows}",
                "ply": ply,
                "positions": count,
                "to_the_end": self.plies >= geometry.cells,
                "branching": round(branching, 3),
            }
            for ply, count in count_positions(geometry, self.plies)
        ]


def _branching(geometry: Geometry, games: int, seed: int) -> float:
    """The mean number of legal columns over the positions of random games."""
    rng, moves, positions = random.Random(seed), 0, 0
    for _ in range(games):
        board = Board(geometry)
        while not board.is_over:
            legal = board.legal_columns()
            moves += len(legal)
            positions += 1
            board.play(rng.choice(legal))
    return moves / positions


def tasks(settings: Settings) -> list[CountTask]:
    samples = settings.count(2000, 200)
    return [
        CountTask(c, r, p, derive_seed(settings.seed, c, r), samples)
        for c, r, p in (QUICK_SIZES if settings.quick else SIZES)
    ]


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    sizes = list(dict.fromkeys(row["size"] for row in rows))
    table_rows = []
    for size in sizes:
        mine = [row for row in rows if row["size"] == size]
        cols, rows_ = map(int, size.split("x"))
        cells = cols * rows_
        total = sum(row["positions"] for row in mine)
        last = mine[-1]["ply"]
        counted = f"all {cells}" if mine[0]["to_the_end"] else f"0-{last} of {cells}"
        b = mine[0]["branching"]
        table_rows.append(
            [size, counted, total, scientific(3.0**cells), scientific(float(cols) ** cells), b, scientific(b**cells)]
        )
    table = markdown_table(
        [
            "board",
            "plies counted",
            "positions (exact)",
            "3^cells bound",
            "cols^cells tree",
            "mean branching",
            "b^cells",
        ],
        table_rows,
        right=[False, False, True, True, True, True, True],
    )
    seven = [row for row in rows if row["size"] == "7x6"]
    by_ply = "\n".join(f"{row['ply']} {row['positions']:,}" for row in seven)
    extra = [f"### 7x6 positions per ply\n\n```\n{by_ply}\n```"] if seven else []
    _chart(rows, sizes, out / "positions.png")
    counted = sum(row["positions"] for row in seven)
    total, colourings = KNOWN_7X6_TOTAL, 3.0**42
    headline = (
        f"7x6: {counted:,} positions in plies 0-{seven[-1]['ply']} (exact); the known total over all plies is "
        f"{total:,} = {scientific(total)}, against the 3^42 = {scientific(colourings)} bound and the 7^42 = "
        f"{scientific(7.0**42)} "
        f"game-tree bound; measured mean branching factor {seven[0]['branching']}"
        if seven
        else "no 7x6 count in this run"
    )
    seed_figures = markdown_table(
        ["source", "state space of 7x6", "game tree"],
        [
            ["seed 000", f"3^42, 'around {scientific(SEED_000_ESTIMATE, 2)}' (MIT slides)", "7^42"],
            [
                "seed 002",
                f"3^42 = {scientific(colourings)}; {total:,} written as '{scientific(SEED_002_WRITTEN)}' "
                f"(it is {scientific(total)})",
                "branching at most 7",
            ],
            ["known", f"{total:,} (Tromp; Edelkamp and Kissmann 2008; OEIS A212693)", "-"],
            ["this run", f"{counted:,} up to ply {seven[-1]['ply']}" if seven else "-", "-"],
        ],
        right=[False, False, False],
    )
    ratio = SEED_000_ESTIMATE / total
    reading = (
        "The 3^cells bound counts every colouring of the board, floating discs and impossible disc counts "
        f"included; it overestimates the real 7x6 state space about {scientific(colourings / total, 2)} times, "
        f"{math.log10(colourings / total):.1f} orders of magnitude ({scientific(colourings)} against "
        f"{scientific(total)}). Seed 000's {scientific(SEED_000_ESTIMATE, 2)} is {ratio:.1f} times the known count: "
        f"{'an overestimate' if ratio > 1 else 'an underestimate'}, "
        f"{'higher' if ratio > 1 else 'lower'} than the exact figure. {_shape_sentence(rows, sizes)} "
        "The measured branching factor is below the number of columns for the same reason, so b^cells, and "
        "even more cols^cells, grossly overstates the number of distinct positions: transpositions make the "
        "game a graph, not a tree."
    )
    return Findings(table, ["positions.png"], headline, seed_figures, reading, extra)


def _shape_sentence(rows: list[Row], sizes: list[str]) -> str:
    """Where the count per ply peaks on the boards counted to the end, from the rows."""
    peaks = []
    for size in sizes:
        mine = [row for row in rows if row["size"] == size]
        if mine and mine[0]["to_the_end"]:
            peak = max(mine, key=lambda row: row["positions"])
            peaks.append(f"ply {peak['ply']} of {mine[-1]['ply']} on {size}")
    if not peaks:
        return "No board was counted to the end in this run."
    return (
        f"On the boards we count to the end the count per ply rises to a peak ({', '.join(peaks)}) and then "
        "falls, because finished games are not extended and full columns cut the choices."
    )


def _chart(rows: list[Row], sizes: list[str], path: Path) -> None:
    figure, (axis,) = charts.new_figure(9, 5.5)
    for size in sizes:
        mine = [row for row in rows if row["size"] == size]
        axis.plot([r["ply"] for r in mine], [max(r["positions"], 0.8) for r in mine], marker=".", label=size)
    axis.set_yscale("log")
    axis.set_xlabel("ply (stones on the board)")
    axis.set_ylabel("distinct positions (log scale)")
    axis.set_title("Distinct positions per ply (exact counts)")
    axis.grid(True, which="major", alpha=0.3)
    axis.legend(title="board (cols x rows)")
    charts.save(figure, path)


STUDY = Study(
    name="state-space",
    summary="distinct positions per ply (exact), totals, bounds, branching factor",
    seeds="000, 001, 002",
    tasks=tasks,
    summarize=summarize,
    charts=("positions.png",),
)
