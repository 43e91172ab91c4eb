"""``bench ladder``: the difficulty ladder's crosstable, Elo ratings and level-over-level win rates.

The games come from tournaments (``python -m engine tournament A B ...``)
whose output folders are given: a round robin of all the presets, or, when
time is short, one tournament per pair of neighbouring levels, or both.
Every game of every folder goes into one Bradley-Terry fit
(:mod:`engine.experiments.elo`), so ratings are comparable across
tournaments. The figures of docs/ladder.md and of
:mod:`engine.agents.presets` come from here.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from engine.agents.registry import presets
from engine.console import emit
from engine.errors import EngineError
from engine.experiments.stats import percent_with_interval
from engine.experiments.tournament import summarize
from engine.files import check_picture_target
from engine.tasks import Checkpoint

#: Ratings are shifted so that the mean of the field is this (Elo has no zero of its own).
MEAN_ELO = 1500


def add_parser(benches) -> None:
    parser = benches.add_parser("ladder", help="crosstable, Elo and win rates of the presets from tournament folders")
    parser.add_argument("folders", nargs="+", type=Path, metavar="DIR", help="tournament output folders")
    parser.add_argument("--chart", default=None, metavar="FILE.png", help="write the ratings chart (PNG) here")
    parser.set_defaults(run=run)


def game_rows(progress: Path) -> list[dict]:
    """The game rows of a tournament's progress file, read as the runner resumes it (bounded, checked).

    A task found twice (two runs resumed the same folder at once) counts once; a row that is not a
    game between two agents is left out, like a damaged line.
    """
    rows = [row for rows in Checkpoint(progress).rows.values() for row in rows]
    return [row for row in rows if isinstance(row.get("red"), str) and isinstance(row.get("yellow"), str)]


def run(args) -> int:
    chart = None if args.chart is None else check_picture_target(args.chart, "--chart")
    rows: list[Any] = []
    for folder in args.folders:
        progress = folder / "progress.jsonl"
        if not progress.exists():
            raise EngineError(f"{folder} has no progress.jsonl: is it a tournament's output folder?")
        rows += game_rows(progress)
    played = {row[side] for row in rows for side in ("red", "yellow")}
    unknown = played - {preset.name for preset in presets()}
    if unknown:
        raise EngineError(f"not presets: {', '.join(sorted(unknown))}")
    # Only the levels that played: a level with no games has no rating to show.
    names = [preset.name for preset in presets() if preset.name in played]
    result = summarize(names, rows)
    emit(f"{len(rows)} games; crosstable (points of the row preset against the column preset):")
    emit(result.crosstable_markdown())
    emit("level over the level below: wins / draws / losses, the win rate (95% Wilson interval) and the score")
    for lower, upper in itertools.pairwise(names):
        i, j = names.index(upper), names.index(lower)
        games = [r for r in rows if {r["red"], r["yellow"]} == {upper, lower}]
        wins = sum(r["winner"] in ("red", "yellow") and r[r["winner"]] == upper for r in games)
        draws = sum(r["winner"] == "draw" for r in games)
        emit(
            f"  {upper} over {lower}: {wins} / {draws} / {len(games) - wins - draws}, "
            f"wins {percent_with_interval(wins, len(games))}, score {result.share(i, j):.0%}"
        )
    emit(f"Elo (Bradley-Terry, mean {MEAN_ELO}, 95% interval):")
    for standing in sorted(result.standings, key=lambda s: names.index(s.agent)):
        emit(
            f"  {standing.agent:<10} {standing.elo + MEAN_ELO:6.0f}  "
            f"[{standing.low + MEAN_ELO:.0f}, {standing.high + MEAN_ELO:.0f}]  {standing.games} games"
        )
    if chart is not None:
        result.chart(chart, "Difficulty ladder")
        emit(f"chart: {chart}")
    return 0
