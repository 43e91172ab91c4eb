"""``move``: ask an agent for its move in each position."""

from __future__ import annotations

from engine.agents.registry import create_agent
from engine.cli.common import (
    PositionReporter,
    add_command,
    add_geometry_arguments,
    add_grid_argument,
    emit,
    geometry_from,
    grid_positions,
    position_lines,
)
from engine.errors import EngineError


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "move",
        "print POSITION COLUMN key=value... for each position (arguments, or stdin line by line)",
        agents=True,
    )
    parser.add_argument("--agent", required=True, metavar="AGENT", help="the agent spec, e.g. alphabeta:depth=8")
    parser.add_argument("--seed", type=int, default=None, help="seed for agents that use randomness")
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
                result = agent.choose(board)
            except EngineError as exc:
                reporter.fail(line, str(exc))
                continue
            emit(f"{line.text} {result.column + 1} {result.stats_line()}")
    finally:
        agent.close()
    return reporter.status
