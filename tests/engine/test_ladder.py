"""The difficulty ladder: from random to perfect, weak levels that vary and still see the obvious."""

from __future__ import annotations

import json
import random

import pytest

from engine.agents.base import SearchResult
from engine.agents.presets import LADDER
from engine.agents.registry import create_agent, describe_agents, presets
from engine.agents.search import vary
from engine.geometry import Geometry
from engine.kernels.search import WIN
from engine.match import play_match
from engine.score import Score
from tests.engine.seed_positions import BLOCKS, WINS

#: Quick versions of the presets that search (same algorithm and settings, less time).
QUICK = {"expert": "expert:seconds=0.2"}
FROM_EASY = [preset.name for preset in presets() if preset.level >= 2]


def test_seven_levels_from_random_to_perfect() -> None:
    ladder = presets()
    assert len(ladder) >= 7 and [p.level for p in ladder] == list(range(len(ladder)))
    assert (ladder[0].spec, ladder[-1].spec) == ("random", "perfect")
    assert [p.name for p in ladder] == [name for name, *_ in LADDER]


def test_help_shows_each_measured_rating() -> None:
    text = describe_agents()
    for preset in presets():
        if preset.elo is not None:
            assert f"{preset.name}" in text and preset.rating in text


@pytest.mark.parametrize("name", FROM_EASY)
def test_from_easy_up_a_win_in_one_is_taken_and_a_threat_blocked(name: str) -> None:
    agent = create_agent(QUICK.get(name, name), seed=1)
    for position in WINS[:3] + BLOCKS[:3]:
        if position.board.geometry.cells > 42 and name == "perfect":
            continue
        assert agent.choose(position.board).column in position.moves, (name, position.name)


#: The expert preset with an iteration budget instead of its clock: a time limit never replays exactly.
EXPERT_BUDGET = "mcts:iterations=1500,endgame=24"


@pytest.mark.parametrize(
    ("red", "yellow"),
    [
        ("beginner", "novice"),
        ("novice", "easy"),
        ("easy", "medium"),
        ("medium", "hard"),
        ("hard", "alphabeta:depth=5,eval=threats"),
        pytest.param("hard", EXPERT_BUDGET, marks=pytest.mark.slow),
        pytest.param(EXPERT_BUDGET, "perfect", marks=pytest.mark.slow),
    ],
)
def test_a_seeded_match_gives_distinct_games_and_replays(red: str, yellow: str) -> None:
    def games(seed: int) -> list[tuple[int, ...]]:
        match = play_match(create_agent(red), create_agent(yellow), 6, seed=seed)
        return [tuple(record.moves) for record in match.games]

    first = games(5)
    assert len(set(first)) == len(first)  # every game its own
    assert games(5) == first  # the same seed, the same games


def _choices(scores: list[Score | None], tolerance: float) -> set[int]:
    result = SearchResult(column=0, score=scores[0], column_scores=tuple(scores))
    return {vary(result, Geometry(), tolerance, random.Random(seed)).column for seed in range(40)}


def test_ties_and_near_ties_are_chosen_at_random_wins_only_when_equal() -> None:
    heuristic = [Score.estimate(5), Score.estimate(5), Score.estimate(3), None]
    assert _choices(heuristic, 0) == {0, 1}
    assert _choices(heuristic, 2) == {0, 1, 2}
    wins = [Score.estimate(WIN - 9), Score.estimate(WIN - 11), Score.estimate(WIN - 9)]
    assert _choices(wins, 50) == {0, 2}  # a slower win is never a near-tie of a quicker one
    exact = [Score.pons(2), Score.pons(2), Score.pons(1)]
    assert _choices(exact, 50) == {0, 1}


def test_the_ladder_bench_counts_a_game_once_however_often_its_folder_was_resumed(tmp_path) -> None:
    from engine.bench.ladder import game_rows

    first = {"key": "a", "rows": [{"red": "easy", "yellow": "medium", "winner": "yellow"}]}
    second = {"key": "b", "rows": [{"red": "medium", "yellow": "easy", "winner": "red"}]}
    progress = tmp_path / "progress.jsonl"
    lines = [json.dumps(first), json.dumps(second), json.dumps(first), '{"key": "c", "ro']  # the last one cut short
    progress.write_text("\n".join(lines))
    assert game_rows(progress) == [first["rows"][0], second["rows"][0]]


def test_the_ladder_bench_rates_only_the_levels_that_played(tmp_path, capsys) -> None:
    from engine.cli import main

    rows = [
        {"red": "expert", "yellow": "perfect", "winner": "yellow"},
        {"red": "perfect", "yellow": "expert", "winner": "draw"},
    ]
    progress = tmp_path / "progress.jsonl"
    progress.write_text("\n".join(json.dumps({"key": str(i), "rows": [row]}) for i, row in enumerate(rows)))
    assert main(["bench", "ladder", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "perfect over expert: 1 / 1 / 0" in out
    assert "nan" not in out and "beginner" not in out and "hard" not in out


def test_the_ladder_chart_is_checked_before_the_work_and_never_replaces_a_users_file(tmp_path, capsys) -> None:
    from engine.cli import main

    rows = [{"red": "easy", "yellow": "medium", "winner": "yellow"}]
    (tmp_path / "progress.jsonl").write_text(json.dumps({"key": "0", "rows": rows}))
    (tmp_path / "mine.png").write_text("my file")
    for chart, message in (("", "--chart needs a file name"), (tmp_path / "mine.png", "that file is not a PNG")):
        assert main(["bench", "ladder", str(tmp_path), "--chart", str(chart)]) == 2
        out, err = capsys.readouterr()
        assert message in err and "crosstable" not in out  # (said before any table)
    assert (tmp_path / "mine.png").read_text() == "my file"
    assert main(["bench", "ladder", str(tmp_path), "--chart", str(tmp_path / "ladder.png")]) == 0
    assert (tmp_path / "ladder.png").read_bytes().startswith(b"\x89PNG")
