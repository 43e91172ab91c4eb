"""``bench montecarlo`` runs every part and reports each figure (tiny budgets: the figures are not checked)."""

from __future__ import annotations

import pytest

from engine.cli import main


@pytest.mark.slow
def test_every_part_reports(capsys) -> None:
    argv = ["bench", "montecarlo", "--seconds", "0.02", "--first-move-seconds", "0.02", "--games", "2"]
    argv += ["--time", "0.02"]  # (the older name of --move-seconds, still accepted)
    argv += ["--opponent", "random:seed=1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    for figure in ("7x6 kernel random playouts/s", "8x8 agent mcts:rollout=smart iterations/s", "mcts stop latency"):
        assert figure in out
    assert out.count("first move ") == 4  # one line per agent and seed, then one tally per agent
    assert "first move mcts at 0.02 s over 1 seeds: column" in out
    assert "mcts:seconds=0.02 vs random:seed=1: mcts:seconds=0.02 wins" in out
    assert "montecarlo:seconds=0.02 vs mcts:seconds=0.02: montecarlo:seconds=0.02 wins" in out
    assert "peak memory" in out


def test_a_bad_opponent_is_one_line_before_any_part_runs(capsys) -> None:
    for opponent, message in (("nosuch", "unknown agent 'nosuch'"), ("human", "needs a person at the keyboard")):
        assert main(["bench", "montecarlo", "--opponent", "random", "--opponent", opponent]) == 2
        out, err = capsys.readouterr()
        assert message in err and "playouts/s" not in out


def test_an_unknown_part_is_a_clear_error(capsys) -> None:
    assert main(["bench", "montecarlo", "speedy"]) == 2
    assert "unknown part 'speedy'" in capsys.readouterr().err
