"""Study ``cutoff-depth`` (seeds 000, 001): how strength and time change with the cut-off depth.

Seed 000's Task 4: "Modify your Minimax Search with Alpha-Beta Pruning to cut
off search at a specified depth and use the heuristic evaluation function.
Experiment with different cutoff values." (seed 001 asks the same). Its agent
is alpha-beta cut off at a depth, scoring the positions there with its
weighted windows (weights mode 1: 0.9 / 0.6 / 0.3). Here
``alphabeta:depth=D,eval=seed000,mode=1`` for D = 1 ... 8, three ways:

- on seed 000's own test boards (the eight where it looks for a win and the
  one where it must block, read as written, see :mod:`.seed_boards`): the
  plain search of the seeds (:func:`~engine.agents.search.plain_alphabeta`:
  no table, no deepening, centre-first order as seed 000's ``actions``), its
  move against the rules' answer, and its CPU time per move, which seed 000
  printed for its cut-off of 5;
- in games on 7x6 against seed 000's other cut-off agent (depth 5, weights
  mode 2), from seeded two-move openings with both colours;
- on the labelled 7x6 positions (:mod:`.labelled`): the share of optimal
  moves, and the time and nodes per move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.agents.search import plain_alphabeta
from engine.experiments import charts, labelled
from engine.experiments.games import GameTask
from engine.experiments.openings import sample_openings
from engine.experiments.seed_boards import read_leniently, tactics
from engine.experiments.stats import cpu_seconds_per_call, wilson
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.geometry import DEFAULT
from engine.grade.seed_boards import SEED_000
from engine.tasks import Row, derive_seed

DEPTHS = (1, 2, 3, 4, 5, 6, 7, 8)
QUICK_DEPTHS = (1, 3)
#: Seed 000's other cut-off agent (its game_heur): depth 5, weights mode 2.
OPPONENT = "alphabeta:depth=5,eval=seed000,mode=2"
#: The seed's own cut-off, and its CPU times on its boards at that cut-off ("CPU times: total"
#: of In [144], [145], [149], [151], [152], [153], [154]: 375 to 406 ms; In [149] used 42).
SEED_CUTOFF = 5
SEED_CPU_MS = (375, 406)
#: Seed 000's boards of its cut-off experiment: where it looks for a win, and where it must block.
BOARD_PURPOSES = ("win", "block")


def spec(depth: int) -> str:
    return f"alphabeta:depth={depth},eval=seed000,mode=1"


def _depths(settings: Settings) -> tuple[int, ...]:
    return QUICK_DEPTHS if settings.quick else DEPTHS


@dataclass(frozen=True)
class SeedBoardCutoff:
    """The seeds' plain cut-off search on one of seed 000's boards at one depth: its move, time, nodes."""

    board: str  # the SeedBoard's label
    depth: int

    @property
    def key(self) -> str:
        return f"board|{self.board}|{self.depth}"

    def run(self) -> Row:
        source = next(b for b in SEED_000 if b.label == self.board)
        position = read_leniently(source)
        g, mover, mask = position.geometry, position.mover, position.mover | position.opponent
        found = tactics(g, mover, position.opponent)
        right = found.wins or found.blocks
        result = plain_alphabeta(mover, mask, g, self.depth, "seed000/1", "center")  # compiles, once
        seconds = cpu_seconds_per_call(
            lambda: plain_alphabeta(mover, mask, g, self.depth, "seed000/1", "center"), seconds=0.06
        )
        return {
            "part": "seed board",
            "board": self.board,
            "depth": self.depth,
            "column": result.column + 1,
            "right": " ".join(str(c + 1) for c in right),
            "found": result.column in right,
            "empty": g.cells - mask.bit_count(),
            "cpu_ms": seconds * 1000.0,
            "nodes": result.nodes,
        }


@dataclass(frozen=True)
class DepthGame(GameTask):
    """A game of the depth sweep (its rows say ``part=game``)."""

    part: str = "game"


def tasks(settings: Settings) -> list:
    depths = _depths(settings)
    boards = [b.label for b in SEED_000 if b.purpose in BOARD_PURPOSES]
    out: list = [SeedBoardCutoff(board, depth) for depth in depths for board in boards]
    games = settings.count(20, 2)
    openings = sample_openings(DEFAULT, (games + 1) // 2, derive_seed(settings.seed, "cutoff-depth"))
    for depth in depths:
        for k in range(games):
            seed = derive_seed(settings.seed, "cutoff-depth", depth, k)
            out.append(DepthGame(spec(depth), OPPONENT, openings[k // 2], k % 2 == 0, seed))
    positions = [p for p in labelled.load() if (p.cols, p.rows) == (7, 6)]
    if settings.quick:
        positions = positions[:: max(1, len(positions) // 8)]
    for depth in depths:
        out += [labelled.MoveQualityTask(spec(depth), chunk) for chunk in labelled.chunks(positions, 40)]
    return out


# -- the figures ------------------------------------------------------------------------------------
@dataclass
class Depth:
    """Every figure of one cut-off depth."""

    depth: int
    boards: list[Row]
    games: list[Row]
    moves: list[Row]

    @property
    def found(self) -> int:
        return sum(bool(r["found"]) for r in self.boards)

    @property
    def board_ms(self) -> float:
        return float(np.mean([r["cpu_ms"] for r in self.boards]))

    @property
    def points(self) -> float:
        return sum({"red": 1.0, "draw": 0.5, "yellow": 0.0}[r["winner"]] for r in self.games)

    @property
    def score(self) -> float:
        return self.points / len(self.games)

    @property
    def optimal(self) -> int:
        return sum(bool(r["optimal"]) for r in self.moves)

    @property
    def ms(self) -> float:
        return float(np.mean([r["time_ms"] for r in self.moves]))

    @property
    def nodes(self) -> float:
        return float(np.mean([r["nodes"] for r in self.moves]))


def by_depth(rows: list[Row], settings: Settings) -> list[Depth]:
    out = []
    for depth in _depths(settings):
        agent = spec(depth)
        out.append(
            Depth(
                depth,
                [r for r in rows if r.get("part") == "seed board" and r["depth"] == depth],
                [r for r in rows if r.get("part") == "game" and r["red"] == agent],
                [r for r in rows if r.get("agent") == agent],
            )
        )
    return out


def growth(depths: list[Depth]) -> float:
    """The factor of nodes per move that one more ply costs, from the first depth to the last (a geometric
    mean): the effective branching factor of the search as the agent runs it."""
    first, last = depths[0], depths[-1]
    if first.nodes <= 0 or last.depth == first.depth:
        return math.nan
    return (last.nodes / first.nodes) ** (1.0 / (last.depth - first.depth))


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    depths = by_depth(rows, settings)
    table_rows = []
    for d in depths:
        games, moves = len(d.games), len(d.moves)
        low, high = wilson(d.points, games)
        olow, ohigh = wilson(d.optimal, moves)
        table_rows.append(
            [
                d.depth,
                f"{d.found} of {len(d.boards)}",
                f"{d.board_ms:.3f}",
                games,
                f"{d.score:.0%} ({low:.0%}-{high:.0%})",
                moves,
                f"{d.optimal / moves:.0%} ({olow:.0%}-{ohigh:.0%})",
                f"{d.ms:.1f}",
                f"{d.nodes:,.0f}",
            ]
        )
    table = markdown_table(
        [
            "cut-off depth",
            "seed 000's boards: win or block played",
            "CPU ms per move there (plain search)",
            "games (7x6)",
            "score against cut-off 5, mode 2 (95% CI)",
            "labelled 7x6 positions",
            "optimal moves (95% CI)",
            "ms per move",
            "nodes per move",
        ],
        table_rows,
        right=[True] * 9,
    )
    _chart(depths, out / "cutoff_depth.png")
    return Findings(table, ["cutoff_depth.png"], _headline(depths), _seed_figures(), _reading(depths))


def _headline(depths: list[Depth]) -> str:
    first, last = depths[0], depths[-1]
    return (
        f"from cut-off {first.depth} to {last.depth}, the score against `{OPPONENT}` on 7x6 goes from "
        f"{first.score:.0%} to {last.score:.0%}, optimal moves from {first.optimal / len(first.moves):.0%} to "
        f"{last.optimal / len(last.moves):.0%}, and the time per move from {first.ms:.1f} to {last.ms:.1f} ms"
    )


def _reading(depths: list[Depth]) -> str:
    first, last = depths[0], depths[-1]
    boards = len(first.boards)
    always = [d.depth for d in depths if d.found == boards]
    missed = [d for d in depths if d.found < boards]
    board_sentence = (
        f"On seed 000's {boards} boards every cut-off from {always[0]} on plays the win or the block the rules "
        f"call for"
        + (
            "."
            if not missed
            else f"; below that it misses {', '.join(f'{boards - d.found} at {d.depth}' for d in missed)}."
        )
        if always
        else f"On seed 000's {boards} boards no cut-off here plays every win and block."
    )
    seed = next((d for d in depths if d.depth == SEED_CUTOFF), None)
    empty = max(r["empty"] for r in first.boards)
    timing = (
        f" At the seed's cut-off of {SEED_CUTOFF} the plain search takes {seed.board_ms:.3f} ms of CPU a move "
        f"there, against the seed's {SEED_CPU_MS[0]} to {SEED_CPU_MS[1]} ms in its Python (its cells timed "
        f"drawing the board twice with matplotlib too). These boards have at most {empty} empty cells, so a "
        "deeper cut-off adds little there."
        if seed
        else ""
    )
    best = max(depths, key=lambda d: d.score)
    factor = growth(depths)
    pays = "the deeper search pays" if last.score > first.score else "the deeper search does not score better"
    return (
        f"{board_sentence}{timing} In games {pays}: from cut-off {first.depth} to {last.depth} "
        f"the score against the seed's cut-off 5 (weights mode 2) goes from {first.score:.0%} to {last.score:.0%} "
        f"(best {best.score:.0%}, at {best.depth}; the intervals are wide with few games), and the share of "
        f"optimal moves on the labelled positions from {first.optimal / len(first.moves):.0%} to "
        f"{last.optimal / len(last.moves):.0%}. Each extra ply multiplies the nodes of a move by {factor:.1f} "
        f"on average (from {first.nodes:,.0f} to {last.nodes:,.0f}); the time per move goes from {first.ms:.1f} "
        f"to {last.ms:.1f} ms"
        + (
            ": strength is bought with time that grows geometrically with depth."
            if last.ms > 4 * first.ms
            else " (at these depths a move's fixed costs weigh more than its nodes)."
        )
    )


def _seed_figures() -> str:
    return markdown_table(
        ["source", "cut-off", "boards", "CPU time per move", "result"],
        [
            [
                "seed 000",
                f"{SEED_CUTOFF} (42 on one board)",
                "its 4x4 test boards",
                f"{SEED_CPU_MS[0]} to {SEED_CPU_MS[1]} ms",
                "the win or the block on the 8 boards it ran at 5; at 42, a move that wins a turn later",
            ],
            ["seed 000", "10 against 5 (mode 1 against mode 2)", "5x5, 4x4", "-", "cut-off 10 won all 3 games"],
            ["seed 001", "asked, left empty", "-", "-", "-"],
        ],
        right=[False] * 5,
    )


def _chart(depths: list[Depth], path: Path) -> None:
    figure, (strength, cost) = charts.new_figure(13, 5.0, columns=2)
    x = [d.depth for d in depths]
    for values, intervals, label, marker in (
        (
            [d.score for d in depths],
            [wilson(d.points, len(d.games)) for d in depths],
            "score in 7x6 games against cut-off 5 (mode 2)",
            "o",
        ),
        (
            [d.optimal / len(d.moves) for d in depths],
            [wilson(d.optimal, len(d.moves)) for d in depths],
            "optimal moves (labelled 7x6 positions)",
            "s",
        ),
    ):
        centre = np.array(values) * 100
        low = centre - np.array([i[0] for i in intervals]) * 100
        high = np.array([i[1] for i in intervals]) * 100 - centre
        strength.errorbar(x, centre, yerr=[low, high], marker=marker, capsize=3, label=label)
    strength.set_ylim(0, 100)
    strength.set_xticks(x)
    charts.decorate(strength, "cut-off depth (plies)", "percent (95% Wilson interval)", "Strength")
    strength.legend(fontsize=8, loc="lower right")
    cost.plot(x, [d.ms for d in depths], marker="o", label="ms per move, labelled 7x6 positions (our agent)")
    cost.plot(x, [d.board_ms for d in depths], marker="s", label="CPU ms per move, seed 000's 4x4 boards (plain)")
    cost.axhline(SEED_CPU_MS[0], color="black", linestyle=":", label=f"seed 000 at cut-off {SEED_CUTOFF}: ~0.4 s")
    cost.set_yscale("log")
    cost.set_xticks(x)
    charts.decorate(cost, "cut-off depth (plies)", "milliseconds per move (log scale)", "Time")
    cost.legend(fontsize=8, loc="upper left", bbox_to_anchor=(0.0, 0.93))
    figure.suptitle(
        "Alpha-beta with seed 000's evaluation (mode 1), cut off at depth D: alphabeta:depth=D,eval=seed000,mode=1"
    )
    charts.save(figure, path)


STUDY = Study(
    name="cutoff-depth",
    summary="seed 000's cut-off experiment: strength and time per move against the cut-off depth",
    seeds="000, 001",
    tasks=tasks,
    summarize=summarize,
    charts=("cutoff_depth.png",),
    question='"Modify your Minimax Search with Alpha-Beta Pruning to cut off search at a specified depth and use '
    'the heuristic evaluation function. Experiment with different cutoff values." (Task 4, Cutting off search)',
)
