"""Reasons from several threats, and reasons many moves ahead: each one re-solved before it counts."""

from __future__ import annotations

import random

import pytest

from engine.board import Board
from engine.explain import forcing
from engine.explain.cells import cells_of
from engine.explain.explainer import Explainer, _Oracle
from engine.explain.explanation import MOVER_WINS, OPPONENT_WINS
from engine.explain.field import fields
from engine.explain.forcing import Forcing, OutOfTime, leaf_claims
from engine.explain.prove import RULES
from engine.geometry import Geometry
from engine.limits import NO_LIMITS
from engine.solver.auto import AutoSolver
from engine.stop import StopFlag
from tests.engine.exhaustive import random_position

#: Yellow to move (Pons's Test_L2_R2, score -2): Red's threats at d4 and d5, one above the other.
STACKED = "15312553532356723125741161326"
#: Red to move (score -4): Yellow's threats at d5 and e3 are both needed for zugzwang.
TWO_THREATS = "23225744227127613717766633114613"
#: Red to move (score -1): Yellow's threat at b6 keeps the parity; without aftereven it is the reason.
EVEN_THREAT = "6763525635134453444361412671365712"
#: Red to move and win at the end (good play, 16 stones): the reason lies more than 16 plies ahead.
DEEP = "4444455555217777"


@pytest.fixture(scope="module")
def solver() -> AutoSolver:
    return AutoSolver()


def confirmed(board: Board, proof: forcing.Proof, solver: AutoSolver) -> int:
    """How many reasons inside ``proof`` the solver confirms (it fails the test at the first it does not)."""
    claims = leaf_claims(board, proof)
    for after, defender_wins in claims:
        position = Board.from_moves(list(board.history) + [int(c) - 1 for c in after], board.geometry)
        value = int(solver.solve(position).score.value)
        assert value < 0 if defender_wins else value <= 0, after
    return len(claims)


def test_two_threats_one_above_the_other_freeze_their_column_from_two_cells_below(solver: AutoSolver) -> None:
    """If Yellow plays d2, Red takes d3 and wins above Yellow's block: neither side plays d2 (zugzwang)."""
    explanation = Explainer(plies=0).explain(STACKED)
    assert explanation.score == -2 and explanation.claim == OPPONENT_WINS
    stacked = next(reason for reason in explanation.rules if reason.rule == "stacked-threat")
    assert stacked.cells == ("d4", "d5", "d3", "d2") and stacked.player == "Red"
    assert "d4 and, on top of it, d5" in explanation.text and "Yellow must play d2 (zugzwang)" in explanation.text
    field = explanation.proof.field
    geometry = Geometry()
    assert field is not None and field.stacked == field.threats == geometry.cell(3, 3)
    assert field.poison == geometry.cell(3, 1) and confirmed(Board.from_moves(STACKED), explanation.proof, solver) == 1


def test_threats_in_two_columns_give_zugzwang_together() -> None:
    explanation = Explainer(plies=0).explain(TWO_THREATS)
    assert explanation.score == -4 and explanation.claim == OPPONENT_WINS
    assert [reason.rule for reason in explanation.rules] == ["odd-threat", "odd-threat"]
    assert "threats at d5 (a5-d5) and e3 (c1-f4)" in explanation.text and "d4 or e2" in explanation.text
    board = Board.from_moves(TWO_THREATS)
    cells = cells_of(board.geometry)
    mover, defender = board.current, board.mask ^ board.current
    assert explanation.proof.field.threats.bit_count() == 2
    assert not [one for one in fields(cells, mover, defender) if one.threats.bit_count() == 1]  # one alone: no


def test_a_threat_that_keeps_the_parity_is_a_reason_too() -> None:
    """Yellow's threat at b6 with b5 empty: frozen together (two cells), the rest stays Yellow's to follow."""
    without = [rule for rule in RULES if rule.NAME != "aftereven"]
    explanation = Explainer(plies=0, rules=without).explain(EVEN_THREAT)
    assert explanation.score == -1 and explanation.claim == OPPONENT_WINS
    assert [reason.rule for reason in explanation.rules] == ["even-threat"]
    assert explanation.rules[0].cells == ("b6", "b5") and explanation.rules[0].line == "b6-e3"


def test_a_deeper_look_ahead_explains_good_play_and_every_reason_in_it_holds(solver: AutoSolver) -> None:
    assert Explainer(solver=solver, plies=16).explain(DEEP).claim is None
    explanation = Explainer(solver=solver).explain(DEEP)
    assert explanation.score == 1 and explanation.claim == MOVER_WINS
    assert confirmed(Board.from_moves(DEEP), explanation.proof, solver) > 10


def test_each_position_of_a_tree_is_one_claim(solver: AutoSolver) -> None:
    board = Board.from_moves(DEEP)
    claims = leaf_claims(board, Explainer(solver=solver).explain(DEEP).proof)
    ends = [Board.from_moves(DEEP + after).key() for after, _ in claims]
    assert len(ends) == len(set(ends))


def test_the_look_ahead_stops_on_the_flag_and_gives_up_past_its_positions(
    solver: AutoSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board.from_moves(DEEP)
    after = board.copy()
    after.play(4)  # (Red's winning move)
    oracle = _Oracle(solver, NO_LIMITS, None)
    stop = StopFlag()
    stop.set()
    with pytest.raises(OutOfTime):
        Forcing(oracle.signs, 24, stop=stop).defend(after, True)
    monkeypatch.setattr(forcing, "NODES", 50)
    assert Forcing(oracle.signs, 24).attack(board, oracle(board)) is None
    monkeypatch.undo()
    assert Forcing(oracle.signs, 24).attack(board, oracle(board)) is not None


@pytest.mark.parametrize(("cols", "rows"), [(5, 4), (4, 5), (5, 5)])
def test_deep_reasons_on_small_boards_hold_by_the_solver(cols: int, rows: int) -> None:
    """Early positions (4 to 8 stones), where a reason must look far ahead, some of it to the end of the game."""
    geometry = Geometry(cols, rows, 4)
    solver = AutoSolver(geometry, book=False, table_mb=8)
    explainer = Explainer(geometry, solver=solver)
    rng = random.Random(cols * 10 + rows)
    explained = 0
    for _ in range(9):
        board = Board.from_moves(random_position(geometry, rng.randrange(4, 9), rng), geometry)
        if board.is_over:
            continue
        explanation = explainer.explain(board)
        assert explanation.score == int(solver.solve(board).score.value)
        if explanation.claim is not None:
            explained += 1
            confirmed(board, explanation.proof, solver)
    assert explained >= 6
