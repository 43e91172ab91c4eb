"""Warming agents up: each spec answers on the tiny boards; failures are reported, not raised."""

from __future__ import annotations

import pytest

from engine.agents.registry import presets
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
