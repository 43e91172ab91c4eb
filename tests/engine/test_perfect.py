"""The perfect agent: exact best moves, centre among equals, an honest estimate when out of time."""

from __future__ import annotations

import random

from engine.agents.registry import create_agent, presets
from engine.board import Board
from engine.geometry import Geometry
from engine.score import Score
from engine.stop import StopFlag
from tests.engine.exhaustive import columns_of, make_solver


def test_perfect_is_registered_and_is_the_top_preset() -> None:
    preset = {p.name: p for p in presets()}["perfect"]
    assert preset.level == max(p.level for p in presets())
    assert create_agent("perfect").name == "perfect"
    assert create_agent("perfect:time=1.5,table_mb=4").time == 1.5


def test_every_move_has_the_best_exact_score_and_the_centre_breaks_ties() -> None:
    geometry = Geometry(5, 4, 4)
    _, column_scores, _ = make_solver(5, 4, 4)
    agent = create_agent("perfect")
    rng = random.Random(7)
    for _ in range(8):
        board = Board(geometry)
        for _ in range(rng.randrange(6, 12)):
            board.play(rng.choice(board.legal_columns()))
            if board.is_over:
                break
        if board.is_over:
            continue
        scores = column_scores(columns_of(list(board.history), 5), board.ply)
        best = max(s for s in scores if s is not None)
        expected = next(col for col in (2, 1, 3, 0, 4) if scores[col] == best)
        result = agent.choose(board)
        assert (result.column, result.score) == (expected, Score.pons(best))
        assert "exact=exact" in result.stats_line()


def test_it_wins_at_once_when_it_can() -> None:
    result = create_agent("perfect").choose(Board.from_moves("112233"))
    assert result.column == 3 and result.exact


def test_out_of_time_it_falls_back_and_says_estimate() -> None:
    board = Board(Geometry(8, 8, 4))
    result = create_agent("perfect:time=0.05").choose(board)
    assert board.is_legal(result.column) and result.exact is False
    assert "exact=estimate" in result.stats_line()


def test_a_stop_ends_the_search_with_an_estimate() -> None:
    stop = StopFlag()
    stop.set()
    result = create_agent("perfect:book=false").choose(Board.from_moves("44"), stop)
    assert not result.exact and Board.from_moves("44").is_legal(result.column)
    assert "fallback=" in result.stats_line()
