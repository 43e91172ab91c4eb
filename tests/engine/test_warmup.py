"""Warming agents up: each spec answers on the tiny boards; failures are reported, not raised; an opening
warm-up prepares only what a first move needs."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.agents.mcts import MctsAgent
from engine.agents.registry import create_agent, presets
from engine.board import Board
from engine.geometry import Geometry
from engine.solver.solver import Solver
from engine.startup import warmup
from engine.startup.warmup import warm_up
from engine.stop import StopFlag
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


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
    subprocess.run([sys.executable, "-c", parent], check=True, env=env, cwd=ROOT)
    child = int(pid_file.read_text())
    wait_until(lambda: not _alive(child), 60, "the warm-up to end without its parent", every=0.1)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


class Parts:
    """The preparation parts of the mcts agent, recorded as they run, and its moves."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, count: int) -> None:
        self.ran: list[str] = []
        parts = tuple(lambda name=f"part {k}": self.ran.append(name) for k in range(count))
        monkeypatch.setattr(MctsAgent, "preparation_parts", lambda agent, board: parts)
        monkeypatch.setattr(MctsAgent, "choose", lambda agent, board, stop=None: self.ran.append("move"))


def test_a_helper_compiles_its_share_of_the_parts_and_asks_for_no_move(monkeypatch):
    parts = Parts(monkeypatch, 3)
    started = []
    monkeypatch.setattr(warmup, "_start_helper", lambda *args: started.append(args))
    assert [item.error for item in warm_up(["mcts"], opening=Geometry(), jobs=2, part=1)] == [None]
    assert parts.ran == ["part 1"] and started == []


def test_the_first_move_waits_for_the_helpers_of_the_other_parts(monkeypatch):
    parts = Parts(monkeypatch, 3)
    helpers: list[tuple] = []

    def start_helper(specs, opening, jobs, part):
        helpers.append((specs, opening, jobs, part))
        return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.3)"])

    monkeypatch.setattr(warmup, "_start_helper", start_helper)
    begun = time.monotonic()
    assert [item.error for item in warm_up(["mcts"], opening=Geometry(), jobs=2)] == [None]
    assert helpers == [(["mcts"], Geometry(), 2, 1)]
    assert parts.ran == ["part 0", "part 2", "move", "move"]  # the helper has part 1
    assert time.monotonic() - begun >= 0.3  # the moves came after the helper was done


def test_a_stuck_helper_is_not_waited_for_and_is_ended(monkeypatch):
    parts = Parts(monkeypatch, 2)
    monkeypatch.setattr(warmup, "HELPER_WAIT", 0.2)
    helpers = []

    def start_helper(*args):
        helpers.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
        return helpers[-1]

    monkeypatch.setattr(warmup, "_start_helper", start_helper)
    begun = time.monotonic()
    assert [item.error for item in warm_up(["mcts"], opening=Geometry(), jobs=2)] == [None]
    assert parts.ran == ["part 0", "move", "move"]  # this process did its part and the moves all the same
    assert time.monotonic() - begun < 30 and helpers[0].poll() is not None  # not the helper's minute; it is ended


def _compiled_kernels(tmp_path: Path, *args: str) -> list[str]:
    """The kernels ``python -m engine.warmup --kernels ARGS`` compiles in an empty cache (its own process only)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "engine.warmup", "--kernels", *args]
    output = subprocess.run(command, check=True, env=env, cwd=ROOT, capture_output=True, text=True).stdout
    return [line.split(" s  ", 1)[1].split("(", 1)[0] for line in output.splitlines() if "s  engine." in line]


@pytest.mark.slow
def test_the_first_move_of_expert_compiles_each_kernel_once_and_nothing_it_does_not_use(tmp_path):
    compiled = _compiled_kernels(tmp_path, "--opening", "7x6x4", "--jobs", "2", "expert")
    assert "engine.kernels.mcts.search" in compiled and "engine.kernels.mcts.expand" in compiled
    # The helper compiled the playouts: this process loaded them from the cache.
    assert not any(name.endswith("_playout") for name in compiled)
    # Nothing the first move does not use: no endgame solver, no copy of a subtree.
    assert not any(name.startswith("engine.solver") or "copy" in name for name in compiled)
    kernels = [name for name in compiled if "<locals>" not in name]  # bitops' small overloads aside
    assert len(kernels) == len(set(kernels)), "a kernel compiled twice (for a literal or narrower argument)"


@pytest.mark.slow
@pytest.mark.parametrize("preset", [preset.name for preset in presets()])
def test_no_preset_compiles_a_kernel_twice_for_its_first_move(tmp_path, preset):
    kernels = [name for name in _compiled_kernels(tmp_path, "--opening", "7x6x4", preset) if "<locals>" not in name]
    assert len(kernels) == len(set(kernels))
