"""The order of a solve's null-window questions (engine.solver.questions)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.solver.questions import EARLY_EMPTY, next_question

CELLS = 45  # a 9x5 board
EARLY = CELLS - EARLY_EMPTY  # the most stones of an early position
LOW, HIGH = -19, 20  # the scores a position of 6 stones of 9x5 can have


def questions_for(score: int, low: int, high: int, ply: int, cells: int = CELLS) -> list[int]:
    """The questions a solve asks of a position scoring ``score``, each answered exactly."""
    asked = []
    while low < high:
        value = next_question(low, high, ply, cells)
        assert low <= value < high, (low, high, value)
        asked.append(value)
        if score > value:
            low = value + 1
        else:
            high = value
    assert low == score
    return asked


@given(st.data(), st.integers(0, 80), st.integers(0, 40))
def test_every_order_ends_at_the_score(data: st.DataObject, ply: int, empty: int) -> None:
    low = data.draw(st.integers(-40, 40))
    high = data.draw(st.integers(low, low + 80))
    score = data.draw(st.integers(low, high))
    assert len(questions_for(score, low, high, ply, ply + empty)) <= high - low


def test_an_early_position_is_asked_far_questions_then_its_sign_then_one_score_at_a_time() -> None:
    assert questions_for(2, LOW, HIGH, 6) == [-9, 10, 0, 1, 2]
    assert questions_for(-2, LOW, HIGH, EARLY) == [-9, 10, 0, -1, -2, -3]
    assert questions_for(0, LOW, HIGH, 6) == [-9, 10, 0, -1]
    # A far question that says "yes" leaves no sign to ask: the steps start where it left off.
    assert questions_for(13, LOW, HIGH, 6) == [-9, 10, 11, 12, 13]


def test_the_first_moves_are_asked_their_sign_at_once() -> None:
    assert questions_for(1, -21, 21, 0, 42)[0] == 0
    assert questions_for(-1, -20, 21, 3, 42)[0] == 0


def test_a_later_position_narrows_the_interval_before_the_scores_next_to_zero() -> None:
    asked = questions_for(2, LOW, HIGH, EARLY + 1)
    assert asked[:3] == [-9, 10, 5]  # halving the interval on both sides while the sign is open
    assert {0, 1, 2} <= set(asked)  # and, next to 0, one score at a time
