"""``bench montecarlo``: speed and strength of the Monte Carlo agents.

Four parts, each selectable by name (all of them by default):

- ``speed``: playouts per second in the kernel (random and smart policies)
  and through the ``montecarlo`` agent, ``mcts`` iterations per second, on
  7x6 and 8x8; and how long a search takes to return after ``stop``;
- ``first-move``: the move each agent picks on the empty 7x6 board after 1, 5
  and 20 seconds (perfect play says the centre column, 4);
- ``opponents``: 20-game matches of ``mcts:seconds=1`` against other agents,
  alpha-beta at depths 4, 6 and 8 by default (``--opponent`` to change them);
- ``versus``: ``montecarlo`` against ``mcts`` with the same time per move.

Matches alternate who moves first and are seeded, so they replay exactly
when the agents use iteration budgets (time budgets depend on the machine).
"""

from __future__ import annotations

import argparse
import resource
import threading
import time

from numba import njit

from engine.agents.base import Agent
from engine.agents.registry import create_agent, create_computer_agent
from engine.bench.timing import rate
from engine.board import Board
from engine.console import emit
from engine.errors import EngineError
from engine.geometry import Geometry
from engine.kernels.montecarlo import ROLLOUTS, playout
from engine.kernels.rng import make_rng
from engine.limits import Limits
from engine.match import play_match
from engine.stop import StopFlag
from engine.validate import MAX_GAMES, MAX_SECONDS, float_arg, int_arg

PARTS = ("speed", "first-move", "opponents", "versus")
BOARDS = (Geometry(7, 6, 4), Geometry(8, 8, 4))
AGENT_SPECS = ("montecarlo:rollout=random", "montecarlo:rollout=smart", "mcts:rollout=random", "mcts:rollout=smart")
DEFAULT_OPPONENTS = tuple(f"alphabeta:depth={depth},eval=threats" for depth in (4, 6, 8))


@njit(cache=True, nogil=True)
def _many_playouts(current, mask, g, rng, policy, count):
    total = 0
    for _ in range(count):
        total += playout(current, mask, g, rng, policy)
    return total


_DESCRIPTION = """\
Speed and strength of the Monte Carlo agents, in parts (default: all):
  speed       playouts/s (kernel and agent), mcts iterations/s on 7x6 and 8x8, stop latency
  first-move  the move montecarlo and mcts pick on the empty 7x6 board after each of --first-move-seconds
  opponents   --games games of mcts:seconds=T (--move-seconds T) against each --opponent
              (default alphabeta:depth=4/6/8,eval=threats)
  versus      --games games of montecarlo:seconds=T against mcts:seconds=T
Figures depend on the machine (and on what else runs on it)."""


