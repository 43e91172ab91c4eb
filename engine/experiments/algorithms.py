"""Study ``algorithms`` (seed 004): A*, minimax, alpha-beta, MCTS and pure Monte Carlo side by side.

Part one is seed 004's efficiency analysis: each algorithm moves in its three
game states (the empty board, a row to block, a more complex middle game) ten
times, and we record the time and the memory of each move. Memory comes in
three kinds, kept apart because they measure different things:

- ``touched_kb``: the memory the move actually uses. The peak of Python
  allocations during the move (tracemalloc: Python objects, A*'s frontier,
  move lists), less the numpy buffers still held when the move ends (the
  MCTS tree, allocated at full capacity by ``np.zeros``, whose pages the
  system commits only when written), plus the bytes the search wrote into
  its own buffers: the alpha-beta transposition table's entries in use and
  the MCTS tree's nodes in use. Arrays that numba kernels allocate inside a
  search are not seen.
- ``reserved_kb``: what the agent's buffers were sized for by its settings,
  written or not: the configured transposition table, the tree's capacity.
- ``rss_peak_mb``: the peak resident size of the process that ran the moves,
  a fresh process per algorithm and state: the interpreter, numpy, numba and
  the compiled kernels included, so it is never small.

Part two is seed 004's adversarial table ("# Results Analysis"): the same
pairings, from seeded openings with both colours.
"""

from __future__ import annotations

import multiprocessing
import resource
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.agents.registry import create_agent
from engine.experiments import charts
from engine.experiments.games import GameTask
from engine.experiments.openings import sample_openings
from engine.experiments.stats import wilson
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.formats import parse_grid
from engine.geometry import DEFAULT
from engine.grade.seed_boards import SEED_004
from engine.tasks import Row, derive_seed

_STATE_NAMES = ("empty", "block a row", "middle game")
#: Seed 004's game states: its text grids (top row first, X moved first), as transcribed in
#: :mod:`engine.grade.seed_boards`.
STATES = {
    f"{k + 1} {name}": str(board.data) for k, (name, board) in enumerate(zip(_STATE_NAMES, SEED_004, strict=True))
}
ALGORITHMS = {
    "A*": "astar",
    "minimax": "minimax:depth=5,eval=seed004",
    "alpha-beta": "alphabeta:depth=8,eval=seed004",
    "MCTS": "mcts:iterations=10000",
    "Monte Carlo": "montecarlo:playouts=7000",
}
QUICK_ALGORITHMS = {"A*": "astar", "minimax": "minimax:depth=3,eval=seed004", "MCTS": "mcts:iterations=300"}
#: Seed 004's adversarial table: (first, second, games, first's wins, second's wins, ties).
SEED_MATCHES = (
    ("random", "random", 10, 7, 3, 0),
    ("random", "A*", 10, 4, 6, 0),
    ("random", "minimax", 10, 0, 10, 0),
    ("random", "MCTS", 3, 0, 3, 0),
    ("A*", "minimax", 5, 0, 5, 0),
    ("A*", "MCTS", 5, 0, 5, 0),
    ("minimax", "MCTS", 5, 0, 5, 0),
)
#: The column (1-based) each of seed 004's algorithms played in its states (read off its grids).
SEED_MOVES = {
    state: {{"MiniMax": "minimax"}.get(agent, agent): column + 1 for agent, column in board.seed_moves}
    for state, board in zip(STATES, SEED_004, strict=True)
}


@dataclass(frozen=True)
class MeasureTask:
    """``runs`` moves of one algorithm in one state, measured in a fresh process."""

    name: str
    spec: str
    state: str
    runs: int
    seed: int

    @property
    def key(self) -> str:
        return f"{self.name}|{self.spec}|{self.state}|{self.runs}|{self.seed}"

    def run(self) -> list[Row]:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(1, mp_context=context) as fresh:
            return fresh.submit(_measure, self).result()


