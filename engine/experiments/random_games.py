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
from engine.experiments.stats import percent_with_interval, wilson
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.geometry import Geometry
from engine.match import play_game
from engine.tasks import Row, derive_seed

#: What the seeds published for 1,000 random games on 7x6: seed 000 "approximately 57%" for the
#: first player (Task 2, read off its bar charts); seed 001 "player 'x' won 560 times and player
#: 'o' won 437 times" (so 3 draws).
SEED_GAMES = 1_000
SEED_000_FIRST = 0.57
SEED_001_FIRST, SEED_001_SECOND = 0.560, 0.437
SEED_001_DRAWS = 1 - SEED_001_FIRST - SEED_001_SECOND
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
    table_rows, shares, lengths = [], {}, {}
    for size in sizes:
        mine = [row for row in rows if row["size"] == size]
        counts = Counter(row["winner"] for row in mine)
        n = len(mine)
        plies = np.array([row["plies"] for row in mine])
        lengths[size] = float(plies.mean())
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
            ["seed 000", f"{SEED_GAMES:,}", f"about {SEED_000_FIRST:.0%}", "-", "-"],
            [
                "seed 001",
                f"{SEED_GAMES:,}",
                f"{SEED_001_FIRST:.1%}",
                f"{SEED_001_SECOND:.1%}",
                f"{SEED_001_DRAWS:.1%}",
            ],
            ["this run", f"{sum(1 for r in rows if r['size'] == '7x6'):,}", *_cells(seven)],
        ],
        right=[False, True, True, True, True],
    )
    edge = f"{(seven['first'][0] - seven['second'][0]) * 100:.0f} points" if seven else "several points"
    reading = (
        f"Moving first is worth {edge} of win rate on 7x6 even when nobody plays well: the first "
        "player always has as many stones on the board as the second, or one more, so it completes a line "
        f"first more often. The seeds' {SEED_GAMES:,} games put the first player at {SEED_001_FIRST:.0%} (seed 001) "
        f"and about {SEED_000_FIRST:.0%} (seed 000){_seed_interval_sentence(seven)} {_draws_sentence(shares, lengths)}"
    )
    return Findings(table, ["outcomes.png", "lengths.png"], headline, seed_figures, reading)


def _seed_interval_sentence(seven) -> str:
    """Whether the seeds' figures fall in our 95% interval on 7x6."""
    if not seven:
        return "."
    _, low, high = seven["first"]
    inside = [
        name for name, value in (("seed 001", SEED_001_FIRST), ("seed 000", SEED_000_FIRST)) if low <= value <= high
    ]
    where = f"{' and '.join(inside)} inside" if inside else "both outside"
    seed_low, seed_high = wilson(SEED_001_FIRST * SEED_GAMES, SEED_GAMES)
    overlap = "overlaps" if seed_low <= high and low <= seed_high else "does not overlap"
    return (
        f"; our 95% interval on 7x6 is {low:.1%}-{high:.1%}, {where} it, and seed 001's own, from its "
        f"{SEED_GAMES:,} games, is {seed_low:.1%}-{seed_high:.1%}, which {overlap} ours."
    )


def _draws_sentence(shares: dict, lengths: dict) -> str:
    """How draws and game lengths change from the smallest board to the largest, from the rows."""
    smallest, largest = next(iter(shares)), list(shares)[-1]
    first, last = shares[smallest]["draw"][0], shares[largest]["draw"][0]
    trend = "fall" if last < first else "rise" if last > first else "stay"
    longer = lengths[largest] > lengths[smallest]
    return (
        f"Draws {trend} from {first:.1%} of the games on {smallest} (a random line of four is rare on a small "
        f"board) to {last:.1%} on {largest}, where games are {'longer' if longer else 'no longer'} on average "
        f"({lengths[smallest]:.1f} against {lengths[largest]:.1f} plies)."
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
