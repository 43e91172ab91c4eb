"""Study ``first-move`` (seeds 000, 001, 004): the first move each agent finds on the empty 7x6 board.

Each agent family plays its first move at growing budgets (Monte Carlo
playouts, MCTS iterations, alpha-beta depth), beside the exact value of every
column from the solver (opening book). Every agent runs with several seeds:
Monte Carlo and MCTS sample at random, and alpha-beta and greedy pick at
random among the columns their own search scores as equally good (at some
depths several first moves tie), so one run would show chance, not the agent.
The rows keep each run's column and, for the searches that break ties, the
columns tied with it.
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
from engine.geometry import DEFAULT
from engine.limits import Limits
from engine.solver.book import load_default
from engine.solver.solver import Solver
from engine.tasks import Row, derive_seed

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
#: The families whose search scores columns and picks at random among the best (tied) ones.
TIE_BREAKING = ("alphabeta", "greedy")


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
        chosen = scores[result.column] if scores else None
        tied = [col + 1 for col, score in enumerate(scores) if chosen is not None and score == chosen]
        return {
            "family": self.family,
            "spec": self.spec,
            "budget": self.budget,
            "seed": self.seed,
            "column": result.column + 1,
            "time_ms": round(result.seconds * 1000.0, 3),
            "nodes": result.nodes,
            "column_scores": ",".join("" if s is None else f"{s.value:.4f}" for s in scores),
            "tied": " ".join(map(str, tied)) if self.family in TIE_BREAKING else "",
        }


@dataclass(frozen=True)
class ExactTask:
    """The exact score of every first move (the solver with the opening book)."""

    @property
    def key(self) -> str:
        return "exact"

    def run(self) -> list[Row]:
        solver = Solver(DEFAULT, 64, book=load_default(DEFAULT))
        analysis = solver.analyze(Board(DEFAULT), Limits(seconds=600))
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
    repeats = settings.count(10, 3)
    out: list = [ExactTask()]
    for family, (pattern, budgets) in families.items():
        for budget in budgets:
            for k in range(repeats):
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
        chosen = Counter(r["column"] for r in mine)
        in_centre = chosen[centre]
        table_rows.append(
            [
                spec,
                len(mine),
                ", ".join(f"{col} ({count})" for col, count in sorted(chosen.items(), key=lambda item: -item[1])),
                _tied_label(mine),
                percent_with_interval(in_centre, len(mine)),
                f"{np.mean([exact.get(c, np.nan) for c in chosen.elements()]):+.1f}" if exact else "-",
                round(float(np.mean([r["time_ms"] for r in mine])), 1),
            ]
        )
    exact_line = " ".join(f"{c}:{exact[c]:+d}" for c in sorted(exact)) if exact else "-"
    table = (
        f"Exact score of each first move (column:score, Pons's convention, {'proven' if finished else 'NOT proven'}): "
        f"`{exact_line}`\n\n"
        + markdown_table(
            [
                "agent",
                "runs",
                "columns chosen (runs)",
                "tied best by its own search",
                "centre (95% CI)",
                "mean exact score of the choice",
                "ms per move",
            ],
            table_rows,
            right=[False, True, False, False, True, True, True],
        )
    )
    charts_made = ["centre_by_budget.png"]
    _budget_chart(moves, out / "centre_by_budget.png", centre)
    montecarlo = [r for r in moves if r["family"] == "montecarlo" and r["column_scores"]]
    if montecarlo and exact:
        _rates_chart(montecarlo, exact, out / "montecarlo_vs_exact.png")
        charts_made.insert(0, "montecarlo_vs_exact.png")
    top = max((r["budget"] for r in montecarlo), default=None)
    top_runs = [r for r in montecarlo if r["budget"] == top]
    top_share = np.mean([r["column"] == centre for r in top_runs]) if top_runs else float("nan")
    winners = [c for c in sorted(exact) if exact[c] > 0]
    headline = (
        f"exact values {exact_line}: {_columns_phrase(winners)} {'wins' if len(winners) == 1 else 'win'}; pure "
        f"Monte Carlo with {top:,} playouts opens in the centre in {top_share:.0%} of its {len(top_runs)} runs"
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
    reading = " ".join(
        part
        for part in [
            _exact_sentence(exact),
            "Pure Monte Carlo scores each column by playouts (by default smart ones: win if it can, else block, "
            "else random), not by perfect play: "
            f"at {top or 0:,} playouts {ranking}. Its win rates can pick the centre without ranking the other "
            "columns as perfect play does, and more playouts sharpen the estimate of the random-play value, "
            "not of the exact one.",
            _ties_sentence(moves, centre),
            _astar_sentence(moves, exact),
        ]
        if part
    )
    return Findings(table, charts_made, headline, seed_figures, reading)


def _astar_sentence(moves: list[Row], exact: dict[int, int]) -> str:
    astar = [r for r in moves if r["family"] == "astar"]
    if not astar:
        return ""
    chosen = sorted({r["column"] for r in astar})
    scores = ", ".join(f"{exact[c]:+d}" for c in chosen if c in exact)
    return (
        f"A* opens in {_columns_phrase(chosen)} (exact score {scores}): it plans only a line of its own and does "
        "not weigh the centre as such."
    )


def _columns_phrase(columns: list[int]) -> str:
    if not columns:
        return "no column"
    return ("column " if len(columns) == 1 else "columns ") + ", ".join(map(str, columns))


def _exact_sentence(exact: dict[int, int]) -> str:
    """What the solver's scores say about the first moves, from the rows."""
    if not exact:
        return "The solver's scores are missing from this run."
    wins = [c for c in sorted(exact) if exact[c] > 0]
    draws = [c for c in sorted(exact) if exact[c] == 0]
    losses = [c for c in sorted(exact) if exact[c] < 0]
    parts = [f"{_columns_phrase(wins)} {'wins' if len(wins) == 1 else 'win'} for the first player"]
    if draws:
        parts.append(f"{_columns_phrase(draws)} {'draws' if len(draws) == 1 else 'draw'}")
    if losses:
        parts.append(f"{_columns_phrase(losses)} {'loses' if len(losses) == 1 else 'lose'}")
    return f"The solver proves that on 7x6 {'; '.join(parts)}."


