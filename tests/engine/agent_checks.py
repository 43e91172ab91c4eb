"""Checks that every searching agent must pass, shared by the agents' tests."""

from __future__ import annotations

import threading

from engine.agents.base import Agent
from engine.board import Board
from engine.stop import StopFlag


def stopped() -> StopFlag:
    """A flag that is already set: the search must still return a legal move."""
    stop = StopFlag()
    stop.set()
    return stop


def assert_stop_ends_a_long_search(agent: Agent, board: Board) -> None:
    """``agent`` (with an hour-long budget) returns soon after ``stop.set()``, with a legal move.

    No timing is asserted (machines are noisy): the join simply must not need
    its generous timeout. The bench measures the actual latency.
    """
    agent.choose(board, stopped())  # compiles, so that the thread below only searches
    stop, results = StopFlag(), []
    thread = threading.Thread(target=lambda: results.append(agent.choose(board, stop)))
    thread.start()
    thread.join(0.2)
    stop.set()
    thread.join(10)
    assert not thread.is_alive()
    assert results[0].column in board.legal_columns() and not results[0].completed
