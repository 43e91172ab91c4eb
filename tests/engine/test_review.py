"""Game review: labels from the solver, the better move, the command's output."""

from __future__ import annotations

import itertools
import time

import pytest

from engine import Board, Geometry
from engine.explain.explainer import Explainer
from engine.review import MoveReview, label_for, review, review_game, summary, summary_text
from engine.solver.auto import AutoSolver

G = Geometry()
#: Red could win in column 1 at move 7 and plays column 3; yellow then wins in column 2.
BLUNDER_GAME = "12121232"


@pytest.fixture(scope="module")
def solver() -> AutoSolver:
    return AutoSolver(G, table_mb=8)


def test_labels_follow_the_change_of_game_value() -> None:
    assert label_for(5, 5) == "best"
    assert label_for(5, 2) == "good" and label_for(-3, -9) == "good" and label_for(0, 0) == "best"
    assert label_for(5, 0) == "mistake" and label_for(0, -4) == "mistake"
    assert label_for(5, -4) == "blunder"
    assert label_for(None, 3) == "unknown" and label_for(3, None) == "unknown"


def test_a_known_blunder_is_labelled_with_the_better_move(solver: AutoSolver) -> None:
    reviews = review(Board.from_moves(BLUNDER_GAME), solver, seconds=2.0)
    assert [r.ply for r in reviews] == list(range(1, 9))
    blunder = reviews[6]
    assert (blunder.column, blunder.label, blunder.better) == (2, "blunder", 0)
    assert blunder.before == 18 and blunder.after == -18  # (44 - 7) // 2 and (44 - 8) // 2
    assert reviews[7].label == "best" and reviews[7].better is None  # yellow takes the win
    assert (reviews[0].label, reviews[0].better) == ("blunder", 3)  # column 1 first loses (the book knows)
    for item in reviews:
        assert item.better is None or item.better != item.column


def test_the_second_pass_finds_the_better_moves_the_first_had_no_time_for(solver: AutoSolver) -> None:
    """With no time for searching, every value of "44112111" still comes from the book at once (every
    position of up to 7 stones, and the plain-Python solver's quick loss after the last move), and so
    every label; the best column of "4411211" (7 stones: a score only) needs a search, which the
    second pass makes."""
    found = list(review_game(Board.from_moves("44112111"), solver, seconds=0.0, afterwards=60.0))
    first = {item.ply: item for item in found[:8]}
    assert sorted(first) == list(range(1, 9)) and all(item.label != "unknown" for item in first.values())
    assert (first[8].label, first[8].before, first[8].after, first[8].better) == ("blunder", 2, -17, None)
    assert (found[8].ply, found[8].better) == (8, 2) and len(found) == 9  # then its best column


def test_a_game_begun_from_a_grid_is_reviewed_from_that_grid(solver: AutoSolver) -> None:
    """The blunder game with its first six moves given as stones: the review starts where the history does."""
    start = Board.from_moves(BLUNDER_GAME[:6])
    board = Board.from_stones(start.stones(start.turn), start.stones(start.turn.other), G)  # (X moves: X's first)
    for move in BLUNDER_GAME[6:]:
        board.play(int(move) - 1)
    reviews = review(board, solver, seconds=2.0)
    assert [(r.ply, r.column, r.label, r.better) for r in reviews] == [(1, 2, "blunder", 0), (2, 1, "best", None)]
    assert (reviews[0].before, reviews[0].after) == (18, -18)


def test_the_value_chain_is_consistent(solver: AutoSolver) -> None:
    """Each move's value after is minus the next position's value before (one solve per position)."""
    reviews = review(Board.from_moves("4444443"), solver, seconds=5.0)
    for move, reply in itertools.pairwise(reviews):
        if move.after is not None and reply.before is not None:
            assert move.after == -reply.before


def test_summary_counts_labels_per_player(solver: AutoSolver) -> None:
    counts = summary(review(Board.from_moves(BLUNDER_GAME), solver, seconds=2.0))
    assert counts["Red"]["blunder"] == 2 and counts["Yellow"]["best"] >= 1
    assert sum(counts["Red"].values()) == 4 and sum(counts["Yellow"].values()) == 4
    assert "2 blunders" in summary_text(counts["Red"])


