"""Study ``first-move`` (seeds 000, 001, 004): the first move each agent finds on the empty 7x6 board.

Each agent family plays its first move at growing budgets (Monte Carlo
playouts, MCTS iterations, alpha-beta depth), several seeds for the random
ones, beside the exact value of every column from the solver (opening book).
Perfect play opens in the centre: it is the only first move that wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.agents.registry import create_agent
from engine.board import Board
from engine.experiments import charts
from engine.experiments.runner import Row, derive_seed
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.geometry import DEFAULT
from engine.solver.book import load_default
from engine.solver.solver import Solver

FAMILIES = {
    "montecarlo": ("montecarlo:playouts={}", (700, 7_000, 70_000)),
    "mcts": ("mcts:iterations={}", (1_000, 10_000, 100_000)),
    "alphabeta": ("alphabeta:depth={}", (2, 4, 6, 8, 10, 12)),
    "astar": ("astar:nodes={}", (10_000,)),
    "greedy": ("greedy", (1,)),
}
QUICK_FAMILIES = {
    "montecarlo": ("montecarlo:playouts={}", (700,)),
    "mcts": ("mcts:iterations={}", (1_000,)),
    "alphabeta": ("alphabeta:depth={}", (2, 4)),
}
RANDOMISED = ("montecarlo", "mcts")


@dataclass(frozen=True)
class FirstMoveTask:
    family: str
    spec: str
    budget: int
    seed: int

    @property
    def key(self) -> str:
        return f"{self.spec}|{self.seed}"

    def run(self) -> Row:
        agent = create_agent(self.spec, seed=self.seed)
        try:
            agent.choose(Board.from_moves("44", DEFAULT))  # load the compiled kernels outside the clock
            agent.new_game(self.seed)
            result = agent.choose(Board(DEFAULT))
        finally:
            agent.close()
        scores = result.column_scores or ()
        return {
            "family": self.family,
            "spec": self.spec,
            "budget": self.budget,
            "seed": self.seed,
            "column": result.column + 1,
            "time_ms": round(result.seconds * 1000.0, 3),
            "nodes": result.nodes,
            "column_scores": ",".join("" if s is None else f"{s.value:.4f}" for s in scores),
        }


@dataclass(frozen=True)
class ExactTask:
    """The exact score of every first move (the solver with the opening book)."""

    @property
    def key(self) -> str:
        return "exact"

    def run(self) -> list[Row]:
        solver = Solver(DEFAULT, 64, book=load_default(DEFAULT))
        analysis = solver.analyze(Board(DEFAULT), seconds=600)
        return [
            {
                "family": "exact",
                "column": col + 1,
                "exact": None if score is None else int(score.value),
                "finished": analysis.finished,
            }
            for col, score in enumerate(analysis.scores)
        ]


def tasks(settings: Settings) -> list:
    families = QUICK_FAMILIES if settings.quick else FAMILIES
    repeats = settings.count(5, 1)
    out: list = [ExactTask()]
    for family, (pattern, budgets) in families.items():
        for budget in budgets:
            seeds = range(repeats) if family in RANDOMISED else range(1)
            for k in seeds:
                out.append(
                    FirstMoveTask(family, pattern.format(budget), budget, derive_seed(settings.seed, family, budget, k))
                )
    return out


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    exact = {r["column"]: r["exact"] for r in rows if r["family"] == "exact"}
    finished = all(r["finished"] for r in rows if r["family"] == "exact")
    moves = [r for r in rows if r["family"] != "exact"]
    specs = list(dict.fromkeys(r["spec"] for r in moves))
    centre = (DEFAULT.cols + 1) // 2
    table_rows = []
    for spec in specs:
        mine = [r for r in moves if r["spec"] == spec]
        chosen = [r["column"] for r in mine]
        table_rows.append(
            [
                spec,
                len(mine),
                " ".join(str(c) for c in chosen),
                f"{np.mean([c == centre for c in chosen]):.0%}",
                f"{np.mean([exact.get(c, np.nan) for c in chosen]):+.1f}" if exact else "-",
                round(float(np.mean([r["time_ms"] for r in mine])), 1),
            ]
        )
    exact_line = " ".join(f"{c}:{exact[c]:+d}" for c in sorted(exact)) if exact else "-"
    table = (
        f"Exact score of each first move (column:score, Pons's convention, {'proven' if finished else 'NOT proven'}): "
        f"`{exact_line}`\n\n"
        + markdown_table(
            ["agent", "runs", "columns chosen", "centre", "mean exact score of the choice", "ms per move"],
            table_rows,
            right=[False, True, False, True, True, True],
        )
    )
    charts_made = ["centre_by_budget.png"]
    _budget_chart(moves, out / "centre_by_budget.png", centre)
    montecarlo = [r for r in moves if r["family"] == "montecarlo" and r["column_scores"]]
    if montecarlo and exact:
        _rates_chart(montecarlo, exact, out / "montecarlo_vs_exact.png")
        charts_made.insert(0, "montecarlo_vs_exact.png")
    top = max((r["budget"] for r in montecarlo), default=None)
    top_share = np.mean([r["column"] == centre for r in montecarlo if r["budget"] == top]) if top else float("nan")
    headline = (
        f"exact values {exact_line}: only the centre (column {centre}) wins; pure Monte Carlo with {top:,} "
        f"playouts opens in the centre in {top_share:.0%} of its runs"
        if top
        else f"exact values {exact_line}"
    )
    seed_figures = markdown_table(
        ["seed", "its best first move", "how"],
        [
            ["000", "the centre (column 4), hard-coded", "'taking the control of center is very important'"],
            ["001", "asks how to find it (pure Monte Carlo suggested); no answer published", "-"],
            ["004", "A*: left corner; minimax: column 3; MCTS: the centre", "one run each on the empty board"],
        ],
        right=[False, False, False],
    )
    agreement = _rank_agreement(montecarlo, exact) if montecarlo and exact else None
    ranking = (
        "no Monte Carlo run to compare"
        if agreement is None
        else f"the rank correlation between its mean win rates and the exact scores is {agreement:+.2f} "
        "(+1: the same order)"
    )
    reading = (
        "The solver proves that on 7x6 only the centre column wins for the first player; the columns next "
        "to it draw and the outer ones lose. Pure Monte Carlo scores each column by random continuations, "
        f"not perfect ones: at {top or 0:,} playouts {ranking}. Its win rates can pick the centre without "
        "ranking the other columns as perfect play does, and more playouts sharpen the estimate of the "
        "random-play value, not of the exact one. The table shows which budgets of each family open in the "
        "centre; A* plans only a line of its own and does not weigh the centre as such."
    )
    return Findings(table, charts_made, headline, seed_figures, reading)


def _rank_agreement(montecarlo: list[Row], exact: dict[int, int]) -> float:
    """Spearman's rank correlation between the mean Monte Carlo rates (largest budget) and the exact scores."""
    top = max(r["budget"] for r in montecarlo)
    rates = np.array([[float(s) for s in r["column_scores"].split(",")] for r in montecarlo if r["budget"] == top])
    columns = sorted(exact)
    mean_rates = rates.mean(axis=0)
    scores = np.array([exact[c] for c in columns], dtype=float)

    def ranks(values: np.ndarray) -> np.ndarray:  # average ranks, ties shared
        order = values.argsort().argsort().astype(float)
        for value in np.unique(values):
            order[values == value] = order[values == value].mean()
        return order

    return float(np.corrcoef(ranks(mean_rates), ranks(scores))[0, 1])


