"""Warming agents up: each spec answers on the tiny boards; failures are reported, not raised; an opening
warm-up prepares only what a first move needs."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.agents.registry import create_agent, presets
from engine.board import Board
from engine.geometry import Geometry
from engine.solver.solver import Solver
from engine.stop import StopFlag
from engine.warmup import warm_up


def test_each_spec_is_warmed_on_narrow_and_wide_boards():
    done = warm_up(["beginner", "random:seed=3"], wide=True)
    assert [(item.spec, item.error) for item in done] == [("beginner", None), ("random:seed=3", None)]


@pytest.mark.slow
def test_every_preset_warms_up():
    done = warm_up(wide=True)
    assert [item.spec for item in done] == [preset.name for preset in presets()]
    assert all(item.error is None for item in done), [item.error for item in done if item.error]


def test_a_bad_spec_is_reported_and_the_rest_still_warm():
    done = warm_up(["nonsense", "random"])
    assert done[0].spec == "nonsense" and "unknown agent" in done[0].error
    assert done[1].error is None


def test_a_set_stop_flag_ends_the_warm_up():
    stop = StopFlag()
    stop.set()
    assert warm_up(["random"], stop=stop) == []


class SolverWarmUps:
    """Counts the solver's warm-ups (its kernels compiled or loaded) instead of doing them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        monkeypatch.setattr(Solver, "warm_up", lambda solver: self._record())

    def _record(self) -> None:
        self.count += 1


@pytest.mark.parametrize("spec", ["perfect", "expert"])
def test_an_opening_warm_up_leaves_out_the_solver_the_first_move_does_not_use(monkeypatch, spec):
    warm_ups = SolverWarmUps(monkeypatch)
    assert [item.error for item in warm_up([spec], opening=Geometry(7, 6, 4))] == [None]
    assert warm_ups.count == 0
    assert [item.error for item in warm_up([spec])] == [None]  # the full warm-up prepares it
    assert warm_ups.count >= 1


def test_the_perfect_agent_prepares_its_solver_once_out_of_the_book(monkeypatch):
    warm_ups = SolverWarmUps(monkeypatch)
    agent = create_agent("perfect")
    agent.prepare_for(Board.from_moves("4"))  # the book answers
    assert warm_ups.count == 0
    agent.prepare_for(Board.from_moves("112233" * 3))  # 18 stones: far outside the book
    agent.prepare_for(Board.from_moves("112233" * 3 + "77"))
    assert warm_ups.count == 1


def test_monte_carlo_tree_search_prepares_its_endgame_solver_near_the_endgame(monkeypatch):
    warm_ups = SolverWarmUps(monkeypatch)
    agent = create_agent("mcts:endgame=24")
    agent.prepare_for(Board.from_moves("4"))  # 41 empty cells
    assert warm_ups.count == 0
    agent.prepare_for(Board.from_moves("112233" * 3))  # 24 empty cells
    assert warm_ups.count == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads process states from /proc")
def test_the_warm_up_command_ends_when_the_process_that_started_it_is_gone(tmp_path):
    pid_file = tmp_path / "pid"
    # A parent that starts a long warm-up (every preset, wide boards too) and dies at once, as a killed game would.
    parent = (
        "import subprocess, sys\n"
        "import os\n"
        "command = [sys.executable, '-m', 'engine.warmup', '--wide', '--parent', str(os.getpid())]\n"
        "child = subprocess.Popen(command, stdout=subprocess.DEVNULL)\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}  # an empty cache: compiling takes minutes
    subprocess.run([sys.executable, "-c", parent], check=True, env=env, cwd=Path(__file__).resolve().parents[2])
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 60
    while _alive(child):
        assert time.monotonic() < deadline, "the warm-up went on without its parent"
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False
