"""Study ``eval-tournament`` (seed 002): alpha-beta at depths 2, 4, 6, 8 with EvalF1..EvalF4, and every evaluation.

Two round robins (:mod:`.tournament`), every pairing from seeded 2-ply
openings with both colours: the seed's sixteen agents (EvalF1..F4 at depths 2,
4, 6 and 8), and every evaluation of the engine at depth 6.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.experiments import charts
from engine.experiments.games import GameTask
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.experiments.tournament import TournamentResult, schedule
from engine.experiments.tournament import summarize as summarize_games
from engine.kernels.evaluation import NAMES
from engine.tasks import Row

SEED_EVALS = ("f1", "f2", "f3", "f4")
DEPTHS = (2, 4, 6, 8)
ALL_EVALS_DEPTH = 6


def _spec(eval_name: str, depth: int) -> str:
    return f"alphabeta:depth={depth},eval={eval_name}"


def _fields(settings: Settings) -> tuple[list[str], list[str]]:
    if settings.quick:
        return [_spec(e, d) for d in (2, 4) for e in SEED_EVALS], [_spec(e, 2) for e in ("f4", "seed004", "threats")]
    return [_spec(e, d) for d in DEPTHS for e in SEED_EVALS], [_spec(e, ALL_EVALS_DEPTH) for e in NAMES]


def tasks(settings: Settings) -> list[GameTask]:
    seed_field, all_field = _fields(settings)
    games = settings.count(10, 2)
    return schedule(seed_field, games, settings.seed) + schedule(all_field, games, settings.seed + 1)


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    seed_field, all_field = _fields(settings)
    games = settings.count(10, 2)
    split = len(schedule(seed_field, games, settings.seed))
    seed_result = summarize_games(seed_field, rows[:split])
    all_result = summarize_games(all_field, rows[split:])
    depths = sorted({_depth(a) for a in seed_field})
    seed_result.chart(out / "seed_field.png", f"EvalF1-F4 x depth {depths[0]}-{depths[-1]}")
    all_result.chart(out / "all_evals.png", f"every evaluation at depth {_depth(all_field[0])}")
    share = _share_by(seed_result, depths)
    _heat_map(share, depths, out / "eval_depth.png")
    matrix_rows = [
        [e.upper(), *[f"{share[i, j]:.0%}" for j in range(len(depths))], f"{share[i].mean():.0%}"]
        for i, e in enumerate(SEED_EVALS)
    ]
    matrix_rows.append(["all", *[f"{share[:, j].mean():.0%}" for j in range(len(depths))], ""])
    matrix = markdown_table(
        ["eval \\ depth", *map(str, depths), "mean"], matrix_rows, right=[False] + [True] * (len(depths) + 1)
    )
    table = (
        f"Score (share of points) of each evaluation at each depth over its round-robin games, {games} games a pairing:"
        f"\n\n{matrix}\n\nStandings of the seed's agents:\n\n{seed_result.standings_markdown()}\n\n"
        f"Every evaluation at depth {_depth(all_field[0])}:\n\n{all_result.standings_markdown()}"
    )
    best = all_result.standings[0]
    best_seed = max(range(len(SEED_EVALS)), key=lambda i: share[i].mean())
    headline = (
        f"among the seed's functions {SEED_EVALS[best_seed].upper()} scores best ({share[best_seed].mean():.0%} "
        f"over all depths); depth {depths[-1]} scores {share[:, -1].mean():.0%} against {share[:, 0].mean():.0%} "
        f"for depth {depths[0]}; of all evaluations at one depth `{best.agent}` rates highest ({best.elo:+.0f} Elo)"
    )
    seed_figures = (
        "Seed 002 asks for 10 matches between the agents of EvalF1..EvalF4 at levels 2, 4, 6 and 8 and a "
        "conclusion; it publishes no results table, so there is no figure to set beside ours. Its agents are "
        "deterministic and play from the empty board, so its 10 matches would repeat one or two games."
    )
    deeper = share[:, -1].mean() - share[:, 0].mean()
    reading = (
        f"Averaged over the four functions, depth {depths[-1]} takes {share[:, -1].mean():.0%} of the points "
        f"against {share[:, 0].mean():.0%} at depth {depths[0]} "
        f"({'deeper search pays' if deeper > 0.05 else 'depth changes little at these settings'}). "
        f"{SEED_EVALS[best_seed].upper()} is the best of the seed's functions over all depths. EvalF1 only "
        "counts completed lines, so below the depth where a line is made it sees every move as equal and "
        "picks one at random (the agents break ties at random); EvalF2 and EvalF4 also count three-in-a-row "
        "windows and so see threats a move early; "
        "EvalF3's centre bonus helps in the opening. At equal depth the engine's own `threats` evaluation, "
        f"which weighs threats by row parity, rates {_elo_of(all_result, 'threats')} Elo against the field's mean."
    )
    extra = [
        "### Crosstable of the seed's agents (points of the row agent against the column agent)\n\n"
        + seed_result.crosstable_markdown()
    ]
    charts_made = ["eval_depth.png", "seed_field.png", "all_evals.png"]
    return Findings(table, charts_made, headline, seed_figures, reading, extra)


def _elo_of(result: TournamentResult, eval_name: str) -> str:
    for standing in result.standings:
        if standing.agent.endswith(f"eval={eval_name}"):
            return f"{standing.elo:+.0f}"
    return "-"


def _depth(spec: str) -> int:
    return int(spec.split("depth=")[1].split(",")[0])


def _share_by(result: TournamentResult, depths: list[int]) -> np.ndarray:
    share = np.zeros((len(SEED_EVALS), len(depths)))
    for standing in result.standings:
        eval_name = standing.agent.split("eval=")[1]
        share[SEED_EVALS.index(eval_name), depths.index(_depth(standing.agent))] = standing.share
    return share


def _heat_map(share: np.ndarray, depths: list[int], path: Path) -> None:
    figure, (axis,) = charts.new_figure(6.5, 4.5)
    charts.heat_map(
        axis,
        share,
        [e.upper().replace("F", "EvalF") for e in SEED_EVALS],
        [str(d) for d in depths],
        "Score in the round robin by evaluation and depth",
        "share of points",
    )
    axis.set_xlabel("alpha-beta depth (plies)")
    axis.set_ylabel("evaluation (seed 002)")
    charts.save(figure, path)


STUDY = Study(
    name="eval-tournament",
    summary="alpha-beta depths 2-8 x EvalF1..F4 and every evaluation: crosstables, Elo, heat map",
    seeds="002",
    tasks=tasks,
    summarize=summarize,
    charts=("eval_depth.png", "seed_field.png", "all_evals.png"),
)