def add_parser(benches) -> None:
    parser = benches.add_parser(
        "montecarlo",
        help="Monte Carlo agents: playout and iteration rates, best first move, matches",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("parts", nargs="*", metavar="PART", help=f"parts to run: {', '.join(PARTS)} (default all)")
    parser.add_argument(
        "--seconds", type=float_arg(0.001, MAX_SECONDS), default=2.0, help="time per speed measurement (default 2)"
    )
    parser.add_argument(
        "--first-move-seconds",
        "--times",
        dest="first_move_seconds",
        type=float_arg(0.001, MAX_SECONDS),
        nargs="+",
        default=[1.0, 5.0, 20.0],
        help="first-move thinking seconds (default 1 5 20; --times is its older name)",
    )
    parser.add_argument("--games", type=int_arg(1, MAX_GAMES), default=20, help="games per match (default 20)")
    parser.add_argument(
        "--move-seconds",
        "--time",
        dest="move_seconds",
        type=float_arg(0.001, MAX_SECONDS),
        default=1.0,
        metavar="T",
        help="seconds per move in matches (default 1; --time is its older name)",
    )
    parser.add_argument(
        "--seeds", type=int_arg(1, 1000), default=1, help="first-move seeds 1..N for each time (default 1)"
    )
    parser.add_argument(
        "--first-move-agent", action="append", metavar="AGENT", help="agents of the first-move part (default both)"
    )
    parser.add_argument(
        "--opponent",
        action="append",
        metavar="AGENT",
        help="an opponent of mcts in the opponents part (repeatable; default alphabeta at depths 4, 6 and 8)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the matches (default 1)")
    parser.set_defaults(run=run)


def run(args) -> int:
    parts = args.parts or PARTS
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise EngineError(f"unknown part {unknown[0]!r}: choose from {', '.join(PARTS)}")
    if "opponents" in parts:
        for opponent in args.opponent or ():
            create_computer_agent(opponent).close()  # a bad spec is one line now, not after minutes of the other parts
    if "speed" in parts:
        speed(args.seconds)
    if "first-move" in parts:
        first_move(args.first_move_seconds, args.seeds, args.first_move_agent or ["montecarlo", "mcts"])
    if "opponents" in parts:
        for opponent in args.opponent or DEFAULT_OPPONENTS:
            match(f"mcts:seconds={args.move_seconds:g}", opponent, args.games, args.seed)
    if "versus" in parts:
        match(f"montecarlo:seconds={args.move_seconds:g}", f"mcts:seconds={args.move_seconds:g}", args.games, args.seed)
    emit(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB")
    return 0


# -- speed -----------------------------------------------------------------------------
def speed(seconds: float) -> None:
    for geometry in BOARDS:
        size = f"{geometry.cols}x{geometry.rows}"
        for name, policy in ROLLOUTS.items():
            emit(f"{size} kernel {name} playouts/s {kernel_rate(geometry, policy, seconds):,.0f}")
        for spec in AGENT_SPECS:
            agent = create_agent(f"{spec},seconds={seconds:g},seed=1")
            agent.choose(Board(geometry), Limits(stop=_stopped()))  # compile outside the measurement
            result = agent.choose(Board(geometry))
            unit = "iterations" if spec.startswith("mcts") else "playouts"
            emit(f"{size} agent {spec} {unit}/s {result.nodes / result.seconds:,.0f}")
    for name in ("montecarlo", "mcts"):
        latencies = [stop_latency(create_agent(f"{name}:seconds=3600,seed={seed}")) for seed in range(5)]
        emit(f"{name} stop latency: max {max(latencies):.1f} ms over {len(latencies)} stops")


def kernel_rate(geometry: Geometry, policy: int, seconds: float) -> float:
    """Playouts per second from the empty board, in the kernel alone."""
    empty, rng = geometry.to_kernel(0), make_rng(1)

    def batch(games: int = 20_000) -> int:
        _many_playouts(empty, empty, geometry.kernel, rng, policy, games)
        return games

    games, elapsed = rate(batch, seconds)
    return games / elapsed


def stop_latency(agent: Agent, after: float = 0.3) -> float:
    """Milliseconds from ``stop.set()`` to the answer, for a search stopped after ``after`` seconds."""
    board = Board()
    agent.choose(board, Limits(stop=_stopped()))  # compile first
    stop, done = StopFlag(), []

    def search() -> None:
        agent.choose(board, Limits(stop=stop))
        done.append(time.perf_counter())

    thread = threading.Thread(target=search)
    thread.start()
    time.sleep(after)
    start = time.perf_counter()
    stop.set()
    thread.join()
    return (done[0] - start) * 1000.0


def _stopped() -> StopFlag:
    stop = StopFlag()
    stop.set()
    return stop


# -- the best first move --------------------------------------------------------------------
def first_move(times: list[float], seeds: int, specs: list[str]) -> None:
    """Each agent's first move on the empty board at each time, for seeds 1..``seeds``, then a tally."""
    for seconds in times:
        for name in specs:
            columns = []
            for seed in range(1, seeds + 1):
                joiner = "," if ":" in name else ":"
                agent = create_agent(f"{name}{joiner}seconds={seconds:g},seed={seed}")
                result = agent.choose(Board())
                columns.append(result.column + 1)
                emit(f"first move {agent.spec}: column {result.column + 1} {result.stats_line()}")
            tally = ", ".join(f"column {col}: {columns.count(col)}" for col in sorted(set(columns)))
            emit(f"first move {name} at {seconds:g} s over {seeds} seeds: {tally}")


# -- matches ------------------------------------------------------------------------------------
def match(red_spec: str, yellow_spec: str, games: int, seed: int) -> None:
    """Play ``games`` games and print the score from ``red_spec``'s side."""
    red, yellow = create_agent(red_spec), create_agent(yellow_spec)
    start = time.perf_counter()
    try:
        result = play_match(red, yellow, games, seed=seed)
    finally:
        red.close()
        yellow.close()
    minutes = (time.perf_counter() - start) / 60
    emit(
        f"{red_spec} vs {yellow_spec}: {red_spec} wins {result.red_wins}, loses {result.yellow_wins}, "
        f"draws {result.draws} ({games} games, first player wins {result.first_wins}, "
        f"second {result.second_wins}; {minutes:.1f} min)"
    )
