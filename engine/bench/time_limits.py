"""``bench time-limits``: do agents keep their time limits, with and without a competing process?

For each agent spec with a time limit, the agent is prepared (kernels loaded,
as the game does at start-up), then asked for moves in ``--positions``
positions from seeded random games. The wall time of each whole
``choose()`` call is compared with the limit ``T``: the figures are the
largest ``wall / T`` and how far past ``T`` that move came back (ms), the
median wall time and how many moves took longer than ``T + 50 ms``. With
``--load N`` the same runs again beside N busy processes (one spinning
Python loop each), as when other programs use the machine. Nothing is asserted: the machine's load decides the figures.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from engine.agents.registry import create_agent, presets
from engine.bench.search import random_positions
from engine.board import Board
from engine.console import emit
from engine.geometry import Geometry
from engine.validate import int_arg

#: The time-limited agents at a few limits (alpha-beta without a depth limit, or it would finish early).
PLAIN_SPECS = tuple(
    f"{agent}:{'depth=81,' if agent == 'alphabeta' else ''}seconds={t}"
    for agent in ("alphabeta", "mcts", "montecarlo")
    for t in (0.1, 0.3, 1)
)
#: Slack the design allows past the limit.
SLACK = 0.05
BUSY_LOOP = "while True: pass"


def add_parser(benches) -> None:
    parser = benches.add_parser(
        "time-limits", help="wall time of moves against their time limits, with and without load"
    )
    parser.add_argument(
        "specs", nargs="*", metavar="AGENT", help="agent specs with a seconds= (default: presets and more)"
    )
    parser.add_argument("--positions", type=int_arg(1, 10_000), default=20, help="positions per agent (default 20)")
    parser.add_argument("--load", type=int_arg(0, 64), default=1, help="busy processes in the loaded run (default 1)")
    parser.add_argument("--cols", type=int_arg(4, 9), default=7, help="board columns (default 7)")
    parser.add_argument("--rows", type=int_arg(4, 9), default=6, help="board rows (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.set_defaults(run=run)


def run(args) -> int:
    geometry = Geometry(args.cols, args.rows)
    boards = random_positions(args.positions, args.seed, geometry)
    emit(f"{len(boards)} positions on {geometry}; wall time of choose() against the limit T (on a busy machine)")
    # By default every preset (those without a clock are skipped) and the plain agents.
    for spec in args.specs or [*(preset.name for preset in presets()), *PLAIN_SPECS]:
        agent = create_agent(spec, seed=args.seed)
        limit = getattr(agent, "seconds", None)
        if limit is None:
            emit(f"{spec}: no time limit, skipped")
            continue
        agent.prepare(geometry)
        for load in sorted({0, args.load}):
            with busy(load):
                report(spec, limit, load, measure(agent, boards))
        agent.close()
    return 0


def measure(agent, boards: list[Board]) -> list[tuple[float, float]]:
    """(wall seconds of choose(), the seconds the result reports) for each board."""
    out = []
    for board in boards:
        agent.new_game()
        start = time.perf_counter()
        result = agent.choose(board)
        out.append((time.perf_counter() - start, result.seconds))
    return out


def report(spec: str, limit: float, load: int, times: list[tuple[float, float]]) -> None:
    walls = [wall for wall, _ in times]
    worst = max(walls)
    emit(
        f"{spec:<28} load {load}: T {limit:g} s, max wall {worst:.3f} s = {worst / limit:.3f} T "
        f"({1000 * (worst - limit):+.0f} ms), "
        f"median {statistics.median(walls):.3f} s, over T+50ms {sum(w > limit + SLACK for w in walls)}/{len(walls)}, "
        f"max reported {max(reported for _, reported in times):.3f} s"
    )


@contextmanager
def busy(count: int) -> Iterator[None]:
    """``count`` spinning processes for the duration of the block."""
    spinners = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(count)]
    try:
        time.sleep(0.2 if spinners else 0)  # let them start spinning
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
