"""Warming agents up: each spec answers on the tiny boards; failures are reported, not raised; an opening
warm-up prepares only what a first move needs."""

from __future__ import annotations

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
