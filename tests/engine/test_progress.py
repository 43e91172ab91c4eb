"""Agents publish progress: a snapshot another thread reads while the search runs."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from engine import Board, create_agent
from engine.progress import Progress
from engine.stop import StopFlag
from tests.waiting import wait_until


def _snapshots_while_searching(
    spec: str, moves: str, enough: Callable[[list[Progress]], bool]
) -> tuple[list[Progress], object]:
    """The snapshots read from another thread while ``spec`` searches, every 50 ms, until ``enough`` of them."""
    agent = create_agent(spec)
    board = Board.from_moves(moves)
    agent.choose(board, _stopped())  # compile outside the measured run
    stop = StopFlag()
    out: dict[str, object] = {}
    thread = threading.Thread(target=lambda: out.setdefault("result", agent.choose(board, stop)))
    thread.start()
    snapshots: list[Progress] = []

    def read() -> bool:
        snapshot = agent.progress()
        if snapshot is not None and snapshot.nodes > 0:  # (from the search's first counts on)
            snapshots.append(snapshot)
        return bool(snapshots) and enough(snapshots)

    try:
        wait_until(read, 60, lambda: f"enough snapshots: {snapshots[-3:]}", every=0.05)
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
    assert agent.progress() is None  # nothing runs any more
    return snapshots, out["result"]


def _stopped() -> StopFlag:
    flag = StopFlag()
    flag.set()
    return flag


def test_alphabeta_publishes_nodes_depth_and_its_line() -> None:
    deeper = lambda found: len(found) >= 3 and found[-1].nodes > found[0].nodes and (found[-1].depth or 0) >= 2  # noqa: E731
    snapshots, result = _snapshots_while_searching("alphabeta:depth=81,table_mb=4", "", deeper)
    assert len(snapshots) >= 3
    nodes = [s.nodes for s in snapshots]
    assert nodes == sorted(nodes) and nodes[-1] > nodes[0] > 0  # counted live, never going back
    last = snapshots[-1]
    assert last.depth is not None and last.depth >= 2 and last.rate > 0
    assert last.best_column is not None and last.pv[0] == last.best_column
    assert result.depth >= last.depth - 1  # the result is the deepest finished iteration


def test_mcts_publishes_visit_shares_per_column() -> None:
    every_column = lambda found: found[-1].visit_shares is not None and None not in found[-1].visit_shares  # noqa: E731
    snapshots, _ = _snapshots_while_searching("mcts:seconds=60,seed=1", "44", every_column)
    last = snapshots[-1]
    assert last.unit == "iterations" and last.nodes > 0
    shares = [s for s in last.visit_shares if s is not None]
    assert len(shares) == 7 and sum(shares) == pytest.approx(1.0)
    assert last.best_column == last.pv[0]


def test_montecarlo_publishes_playouts_spread_evenly() -> None:
    spread = lambda found: found[-1].nodes >= 7 * 200  # noqa: E731 - some hundreds of playouts a column
    snapshots, _ = _snapshots_while_searching("montecarlo:seconds=60,seed=1", "", spread)
    last = snapshots[-1]
    assert last.unit == "playouts" and last.nodes > 0 and last.best_column is not None
    assert max(last.visit_shares) - min(last.visit_shares) < 0.05  # every column gets its share


def test_an_idle_agent_or_a_silent_one_publishes_nothing() -> None:
    assert create_agent("alphabeta").progress() is None
    assert create_agent("random").progress() is None


def test_progress_line_names_its_fields() -> None:
    line = Progress(2.0, 1000, depth=7, best_column=3, pv=(3, 2), visit_shares=(0.5, None)).line()
    assert line == "time_ms=2000 nodes=1000 nps=500 depth=7 best=4 pv=43 shares=0.50,x"


def test_move_verbose_prints_info_lines_to_stderr_and_one_answer(cli) -> None:
    status, out, err = cli(
        ["move", "--verbose", "--interval", "0.05", "--agent", "alphabeta:depth=81,seconds=0.5", "4"]
    )
    assert status == 0
    assert len(out.splitlines()) == 1 and out.startswith("4 ")
    info = [line for line in err.splitlines() if line.startswith("info 4 ")]
    assert info and all("nodes=" in line and "nps=" in line for line in info)
