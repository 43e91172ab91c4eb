"""Limits: one value for nodes, seconds and a stop flag, taken by the agents and the solver alike."""

from __future__ import annotations

import math

import pytest

from engine import AutoSolver, Board, Limits, StopFlag, create_agent
from engine.errors import ValueRangeError


def test_empty_limits_limit_nothing_and_older_spellings_of_none_are_none() -> None:
    assert Limits() == Limits(nodes=0, seconds=math.inf) == Limits(None, None, None)
    assert Limits(nodes=0).node_budget == 0 and Limits(nodes=7).node_budget == 7


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"nodes": -1}, "nodes must be a whole number"),
        ({"nodes": 1.5}, "nodes must be a whole number"),
        ({"nodes": True}, "nodes must be a whole number"),
        ({"seconds": -1}, "seconds must be a number from 0 up"),
        ({"seconds": math.nan}, "seconds must be a number from 0 up"),
        ({"seconds": "1"}, "seconds must be a number from 0 up"),
        ({"stop": "now"}, "stop must be a StopFlag"),
    ],
)
def test_bad_limits_are_one_clear_error(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueRangeError, match=message):
        Limits(**kwargs)


def test_the_solver_and_the_agents_take_limits_as_their_second_argument() -> None:
    """As python-chess's engine.play(board, limit): one positional value, the same for every search."""
    board = Board.from_moves("44")
    limits = Limits(nodes=500)
    assert not AutoSolver(book=False).solve(board, limits).finished
    assert not AutoSolver(book=False).analyze(board, limits).finished
    assert create_agent("alphabeta:depth=81").choose(board, limits).nodes == 500


def test_a_bare_stop_flag_is_the_documented_short_form_and_nothing_else_is_taken() -> None:
    stop = StopFlag()
    stop.set()
    agent = create_agent("mcts:seconds=3600,seed=1")
    assert Board.from_moves("44").is_legal(agent.choose(Board.from_moves("44"), stop).column)
    with pytest.raises(ValueRangeError, match="limits must be Limits or a StopFlag, not float"):
        agent.choose(Board(), 1.0)  # type: ignore[arg-type]


def test_an_agent_takes_a_node_budget_through_its_own_key_and_gets_it_back() -> None:
    agent = create_agent("mcts:seconds=3600,seed=1")
    result = agent.choose(Board(), Limits(nodes=300))
    assert result.nodes == 300  # iterations, the agent's nodes= statistic
    assert agent.iterations is None  # the cap held for that move only
    alphabeta = create_agent("alphabeta:depth=81,nodes=100000")
    assert alphabeta.choose(Board(), Limits(nodes=2000)).nodes == 2000  # the tighter budget holds
    assert alphabeta.nodes == 100000


def test_an_agent_without_a_node_budget_refuses_one() -> None:
    with pytest.raises(ValueRangeError, match="random has no node budget"):
        create_agent("random").choose(Board(), Limits(nodes=10))


@pytest.mark.timeout(120)
def test_an_agent_stops_at_the_limits_seconds_or_stop_flag() -> None:
    """An hour-long MCTS move comes back: at the Limits' seconds, and at once when its stop flag is set."""
    agent = create_agent("mcts:seconds=3600,seed=1")
    timed = agent.choose(Board.from_moves("44"), Limits(seconds=0.3))
    assert Board.from_moves("44").is_legal(timed.column) and timed.nodes > 0
    stop = StopFlag()
    stop.set()
    stopped = agent.choose(Board.from_moves("44"), Limits(stop=stop))
    assert Board.from_moves("44").is_legal(stopped.column)
