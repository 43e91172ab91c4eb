"""The live analysis: book and estimates at once, exact values as the solver finishes, stops at once."""

from __future__ import annotations

import threading

import pytest

from engine import Board, Geometry
from engine.analysis import Analyst, PositionAnalysis
from engine.bench.solver import PONS
from engine.limits import NO_LIMITS, Limits
from engine.outcome import score_words
from engine.score import Score
from engine.stop import StopFlag
from tests.waiting import wait_until

G = Geometry()
needs_pons = pytest.mark.skipif(not PONS.is_dir(), reason="shared/benchmarks/pons is not beside the repository")


@pytest.fixture(scope="module")
def analyst() -> Analyst:
    return Analyst(G, table_mb=8, estimate_seconds=0.1)


def _exact(snapshot: PositionAnalysis) -> list[str]:
    return ["x" if v is None else str(v) if v.is_exact else "~" for v in snapshot.values]


@needs_pons
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R2", "Test_L1_R1"])
def test_final_values_are_the_solver_s_and_every_exact_value_on_the_way_too(analyst: Analyst, name: str) -> None:
    lines = (PONS / f"{name}.analysis.txt").read_text().splitlines()[:8]
    for line in lines:
        moves, *expected = line.split()
        snapshots = list(analyst.analyze(Board.from_moves(moves), NO_LIMITS))  # no bound: every value exact
        assert snapshots[0].stage == "book" and snapshots[-1].finished
        assert _exact(snapshots[-1]) == expected
        for snapshot in snapshots:  # an exact value is never replaced by a different one
            assert all(got in ("~", want) for got, want in zip(_exact(snapshot), expected, strict=True))


def test_the_book_answers_the_opening_at_once(analyst: Analyst) -> None:
    first = next(analyst.analyze(Board()))
    assert first.stage == "book"
    assert first.values[3] == Score.pons(1)  # the centre wins (the book's best move)
    assert first.best_columns == (3,)


def test_estimates_come_before_exact_values_and_solving_names_its_column(analyst: Analyst) -> None:
    stages = [(s.stage, s.solving) for s in analyst.analyze(Board.from_moves("4453432"))]  # solved in moments
    assert stages[0][0] == "book" and stages[1][0] == "estimate"
    solving = [col for stage, col in stages if stage == "solve"]
    assert solving and len(set(solving)) == len(solving)
    assert stages[-1][0] == "done"


def test_a_full_column_stays_blank_and_a_win_now_is_exact_at_once(analyst: Analyst) -> None:
    full = Board.from_moves("1111112")
    values = next(analyst.analyze(full)).values
    assert values[0] is None and all(v is not None for v in values[1:])
    win = Board.from_moves("121212")
    assert next(analyst.analyze(win)).values[0] == Score.pons(18)  # win with the 7th stone: (44 - 7) // 2


def test_stop_ends_a_long_solve_at_once() -> None:
    analyst = Analyst(G, table_mb=8, book=False, estimate_seconds=0.05)
    stop = StopFlag()
    seen: list[PositionAnalysis] = []

    def run() -> None:
        for snapshot in analyst.analyze(Board.from_moves("4"), Limits(stop=stop)):  # minutes of solving without a book
            seen.append(snapshot)

    thread = threading.Thread(target=run)
    thread.start()
    wait_until(lambda: any(s.stage == "solve" for s in seen), 30, "the solve stage")
    stop.set()
    thread.join(5)  # a generous bound: the solver stops within 50 ms
    assert not thread.is_alive()
    assert not seen[-1].finished and seen[-1].stage == "solve"


def test_words_for_exact_values_and_estimates() -> None:
    assert score_words(Score.pons(1), 0, G) == "Win in 21"
    assert score_words(Score.pons(0), 10, G) == "Draw"
    assert score_words(Score.estimate(0.42), 3, G) == "≈ +0.4"


def test_the_solve_stage_is_bounded_and_keeps_its_estimates() -> None:
    """8x8 after 45: no column is solved in a second, so the run ends 'unsolved' with the estimates it had."""
    geometry = Geometry(8, 8, 4)
    analyst = Analyst(geometry, table_mb=8, estimate_seconds=0.05)
    board = Board.from_moves("45", geometry)
    snapshots = list(analyst.analyze(board, Limits(seconds=1.0)))
    estimate = next(s for s in snapshots if s.stage == "estimate")
    last = snapshots[-1]
    assert last.stage == "unsolved" and last.ended and not last.finished
    assert last.solving is None and last.values == estimate.values  # the estimates, kept as they were
    assert any(value is not None and not value.is_exact for value in last.values)
    assert last.exact_count < last.playable == 8


def test_a_bounded_run_that_finishes_in_time_is_done() -> None:
    analyst = Analyst(G, table_mb=8, estimate_seconds=0.05)
    last = list(analyst.analyze(Board.from_moves("4453432"), Limits(seconds=60.0)))[-1]
    assert last.stage == "done" and last.finished and last.exact_count == last.playable
