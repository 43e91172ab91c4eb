"""The perfect agent: exact best moves, a seeded pick among equals, an honest estimate when out of time."""

from __future__ import annotations

import random

import pytest

from engine.agents.perfect import PerfectAgent, exact_in_time
from engine.agents.registry import create_agent, presets
from engine.board import Board
from engine.geometry import Geometry
from engine.match import play_game
from engine.score import Score
from engine.solver.book import load_default
from engine.solver.solver import Solver
from engine.stop import StopFlag
from tests.engine.exhaustive import columns_of, make_solver


def test_perfect_is_registered_and_is_the_top_preset() -> None:
    preset = {p.name: p for p in presets()}["perfect"]
    assert preset.level == max(p.level for p in presets())
    assert create_agent("perfect").name == "perfect"
    assert create_agent("perfect:seconds=1.5,table_mb=4").seconds == 1.5


def random_positions(geometry: Geometry, count: int, plies: tuple[int, int], seed: int) -> list[Board]:
    """``count`` positions of random play still going on, each after a number of plies in ``plies``."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        board = Board(geometry)
        for _ in range(rng.randrange(*plies)):
            board.play(rng.choice(board.legal_columns()))
            if board.is_over:
                break
        if not board.is_over:
            out.append(board)
    return out


def test_every_move_has_the_best_exact_score_and_the_seed_picks_among_all_ties() -> None:
    geometry = Geometry(5, 4, 4)
    _, column_scores, _ = make_solver(5, 4, 4)
    agent, picked_any_tie = create_agent("perfect"), False
    for board in random_positions(geometry, 8, (6, 12), seed=7):
        scores = column_scores(columns_of(list(board.history), 5), board.ply)
        best = max(s for s in scores if s is not None)
        tied = {col for col, score in enumerate(scores) if score == best}
        picks = set()
        for seed in range(12):
            agent.new_game(seed)
            result = agent.choose(board)
            assert result.column in tied and result.score == Score.pons(best)
            assert result.info["ties"] == len(tied)  # every tie found, and no more
            assert "exact=exact" in result.stats_line()
            picks.add(result.column)
        picked_any_tie |= len(picks) > 1
        assert len(picks) > 1 or len(tied) == 1  # twelve seeds agreeing on one of several ties would be no choice
    assert picked_any_tie


def play(first: PerfectAgent, second: PerfectAgent, geometry: Geometry, seeds: tuple[int, int]) -> tuple[int, ...]:
    first.new_game(seeds[0])
    second.new_game(seeds[1])
    return tuple(play_game(first, second, Board(geometry)).moves)


def test_the_same_seed_replays_the_game_and_other_seeds_vary_it() -> None:
    geometry = Geometry(5, 4, 4)
    first, second = create_agent("perfect"), create_agent("perfect")
    assert isinstance(first, PerfectAgent) and isinstance(second, PerfectAgent)
    games = [play(first, second, geometry, (seed, seed + 100)) for seed in range(6)]
    assert games[2] == play(create_agent("perfect"), create_agent("perfect"), geometry, (2, 102))  # fresh agents
    assert play(first, second, geometry, (2, 102)) == games[2]  # the same agents, their tables warm
    assert len(set(games)) >= 4


def test_from_the_book_it_picks_only_ties_the_book_covers() -> None:
    """The empty 6x7 board is symmetric: the book's best column ties with its mirror, and covers what follows both."""
    geometry = Geometry(6, 7, 4)
    empty = Board(geometry)
    book_column = load_default(geometry).entry(empty).column  # type: ignore[union-attr]
    firsts = set()
    for seed in range(8):
        result = create_agent("perfect", seed=seed).choose(empty)
        assert result.info == {"book": "yes", "ties": 2}
        firsts.add(result.column)
    assert firsts == {book_column, geometry.cols - 1 - book_column}
    agent = create_agent("perfect", seed=1)
    after = Board.from_moves([geometry.cols - 1 - book_column], geometry)  # the move the book does not store
    for reply in after.legal_columns():  # whatever the opponent answers, the agent is still in its book
        board = after.copy()
        board.play(reply)
        assert agent.choose(board).info.get("book") == "yes"


def test_a_move_its_table_answers_at_once_is_not_called_a_book_move() -> None:
    """Asked again, a position off the book is answered from the warm table in 0 nodes: still no book move,
    and its ties are still proven by search."""
    geometry = Geometry(6, 6, 4)
    board = Board.from_moves([int(c) - 1 for c in "31425654554414"], geometry)
    assert load_default(geometry).entry(board) is None
    agent = create_agent("perfect", seed=1)
    answers = [agent.choose(board) for _ in range(3)]
    assert [result.info.get("book") for result in answers] == [None, None, None]
    assert {result.info["ties"] for result in answers} == {answers[0].info["ties"]}


def test_from_the_book_it_leaves_out_ties_that_would_lead_it_out_of_the_book() -> None:
    """4x7: every first column draws, but the small book holds only what follows its own (the positions
    after any first move are stored too, for the second player: a score, but not the replies to them)."""
    geometry = Geometry(4, 7, 4)
    empty = Board(geometry)
    agent = create_agent("perfect", seed=3)
    assert all(score == Score.pons(0) for score in Solver(geometry, 16).analyze(empty).scores)
    for seed in range(6):
        agent.new_game(seed)
        result = agent.choose(empty)
        assert result.info == {"book": "yes", "ties": 1}
        assert result.column == load_default(geometry).entry(empty).column  # type: ignore[union-attr]


def test_it_wins_at_once_when_it_can() -> None:
    result = create_agent("perfect").choose(Board.from_moves("112233"))
    assert result.column == 3 and result.exact


# Boards it cannot solve in time: more than 42 cells, and connect 5 above 30 cells without a book (the
# empty 7x6 board of connect 5 takes more than five minutes to solve: no limit would freeze the game).
@pytest.mark.parametrize("geometry", [Geometry(8, 8, 4), Geometry(7, 6, 5)], ids=str)
def test_out_of_time_it_falls_back_and_says_estimate(geometry: Geometry) -> None:
    board = Board(geometry)
    result = create_agent("perfect:seconds=0.05").choose(board)
    assert board.is_legal(result.column) and result.exact is False
    assert "exact=estimate" in result.stats_line()


def test_a_stop_ends_the_search_with_an_estimate() -> None:
    stop = StopFlag()
    stop.set()
    result = create_agent("perfect:book=false").choose(Board.from_moves("44"), stop)
    assert not result.exact and Board.from_moves("44").is_legal(result.column)
    assert "fallback=" in result.stats_line()


def test_exact_in_time_where_books_or_small_boards_make_every_move_fast() -> None:
    assert exact_in_time(Geometry(7, 6, 4), None) and exact_in_time(Geometry(6, 7, 3), None)
    assert exact_in_time(Geometry(6, 5, 5), None) and exact_in_time(Geometry(5, 6, 6), None)  # 30 cells
    assert not exact_in_time(Geometry(8, 8, 4), load_default(Geometry(8, 8, 4)))
    assert not exact_in_time(Geometry(7, 6, 5), load_default(Geometry(7, 6, 5)))
    assert not exact_in_time(Geometry(8, 4, 5), None)
    assert exact_in_time(Geometry(4, 9, 5), load_default(Geometry(4, 9, 5)))  # 36 cells, with its book
