"""Score: units, exactness, and the distance to the end that an exact score implies."""

from __future__ import annotations

import pytest

from engine.agents.registry import create_agent
from engine.board import Board
from engine.score import Score
from tests.engine.test_search import PONS_SCORES


def test_only_proven_scores_are_exact() -> None:
    assert Score.pons(3).is_exact and not Score.estimate(3).is_exact
    assert Score.win_rate(1.0, exact=True).is_exact and not Score.win_rate(0.7).is_exact


def test_outcomes_of_each_unit() -> None:
    assert [Score.pons(v).outcome for v in (4, 0, -2)] == [1, 0, -1]
    assert [Score.win_rate(v, exact=True).outcome for v in (1.0, 0.5, 0.0)] == [1, 0, -1]
    assert Score.estimate(500).outcome is None and Score.win_rate(0.9).outcome is None


def test_printing_keeps_whole_numbers_whole() -> None:
    assert (str(Score.pons(-3)), str(Score.win_rate(0.123456)), str(Score.estimate(12.0))) == ("-3", "0.1235", "12")


@pytest.mark.parametrize(("moves", "score"), [pair for pair in PONS_SCORES if pair[1] != 0])
def test_plies_to_end_agree_with_the_search_that_proved_the_score(moves: str, score: int) -> None:
    board = Board.from_moves(moves)
    result = create_agent("alphabeta:depth=81").choose(board)
    assert result.score == Score.pons(score)
    distance = result.info["win_in" if score > 0 else "loss_in"]
    assert Score.pons(score).plies_to_end(board.ply, board.geometry.cells) == distance


def test_no_distance_for_draws_and_guesses() -> None:
    assert Score.pons(0).plies_to_end(10, 42) is None
    assert Score.estimate(5).plies_to_end(10, 42) is None