def test_review_command_prints_a_line_per_move(cli) -> None:
    status, out, err = cli(["review", "--summary", "--seconds", "0.5", BLUNDER_GAME])
    lines = out.splitlines()
    assert len(lines) == 10 and status == 0
    if any(line.split()[2] == "unknown" for line in lines[:8]):  # some positions not solved in time: said once
        assert err.count("not solved within 0.5 s") == 1
    assert lines[6] == (
        "7 3 blunder before=18 before_words=W1 after=-18 after_words=L1 better=1 "
        "why=now Yellow wins at once in column 2 (b1-b4)"
    )
    assert lines[7].startswith("8 2 best ")
    assert lines[8].startswith("red best=") and lines[9].startswith("yellow best=")


def test_review_command_notes_what_it_left_open() -> None:
    """A move left unknown, and a move labelled worse than best without its better column (the
    book gives a value at once, not its column), each get a note saying how to get them."""
    from engine.cli.review import _notes

    found = [
        MoveReview(1, 3, "best", 1, 1, None),
        MoveReview(2, 3, "unknown", None, None, None),
        MoveReview(3, 0, "blunder", 1, -3, None),
        MoveReview(4, 0, "mistake", 1, 0, 3),
    ]
    assert _notes(found, 0.5, None) == [
        "1 move unknown: not solved within 0.5 s a position (raise --seconds)",
        "1 move without better=: no best column found within 0.5 s a position (raise --seconds)",
    ]
    assert _notes(found[:1] + found[3:], 0.5, 2.0) == []
    assert _notes(found[2:3] * 2, 0.5, 2.0) == [
        "2 moves without better=: no best column found within 0.5 s a position and 2 s in all "
        "(raise --seconds or --budget)"
    ]


def test_review_command_reports_bad_games_and_goes_on(cli) -> None:
    status, out, err = cli(["review", "1111111", "44"])
    assert status == 1
    assert "argument 1 '1111111'" in err
    assert out.splitlines()[0] == "1111111 ?"
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["1", "2"]


def test_a_review_keeps_its_budget_and_the_second_pass_fills_in(solver: AutoSolver) -> None:
    """Past the book's 7 stones an opening takes seconds to solve (this one's positions of 8 to 12 stones
    about 1 s each): the first pass says unknown in time, then fills in."""
    game = Board.from_moves("2261761473451521624327521")
    fresh = AutoSolver(G, table_mb=8)
    start = time.perf_counter()
    first = review(game, fresh, seconds=3.0, budget=0.5)
    assert time.perf_counter() - start < 30  # a liveness bound: the budget, not minutes a position
    assert [item.ply for item in first] == list(range(1, 26))
    unknown = {item.ply for item in first if item.label == "unknown"}
    assert unknown and 25 not in unknown  # the end game is solved first
    small = Geometry(5, 5)  # its early positions take about 10**5 nodes: unknown in a millisecond, solved later
    reviews = review_game(Board.from_moves("333222141", small), AutoSolver(small, table_mb=8, book=False), budget=0.001)
    seen = [(item.ply, item.label) for item in reviews]
    newest = dict(seen)  # a caller keeps the newest review of each ply
    assert sorted(newest) == list(range(1, 10)) and "unknown" not in newest.values()
    assert len(seen) > 9 and any(label == "unknown" for _, label in seen)  # unknown at first, then filled in
    # The second pass has a budget of its own: spent, the unknown moves stay unknown (no core kept busy).
    spent = review_game(
        Board.from_moves("333222141", small),
        AutoSolver(small, table_mb=8, book=False),
        budget=0.001,
        afterwards_budget=0,
    )
    labels = [(item.ply, item.label) for item in spent]
    assert len(labels) == 9 and any(label == "unknown" for _, label in labels)


@pytest.mark.slow
def test_a_blunder_says_why_in_the_command_and_in_the_review_game(cli, solver: AutoSolver) -> None:
    """Red could win in column 1 at move 7 and plays column 3: after it Yellow wins at once in column 2.
    (Two reviews from the empty board: slow. The fast sample is tests/game/test_why.py's review, from a grid.)"""
    status, out, _ = cli(["review", "12121232"])
    blunder = out.splitlines()[6]
    assert status == 0 and blunder.startswith("7 3 blunder ")
    assert blunder.endswith(" why=now Yellow wins at once in column 2 (b1-b4)")
    status, out, _ = cli(["review", "--why-seconds", "0", "12121232"])
    assert "why=" not in out
    found = list(review_game(Board.from_moves("12121232"), solver, explainer=Explainer(), afterwards=None))
    seventh = [item for item in found if item.ply == 7]
    assert seventh[0].why is None and seventh[-1].why == "now Yellow wins at once in column 2 (b1-b4)"
