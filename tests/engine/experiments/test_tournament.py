"""Round robins: schedule, ratings, the command and resuming."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine.experiments.elo import rate
from engine.experiments.tournament import run_tournament, schedule
from engine.geometry import Geometry


def test_schedule_gives_every_opening_both_colours_and_is_reproducible():
    tasks = schedule(["random", "greedy", "minimax:depth=2"], games=6, seed=3)
    assert len(tasks) == 3 * 6
    assert tasks == schedule(["random", "greedy", "minimax:depth=2"], games=6, seed=3)
    assert tasks != schedule(["random", "greedy", "minimax:depth=2"], games=6, seed=4)
    pairing = [t for t in tasks if (t.red, t.yellow) == ("random", "greedy")]
    openings = [t.opening for t in pairing]
    assert openings[0::2] == openings[1::2]  # each opening twice ...
    assert [t.red_first for t in pairing] == [True, False] * 3  # ... once with each colour first
    assert len(set(openings)) == 3 and all(len(o) == 2 for o in openings)
    assert len({t.key for t in tasks}) == len(tasks)


def test_schedule_rejects_bad_fields():
    with pytest.raises(Exception, match="at least two"):
        schedule(["random"], games=2)
    with pytest.raises(Exception, match="twice"):
        schedule(["random", "random"], games=2)
    with pytest.raises(Exception, match="unknown agent"):
        schedule(["random", "nosuchagent"], games=2)


def test_elo_orders_agents_by_results_and_brackets_the_estimate():
    results = [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10 + [(1, 2, 1.0)] * 30 + [(1, 2, 0.5)] * 10
    ratings = rate(results, 3)
    assert ratings[0].elo > ratings[1].elo > ratings[2].elo
    assert abs(sum(r.elo for r in ratings)) < 1e-6
    assert all(r.low <= r.elo <= r.high for r in ratings)
    # 3:1 odds are 400*log10(3) = 191 Elo; the prior of one virtual draw pulls it in a little.
    assert 150 < ratings[0].elo - ratings[1].elo < 191


def test_an_agent_that_won_every_game_gets_an_interval_not_a_point():
    """Two games, both won: the estimate is uncertain, and the interval says so (it was [140, 140])."""
    for results in ([(0, 1, 1.0)] * 2, [(0, 1, 1.0)] * 40):
        ratings = rate(results, 2)
        assert all(r.low <= r.elo <= r.high for r in ratings)
        assert ratings[0].high - ratings[0].low > 400  # (the old interval's width: 0)
    few, many = rate([(0, 1, 1.0)] * 2, 2)[0], rate([(0, 1, 1.0)] * 40, 2)[0]
    assert many.elo > few.elo  # more wins in a row: a larger gap is believed


def test_two_agents_interval_is_the_binomial_one():
    """For two agents the interval re-derives by hand: the difference d of their ratings has a standard
    error of 1 / sqrt(n p (1 - p)) natural-log units (n games with the virtual draw, p = P(first wins)),
    and each rating, being half of d from the mean, half of it."""
    ratings = rate([(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10, 2)
    difference = ratings[0].elo - ratings[1].elo
    p = 1 / (1 + 10 ** (-difference / 400))
    assert p == pytest.approx(30.5 / 41, rel=1e-6)  # the fit: 30 wins and half the virtual draw in 41 games
    half_width = 1.96 * 400 / math.log(10) / 2 / math.sqrt(41 * p * (1 - p))
    assert ratings[0].high - ratings[0].elo == pytest.approx(half_width, rel=1e-4)
    assert ratings[1].elo - ratings[1].low == pytest.approx(half_width, rel=1e-4)


def test_a_stronger_agent_rates_higher_and_rows_replay():
    agents = ["random", "alphabeta:depth=4"]
    first = run_tournament(agents, games=4, seed=7, geometry=Geometry(5, 4, 4))
    again = run_tournament(agents, games=4, seed=7, geometry=Geometry(5, 4, 4))
    assert _untimed(first.rows) == _untimed(again.rows)
    assert [s.agent for s in first.standings] == ["alphabeta:depth=4", "random"]
    assert sum(s.games for s in first.standings) == 2 * 4


def _untimed(rows):
    """The rows without their timings (which no seed can replay)."""
    return [{key: value for key, value in row.items() if "_ms" not in key} for row in rows]


def test_tournament_command_ends_with_one_row_per_agent_and_resumes(cli, tmp_path):
    argv = ["tournament", "random", "greedy", "minimax:depth=2", "--games", "2", "--jobs", "1", "--out", str(tmp_path)]
    status, out, err = cli([*argv, "--no-progress"])
    assert status == 0, err
    lines = out.strip().splitlines()
    header = [cell.strip() for cell in lines[-5].strip("|").split("|")]
    assert "elo" in header and "agent" in header
    agents = {line.split("|")[2].strip() for line in lines[-3:]}
    assert agents == {"random", "greedy", "minimax:depth=2"}
    assert (tmp_path / "tournament.png").stat().st_size > 0
    assert len((tmp_path / "games.csv").read_text().splitlines()) == 1 + 3 * 2
    progress = tmp_path / "progress.jsonl"
    rows = [json.loads(line) for line in progress.read_text().splitlines()]
    assert len(rows) == 6
    # A second run over the same folder replays nothing: the checkpoint has every row.
    status, again, _ = cli([*argv, "--no-progress"])
    assert status == 0 and again == out
    assert len(progress.read_text().splitlines()) == 6


def test_tournament_command_bad_input_is_one_line(cli, tmp_path):
    status, _, err = cli(["tournament", "random", "bogus:depth=2", "--out", str(tmp_path), "--jobs", "1"])
    assert status == 2 and err.startswith("error:") and len(err.strip().splitlines()) == 1


def test_student_files_play_in_their_sandbox_and_a_crash_only_forfeits(tmp_path):
    good = tmp_path / "alice.py"
    good.write_text(
        "def agent(board, player=1):\n    return [c for c in range(board.shape[1]) if board[0, c] == 0][0]\n"
    )
    bad = tmp_path / "bob.py"
    bad.write_text("def agent(board, player=1):\n    raise RuntimeError('oops')\n")
    agents = [f"{good}:agent", f"{bad}:agent", "random"]
    result = run_tournament(agents, games=2, seed=1, geometry=Geometry(5, 4, 4))
    assert len(result.rows) == 3 * 2
    bob_games = [row for row in result.rows if f"{bad}:agent" in (row["red"], row["yellow"])]
    assert bob_games and all(row["forfeit"] for row in bob_games)
    assert [s.agent for s in result.standings][-1] == f"{bad}:agent"


@pytest.mark.parametrize("n", [8, 20, 39])
def test_a_crosstable_heat_map_writes_figures_only_where_they_fit(n: int) -> None:
    """A class of 39 would print 1,482 overlapping figures: past CROWDED columns the colours say it alone."""
    from engine.experiments import charts

    values = np.full((n, n), 0.5)
    np.fill_diagonal(values, np.nan)
    figure, (axis,) = charts.new_figure(6, 6)
    charts.heat_map(axis, values, [str(k) for k in range(n)], [str(k) for k in range(n)], "t", "share")
    texts = [text.get_text() for text in axis.texts]
    assert len(texts) == (n * n - n if n <= charts.CROWDED else 0)
    assert all(text == ("0.50" if n <= charts.CROWDED // 2 else ".50") for text in texts)
    charts.pyplot().close(figure)