def _tied_runs(mine: list[Row]) -> set[tuple[int, ...]]:
    return {tuple(int(c) for c in str(r["tied"]).split()) for r in mine if r["tied"]}


def _tied_label(mine: list[Row]) -> str:
    """The columns an agent's own search scored as good as its choice (the same in every run), or "-"."""
    ties = _tied_runs(mine)
    return " / ".join(" ".join(map(str, tie)) for tie in sorted(ties)) if ties else "-"


def _ties_sentence(moves: list[Row], centre: int) -> str:
    """Where alpha-beta's first move is a random pick among tied columns, from the rows."""
    tied, single = [], []
    for spec in dict.fromkeys(r["spec"] for r in moves if r["family"] == "alphabeta"):
        mine = [r for r in moves if r["spec"] == spec]
        widest = max((len(tie) for tie in _tied_runs(mine)), default=1)
        share = np.mean([r["column"] == centre for r in mine])
        depth = mine[0]["budget"]
        if widest > 1:
            tied.append(f"depth {depth} ({_tied_label(mine)}: the centre in {share:.0%} of {len(mine)} runs)")
        else:
            single.append(str(depth))
    if not tied:
        return "Alpha-beta's own scores never tie the first moves here: each depth has one best column."
    others = f"; at depth {', '.join(single)} its best column is unique" if single else ""
    return (
        "Alpha-beta picks at random among the columns its own search scores as equally good, and several "
        f"first moves tie at {'; '.join(tied)}{others}. A single run per depth would show a choice among "
        "ties as if it were the agent's preference."
    )


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
    """Left: alpha-beta's first move by depth (share of runs per column, tied columns named);
    right: how often the sampling agents open in the centre, by budget, with 95% intervals."""
    from matplotlib.ticker import NullFormatter

    figure, (left, right) = charts.new_figure(13, 5.2, columns=2)
    searches = [r for r in moves if r["family"] == "alphabeta"]
    depths = sorted({r["budget"] for r in searches})
    colours = charts.pyplot().get_cmap("tab10")
    bottoms = np.zeros(len(depths))
    for col in range(1, DEFAULT.cols + 1):
        shares = np.array([np.mean([r["column"] == col for r in searches if r["budget"] == d]) * 100 for d in depths])
        if shares.any():
            left.bar(range(len(depths)), shares, bottom=bottoms, color=colours(col - 1), label=f"column {col}")
            bottoms += shares
    for index, depth in enumerate(depths):
        label = _tied_label([r for r in searches if r["budget"] == depth])
        if label != "-" and " " in label:
            left.annotate(f"tied: {label}", (index, 101), ha="center", va="bottom", fontsize=7)
    left.set_xticks(range(len(depths)), [str(d) for d in depths])
    left.set_ylim(0, 135)
    charts.decorate(
        left,
        "alpha-beta depth (plies)",
        f"runs choosing the column (%, {_runs(list(Counter(r['budget'] for r in searches).values()))} seeds a depth)",
        "Alpha-beta's first move, over seeds",
    )
    if depths:
        left.legend(fontsize=7, loc="upper center", ncol=4)
    for family in ("montecarlo", "mcts"):
        budgets = sorted({r["budget"] for r in moves if r["family"] == family})
        if not budgets:
            continue
        hits = [[r["column"] == centre for r in moves if r["family"] == family and r["budget"] == b] for b in budgets]
        shares = np.array([np.mean(h) for h in hits]) * 100
        bounds = np.array([wilson(sum(h), len(h)) for h in hits]) * 100
        errors = [shares - bounds[:, 0], bounds[:, 1] - shares]
        right.errorbar(
            budgets,
            shares,
            yerr=errors,
            marker="o",
            capsize=3,
            label=f"{family} ({_runs([len(h) for h in hits])} runs)",
        )
    right.set_xscale("log")
    ticks = sorted({r["budget"] for r in moves if r["family"] in ("montecarlo", "mcts")})
    right.set_xticks(ticks, [f"{b:,}" for b in ticks], fontsize=8, rotation=35, ha="right")
    right.xaxis.set_minor_formatter(NullFormatter())
    right.set_ylim(-5, 105)
    charts.decorate(
        right,
        "budget (playouts or iterations, log scale)",
        f"runs opening in the centre, column {centre} (%, 95% CI)",
        "Sampling agents: how often they open in the centre",
    )
    if right.has_data():
        right.legend(title="agent family", fontsize=8)
    charts.save(figure, path)


def _runs(sizes: list[int]) -> str:
    """How many runs each point counts: one number, or a range when they differ."""
    distinct = sorted(set(sizes))
    if not distinct:
        return "no"
    return str(distinct[0]) if len(distinct) == 1 else f"{distinct[0]}-{distinct[-1]}"


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
