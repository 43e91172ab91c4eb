"""Study ``random-games`` (seeds 000, 001): how often the first player wins when both play at random.

Real ``random`` agents play through :func:`engine.match.play_game`, the code
path of every match, in batches (one task per batch, one row per game).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.agents.registry import create_agent
from engine.board import Board
from engine.experiments import charts
from engine.experiments.runner import Row, derive_seed
from engine.experiments.stats import percent_with_interval, wilson
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.geometry import Geometry
from engine.match import play_game

SIZES = ((4, 4), (5, 4), (6, 5), (7, 6), (8, 8), (9, 9))
QUICK_SIZES = ((4, 4), (7, 6))
BATCH = 500


@dataclass(frozen=True)
class RandomGames:
    """``games`` random-vs-random games on one board size."""

    cols: int
    rows: int
    batch: int
    games: int
    seed: int

    @property
    def key(self) -> str:
        return f"{self.cols}x{self.rows}|{self.batch}|{self.games}|{self.seed}"

    def run(self) -> list[Row]:
        geometry = Geometry(self.cols, self.rows, 4)
        first = create_agent("random", seed=self.seed)
        second = create_agent("random", seed=self.seed + 1)
        out = []
        for game in range(self.games):
            record = play_game(first, second, Board(geometry))
            winner = "draw" if record.winner is None else ("first" if record.winner.value == 0 else "second")
            out.append(
                {
                    "size": f"{self.cols}x{self.rows}",
                    "game": self.batch * BATCH + game,
                    "winner": winner,
                    "plies": len(record.moves),
                }
            )
        return out


def tasks(settings: Settings) -> list[RandomGames]:
    games = settings.count(10_000, 200)
    out = []
    for cols, rows in QUICK_SIZES if settings.quick else SIZES:
        for batch in range((games + BATCH - 1) // BATCH):
            count = min(BATCH, games - batch * BATCH)
            out.append(RandomGames(cols, rows, batch, count, derive_seed(settings.seed, cols, rows, batch)))
    return out


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    sizes = list(dict.fromkeys(row["size"] for row in rows))
    table_rows, shares = [], {}
    for size in sizes:
        mine = [row for row in rows if row["size"] == size]
        counts = Counter(row["winner"] for row in mine)
        n = len(mine)
        plies = np.array([row["plies"] for row in mine])
        shares[size] = {k: (counts[k] / n, *wilson(counts[k], n)) for k in ("first", "second", "draw")}
        table_rows.append(
            [
                size,
                n,
                percent_with_interval(counts["first"], n),
                percent_with_interval(counts["second"], n),
                percent_with_interval(counts["draw"], n),
                round(float(plies.mean()), 1),
            ]
        )
    table = markdown_table(
        ["board", "games", "first wins (95% CI)", "second wins", "draws", "mean length (plies)"],
        table_rows,
        right=[False, True, True, True, True, True],
    )
    _bar_chart(shares, out / "outcomes.png")
    _length_chart(rows, sizes, out / "lengths.png")
    seven = shares.get("7x6")
    headline = (
        f"on 7x6 the first player wins {seven['first'][0]:.1%} of random games "
        f"(95% CI {seven['first'][1]:.1%}-{seven['first'][2]:.1%}), draws {seven['draw'][0]:.2%}"
        if seven
        else "no 7x6 games in this run"
    )
    seed_figures = markdown_table(
        ["source", "games (7x6)", "first wins", "second wins", "draws"],
        [
            ["seed 000", "1,000", "about 57%", "-", "-"],
            ["seed 001", "1,000", "56.0%", "43.7%", "0.3%"],
            ["this run", f"{sum(1 for r in rows if r['size'] == '7x6'):,}", *_cells(seven)],
        ],
        right=[False, True, True, True, True],
    )
    edge = f"{(seven['first'][0] - seven['second'][0]) * 100:.0f} points" if seven else "several points"
    reading = (
        f"Moving first is worth {edge} of win rate on 7x6 even when nobody plays well: the first "
        "player always has as many stones on the board as the second, or one more, so it completes a line "
        "first more often. The seeds' 1,000 games put the first player near 56-57%; compare our interval above. "
        f"{_draws_sentence(shares)}"
    )
    return Findings(table, ["outcomes.png", "lengths.png"], headline, seed_figures, reading)


def _draws_sentence(shares: dict) -> str:
    """How draws change with the board size, from the rows."""
    smallest, largest = next(iter(shares)), list(shares)[-1]
    return (
        f"Draws fall from {shares[smallest]['draw'][0]:.0%} of the games on {smallest} (a random line of four "
        f"is rare on a small board) to {shares[largest]['draw'][0]:.1%} on {largest}, where games also get longer."
    )


def _cells(share) -> list[str]:
    return [f"{share[k][0]:.1%}" for k in ("first", "second", "draw")] if share else ["-"] * 3


def _bar_chart(shares: dict, path: Path) -> None:
    figure, (axis,) = charts.new_figure(9, 5)
    width = 0.27
    x = np.arange(len(shares))
    for offset, (outcome, colour) in enumerate((("first", "tab:red"), ("second", "goldenrod"), ("draw", "grey"))):
        values = [shares[size][outcome] for size in shares]
        heights = [v[0] * 100 for v in values]
        errors = [[(v[0] - v[1]) * 100 for v in values], [(v[2] - v[0]) * 100 for v in values]]
        axis.bar(x + (offset - 1) * width, heights, width, yerr=errors, capsize=3, color=colour, label=f"{outcome}")
    axis.set_xticks(x, list(shares))
    axis.set_xlabel("board (columns x rows), connect 4")
    axis.set_ylabel("share of games (%), 95% Wilson interval")
    axis.set_title("Random vs random: who wins")
    axis.legend(title="outcome")
    charts.save(figure, path)


def _length_chart(rows: list[Row], sizes: list[str], path: Path) -> None:
    figure, (axis,) = charts.new_figure(9, 5)
    for size in sizes:
        plies = [row["plies"] for row in rows if row["size"] == size]
        cols, rows_ = map(int, size.split("x"))
        axis.hist(
            plies, bins=np.arange(0, cols * rows_ + 2) - 0.5, histtype="step", density=True, label=size, linewidth=1.5
        )
    axis.set_xlabel("game length (plies)")
    axis.set_ylabel("share of games")
    axis.set_title("Random vs random: game length")
    axis.legend(title="board")
    charts.save(figure, path)


STUDY = Study(
    name="random-games",
    summary="random vs random: first/second/draw rates with intervals, game lengths",
    seeds="000, 001",
    tasks=tasks,
    summarize=summarize,
    charts=("outcomes.png", "lengths.png"),
)