def _measure(task: MeasureTask) -> list[Row]:
    board = parse_grid(STATES[task.state])
    agent = create_agent(task.spec, seed=task.seed)
    agent.choose(board)  # load the compiled kernels outside the measurement
    rows = []
    for run in range(task.runs):
        agent.new_game()  # an empty table, no tree: this move's writes are all that is counted
        tracemalloc.start()
        result = agent.choose(board)
        _, python_peak = tracemalloc.get_traced_memory()
        held = _numpy_bytes_held(tracemalloc.take_snapshot())
        tracemalloc.stop()
        written, reserved = _buffers(agent, result)
        rows.append(
            {
                "algorithm": task.name,
                "spec": task.spec,
                "state": task.state,
                "run": run,
                "column": result.column + 1,
                "time_ms": round(result.seconds * 1000.0, 3),
                "nodes": result.nodes,
                "python_kb": round(python_peak / 1024, 1),
                "numpy_held_kb": round(held / 1024, 1),
                "written_kb": round(written / 1024, 1),
                "touched_kb": round((python_peak - held + written) / 1024, 1),
                "reserved_kb": round(reserved / 1024, 1),
                "rss_peak_mb": round(_peak_rss_mb(), 1),
            }
        )
    agent.close()
    return rows


def _peak_rss_mb() -> float:
    """This process's peak resident size. Linux keeps ``ru_maxrss`` across the exec of a spawned
    child (it would report the parent's peak), so read the address space's own high-water mark."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _numpy_bytes_held(snapshot: tracemalloc.Snapshot) -> int:
    """Bytes of the numpy buffers allocated during the move and still held at its end."""
    held = snapshot.filter_traces([tracemalloc.DomainFilter(True, np.lib.tracemalloc_domain)])
    return sum(stat.size for stat in held.statistics("filename"))


def _buffers(agent, result) -> tuple[int, int]:
    """``(bytes written, bytes reserved)`` of the agent's own buffers: the alpha-beta
    transposition table (entries in use, its configured size), the MCTS tree (nodes in
    use, its capacity). Other agents keep no buffer."""
    from engine.agents import mcts as mcts_agent
    from engine.kernels.mcts import NODE_BYTES

    if isinstance(agent, mcts_agent.MctsAgent):
        return int(result.info.get("tree", 0)) * NODE_BYTES, agent.max_nodes * NODE_BYTES
    state = getattr(agent, "_search_state", None)
    table = None if state is None else state.ctx.table
    if table is None or not len(table):
        return 0, 0
    in_use = int(np.count_nonzero(table.view(np.uint8).reshape(len(table), -1).any(axis=1)))
    return in_use * table.itemsize, table.nbytes


def _players(settings: Settings) -> dict[str, str]:
    return {"random": "random", **(QUICK_ALGORITHMS if settings.quick else ALGORITHMS)}


def tasks(settings: Settings) -> list:
    algorithms = QUICK_ALGORITHMS if settings.quick else ALGORITHMS
    states = list(STATES)[2:] if settings.quick else list(STATES)
    runs = settings.count(10, 2)
    out: list = [
        MeasureTask(name, spec, state, runs, derive_seed(settings.seed, name, state))
        for state in states
        for name, spec in algorithms.items()
    ]
    players = _players(settings)
    games = 2 if settings.quick else 10
    openings = sample_openings(DEFAULT, (games + 1) // 2, derive_seed(settings.seed, "algorithms"))
    for first, second, *_ in SEED_MATCHES:
        if first in players and second in players:
            for k in range(games):
                seed = derive_seed(settings.seed, first, second, k)
                out.append(GameTask(players[first], players[second], openings[k // 2], k % 2 == 0, seed))
    return out


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    measures = [r for r in rows if "algorithm" in r]
    games = [r for r in rows if "winner" in r]
    names = list(dict.fromkeys(r["algorithm"] for r in measures))
    states = list(dict.fromkeys(r["state"] for r in measures))
    table_rows = []
    for state in states:
        for name in names:
            mine = [r for r in measures if r["state"] == state and r["algorithm"] == name]
            columns = sorted({r["column"] for r in mine})
            table_rows.append(
                [
                    state,
                    name,
                    mine[0]["spec"],
                    "/".join(map(str, columns)),
                    round(float(np.mean([r["time_ms"] for r in mine])), 2),
                    round(float(np.mean([r["touched_kb"] for r in mine])), 1),
                    round(float(np.mean([r["reserved_kb"] for r in mine])), 1),
                    max(r["rss_peak_mb"] for r in mine),
                ]
            )
    table = markdown_table(
        [
            "state",
            "algorithm",
            "spec",
            "column(s)",
            "ms per move",
            "memory touched (KB)",
            "buffers reserved (KB)",
            "process peak RSS (MB)",
        ],
        table_rows,
        right=[False, False, False, True, True, True, True, True],
    )
    adversarial = _adversarial(games, settings)
    _scatter(measures, states, names, out / "time_memory.png")
    moves = {state: {row[1]: row[3] for row in table_rows if row[0] == state} for state in states}
    headline = "; ".join(
        f"state {state}: " + ", ".join(f"{name} plays {column}" for name, column in chosen.items())
        for state, chosen in moves.items()
    )
    seed_rows = [[f"{a} vs {b}", n, wa, wb, t] for a, b, n, wa, wb, t in SEED_MATCHES]
    seed_moves = "; ".join(
        f"state {state}: " + ", ".join(f"{name} {col}" for name, col in played.items())
        for state, played in SEED_MOVES.items()
    )
    seed_figures = (
        "Seed 004's adversarial table (its own agents, from the empty board, the first named always moving "
        "first):\n\n"
        + markdown_table(["match", "games", "first won", "second won", "ties"], seed_rows, right=[False] + [True] * 4)
        + "\n\nIts scatter plots show A* fastest and smallest, MCTS the most memory, minimax the most time. "
        f"Its columns (1-based): {seed_moves}."
    )
    reading = " ".join(
        [
            _time_sentence(measures, names),
            _block_sentence(measures, states),
            _memory_sentence(measures, names),
            _random_astar_sentence(games, settings),
        ]
    )
    extra = [f"### Adversarial table (ours: {_games_label(settings)})\n\n{adversarial}"]
    return Findings(table, ["time_memory.png"], headline, seed_figures, reading, extra)


def _time_sentence(measures: list[Row], names: list[str]) -> str:
    mean_ms = {name: float(np.mean([r["time_ms"] for r in measures if r["algorithm"] == name])) for name in names}
    fastest = min(mean_ms, key=lambda name: mean_ms[name])
    slowest = max(mean_ms, key=lambda name: mean_ms[name])
    return (
        f"Over the states measured, {fastest} is the fastest ({mean_ms[fastest]:.2f} ms a move on average) and "
        f"{slowest} the slowest ({mean_ms[slowest]:.1f} ms)."
    )


def _block_sentence(measures: list[Row], states: list[str]) -> str:
    """Which columns block in the states with a threat (from the rules), and who played them."""
    from engine.experiments.seed_boards import tactics

    parts = []
    for state in states:
        board = parse_grid(STATES[state])
        found = tactics(board.geometry, board.current, board.mask ^ board.current)
        if found.wins or not found.blocks:
            continue
        blocks = "/".join(str(c + 1) for c in found.blocks)
        ours = {r["algorithm"] for r in measures if r["state"] == state and r["column"] - 1 in found.blocks}
        missed = sorted({r["algorithm"] for r in measures if r["state"] == state} - ours)
        seed = SEED_MOVES.get(state, {})
        seed_missed = sorted(name for name, col in seed.items() if col - 1 not in found.blocks)
        ours_said = f"our {_names(missed)} played elsewhere in some run" if missed else "all of ours played it"
        seed_said = f"seed 004's {_names(seed_missed)} did not" if seed_missed else "all of seed 004's did"
        parts.append(f"In state {state} only column {blocks} stops the opponent's win; {ours_said}, {seed_said}")
    if not parts:
        return ""
    return (
        "A* plans only a line of its own and never looks at a reply. "
        + ". ".join(parts)
        + ". Minimax without pruning pays for every node of its fixed depth; alpha-beta goes deeper with "
        "fewer nodes."
    )


def _names(names: list[str]) -> str:
    return ", ".join(names)


def _memory_sentence(measures: list[Row], names: list[str]) -> str:
    touched = {name: float(np.mean([r["touched_kb"] for r in measures if r["algorithm"] == name])) for name in names}
    reserved = {name: float(np.mean([r["reserved_kb"] for r in measures if r["algorithm"] == name])) for name in names}
    most = max(touched, key=lambda name: touched[name])
    least = min(touched, key=lambda name: touched[name])
    buffered = [
        f"{name}'s moves touch {touched[name]:,.0f} KB of the {reserved[name]:,.0f} KB its settings reserve"
        for name in names
        if reserved[name] > 0
    ]
    return (
        "Memory here is what a move touches (its Python allocations and the part of its own buffers it "
        "writes), not what its settings reserve: "
        + ("; ".join(buffered) + ". " if buffered else "")
        + f"By that measure {most} uses the most ({touched[most]:,.1f} KB a move on average) and {least} the "
        f"least ({touched[least]:,.1f} KB). The peak RSS is dominated by the interpreter, numpy and the "
        "compiled kernels, so it barely tells the algorithms apart."
    )


def _random_astar_sentence(games: list[Row], settings: Settings) -> str:
    """Ours against seed 004's random vs A*, with the intervals of both."""
    players = _players(settings)
    if "A*" not in players:
        return ""
    mine = [g for g in games if (g["red"], g["yellow"]) == (players["random"], players["A*"])]
    if not mine:
        return ""
    ours = sum(g["winner"] == "red" for g in mine)
    seed_games, seed_wins = next((n, wa) for a, b, n, wa, *_ in SEED_MATCHES if (a, b) == ("random", "A*"))
    low, high = wilson(ours, len(mine))
    seed_low, seed_high = wilson(seed_wins, seed_games)
    overlap = low <= seed_high and seed_low <= high
    return (
        f"Random beat our A* in {ours} of {len(mine)} games (95% CI {low:.0%}-{high:.0%}); seed 004's random "
        f"beat its A* in {seed_wins} of {seed_games} ({seed_low:.0%}-{seed_high:.0%}), "
        f"{'so with so few games the two intervals overlap' if overlap else 'and the intervals do not overlap'}. "
        "Our A* plans the shortest line of its own and takes a win in one whenever it has one; a random "
        "opponent rarely completes a line it does not block. The seed's A* expands the moves of both players "
        "and stops at the first finished game it reaches, whoever has won it, and its random player always "
        "moved first from the empty board, where ours play both colours from seeded openings."
    )


