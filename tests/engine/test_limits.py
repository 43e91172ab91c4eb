"""Limits: one value for nodes, seconds and a stop flag, taken by the agents (and the solver)."""

from __future__ import annotations

import math

import pytest

from engine import Board, Limits, StopFlag, create_agent
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


def test_limits_and_the_older_keywords_merge_but_not_both() -> None:
    stop = StopFlag()
    assert Limits.merged(None, nodes=5, seconds=2.0, stop=stop) == Limits(5, 2.0, stop)
    assert Limits.merged(Limits(seconds=1.0)) == Limits(seconds=1.0)
    assert Limits.merged(None, seconds=-0.5) == Limits(seconds=0)  # a budget already spent: out of time
    with pytest.raises(ValueRangeError, match="not both"):
        Limits.merged(Limits(seconds=1.0), nodes=5)


def test_an_agent_takes_a_node_budget_through_its_own_key_and_gets_it_back() -> None:
    agent = create_agent("mcts:seconds=3600,seed=1")
    result = agent.choose(Board(), limits=Limits(nodes=300))
    assert result.nodes == 300  # iterations, the agent's nodes= statistic
    assert agent.iterations is None  # the cap held for that move only
    alphabeta = create_agent("alphabeta:depth=81,nodes=100000")
    assert alphabeta.choose(Board(), limits=Limits(nodes=2000)).nodes == 2000  # the tighter budget holds
    assert alphabeta.nodes == 100000


def test_an_agent_without_a_node_budget_refuses_one() -> None:
    with pytest.raises(ValueRangeError, match="random has no node budget"):
        create_agent("random").choose(Board(), limits=Limits(nodes=10))


@pytest.mark.timeout(120)
def test_an_agent_stops_at_the_limits_seconds_or_stop_flag() -> None:
    """An hour-long MCTS move comes back: at the Limits' seconds, and at once when its stop flag is set."""
    agent = create_agent("mcts:seconds=3600,seed=1")
    timed = agent.choose(Board.from_moves("44"), limits=Limits(seconds=0.3))
    assert Board.from_moves("44").is_legal(timed.column) and timed.nodes > 0
    stop = StopFlag()
    stop.set()
    stopped = agent.choose(Board.from_moves("44"), limits=Limits(stop=stop))
    assert Board.from_moves("44").is_legal(stopped.column)
    with pytest.raises(ValueRangeError, match="not both"):
        agent.choose(Board(), stop, limits=Limits(seconds=1.0))
