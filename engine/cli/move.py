"""``move``: ask an agent for its move in each position.

With ``--verbose`` the search runs on a second thread while this one prints
the agent's progress (:mod:`engine.progress`) to standard error several
times a second, as ``info POSITION key=value...`` lines; standard output
keeps its one answer per position.
"""

from __future__ import annotations

import sys
import threading

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import create_agent
from engine.board import Board
from engine.cli.common import PositionReporter, add_command, add_grid_argument, grid_positions, position_lines
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.errors import AgentFailure, EngineError
from engine.match import one_based
from engine.validate import MAX_SEED, float_arg, int_arg


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "move",
        "print POSITION COLUMN key=value... for each position (arguments, or stdin line by line)",
        agents=True,
    )
    parser.add_argument("--agent", required=True, metavar="AGENT", help="the agent spec, e.g. alphabeta:depth=8")
    parser.add_argument("--seed", type=int_arg(0, MAX_SEED), default=None, help="seed for agents that use randomness")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="print the search's progress (time, nodes, nodes/s, depth, best column, line) to stderr while it runs",
    )
    parser.add_argument(
        "--interval",
        type=float_arg(0.01, 60),
        default=0.25,
        help="seconds between progress lines with --verbose (default 0.25)",
    )
    add_geometry_arguments(parser)
    add_grid_argument(parser)
    parser.add_argument("positions", nargs="*", metavar="POSITION", help="move strings such as 4453")
    parser.set_defaults(run=run)


def run(args) -> int:
    geometry = geometry_from(args)
    agent = create_agent(args.agent, seed=args.seed)
    if agent.is_human:
        raise EngineError("the human agent cannot answer `move`; pick a computer agent")
    reporter = PositionReporter()
    try:
        for line in position_lines(args.positions + grid_positions(args)):
            board = reporter.board(line, geometry)
            if board is None:
                continue
            if board.is_over:
                reporter.fail(line, "the game is already over")
                continue
            try:
                if args.verbose:
                    result = choose_verbosely(agent, board, line.text, args.interval)
                else:
                    result = agent.choose(board)
            except (EngineError, AgentFailure) as exc:  # a bad position, or a student's function that failed
                reporter.fail(line, str(exc))
                continue
            reason = board.legality(result.column)
            if reason is not None:  # (a student's file may answer anything: `match` forfeits it, this says so)
                reporter.fail(line, f"{agent} chose {one_based(result.column)}: {reason}")
                continue
            emit(f"{line.text} {result.column + 1} {result.stats_line()}")
    finally:
        agent.close()
    return reporter.status


def choose_verbosely(agent: Agent, board: Board, label: str, interval: float) -> SearchResult:
    """``agent.choose(board)`` on a helper thread, printing its progress every ``interval`` seconds."""
    outcome: dict[str, object] = {}

    def search() -> None:
        try:
            outcome["result"] = agent.choose(board)
        except BaseException as exc:  # handed back to this thread and raised here
            outcome["error"] = exc

    thread = threading.Thread(target=search, name="move-search", daemon=True)
    thread.start()
    while True:
        thread.join(max(interval, 0.01))
        snapshot = agent.progress()
        if snapshot is not None:
            print(f"info {label} {snapshot.line()}", file=sys.stderr, flush=True)
        if not thread.is_alive():
            break
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["result"]  # type: ignore[return-value]