def _games_label(settings: Settings) -> str:
    return f"{2 if settings.quick else 10} games a pairing from seeded 2-ply openings, both colours"


def _adversarial(games: list[Row], settings: Settings) -> str:
    players = _players(settings)
    rows = []
    for first, second, *_ in SEED_MATCHES:
        if first not in players or second not in players:
            continue
        mine = [g for g in games if (g["red"], g["yellow"]) == (players[first], players[second])]
        wins = sum(g["winner"] == "red" for g in mine)
        losses = sum(g["winner"] == "yellow" for g in mine)
        rows.append([f"{first} vs {second}", len(mine), wins, losses, len(mine) - wins - losses])
    return markdown_table(
        ["match", "games", "first named won", "second named won", "ties"], rows, right=[False] + [True] * 4
    )


def _scatter(measures: list[Row], states: list[str], names: list[str], path: Path) -> None:
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    figure, axes = charts.new_figure(5 * len(states), 4.8, columns=len(states))
    for axis, state in zip(axes, states, strict=True):
        for name in names:
            mine = [r for r in measures if r["state"] == state and r["algorithm"] == name]
            memory = [max(r["touched_kb"], 0.1) for r in mine]
            axis.scatter([max(r["time_ms"], 1e-3) for r in mine], memory, label=name, alpha=0.7)
        axis.set_xscale("log")
        axis.set_yscale("log")
        for scale in (axis.xaxis, axis.yaxis):  # 1, 2 and 5 of each decade, written plainly (no 10^x)
            scale.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
            scale.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
            scale.set_minor_formatter(NullFormatter())
        charts.decorate(
            axis,
            "time per move (ms, log scale)",
            "memory touched by the move (KB, log scale)",
            f"Game state {state}",
        )
        axis.legend(fontsize=8)
    charts.save(figure, path)


STUDY = Study(
    name="algorithms",
    summary="A*, minimax, alpha-beta, MCTS, Monte Carlo on seed 004's states: time, memory, adversarial table",
    seeds="004",
    tasks=tasks,
    summarize=summarize,
    charts=("time_memory.png",),
)