def _budget_chart(moves: list[Row], path: Path, centre: int) -> None:
    figure, (axis,) = charts.new_figure(9, 5)
    for family in dict.fromkeys(r["family"] for r in moves):
        budgets = sorted({r["budget"] for r in moves if r["family"] == family})
        shares = [
            np.mean([r["column"] == centre for r in moves if r["family"] == family and r["budget"] == b])
            for b in budgets
        ]
        axis.plot(budgets, np.array(shares) * 100, marker="o", label=family)
    axis.set_xscale("log")
    axis.set_ylim(-5, 105)
    charts.decorate(
        axis,
        "budget (playouts, iterations, depth in plies, A* states; log scale)",
        "runs opening in the centre (%)",
        "Empty 7x6 board: how often each agent finds the centre",
    )
    axis.legend(title="agent family")
    charts.save(figure, path)


def _rates_chart(montecarlo: list[Row], exact: dict[int, int], path: Path) -> None:
    top = max(r["budget"] for r in montecarlo)
    rates = np.array([[float(s) for s in r["column_scores"].split(",")] for r in montecarlo if r["budget"] == top])
    columns = sorted(exact)
    figure, (axis,) = charts.new_figure(9, 5)
    axis.bar(
        columns,
        rates.mean(axis=0) * 100,
        yerr=rates.std(axis=0) * 100,
        capsize=3,
        color="tab:blue",
        label=f"Monte Carlo win rate, {top:,} playouts ({len(rates)} runs)",
    )
    axis.set_xlabel("first move (column)")
    axis.set_ylabel("Monte Carlo win rate of the first player (%)")
    axis.set_ylim(0, 100)
    second = axis.twinx()
    second.plot(columns, [exact[c] for c in columns], "s--", color="tab:red", label="exact score (solver)")
    second.axhline(0, color="grey", linewidth=0.8)
    second.set_ylabel("exact score (Pons: >0 win, 0 draw, <0 loss)")
    second.set_ylim(-3, 3)
    lines = axis.get_legend_handles_labels()
    more = second.get_legend_handles_labels()
    axis.legend(lines[0] + more[0], lines[1] + more[1], loc="upper left", fontsize=8)
    axis.set_title("First move on 7x6: Monte Carlo win rates against exact scores")
    charts.save(figure, path)


STUDY = Study(
    name="first-move",
    summary="the best first move each agent finds against its budget, beside exact column values",
    seeds="000, 001, 004",
    tasks=tasks,
    summarize=summarize,
    charts=("montecarlo_vs_exact.png", "centre_by_budget.png"),
)
