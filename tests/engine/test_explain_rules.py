"""Each of Allis's rules on a position from Pons's sets where it is needed: found, named, checked, necessary."""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.explain.cells import cells_of
from engine.explain.explainer import Explainer
from engine.explain.prove import RULES, prove
from engine.geometry import Geometry
from engine.solver.auto import AutoSolver

#: rule -> (position, exact score, the defender wins): a position whose reason needs the rule.
NEEDED = {
    "claimeven": ("23163416124767223154467471272416755633", 0, False),
}


@pytest.mark.parametrize("rule", list(NEEDED))
def test_a_position_that_needs_the_rule(rule: str) -> None:
    moves, score, wins = NEEDED[rule]
    board = Board.from_moves(moves)
    cells = cells_of(Geometry())
    mover, defender = board.current, board.mask ^ board.current
    leaf = prove(cells, mover, defender, wins)
    assert leaf is not None and leaf.kind == "rules"
    assert rule in {item.rule for item in leaf.instances}
    without = [module for module in RULES if rule != module.NAME]
    assert prove(cells, mover, defender, wins, without) is None  # no other rule set holds here
    assert int(AutoSolver().solve(board).score.value) == score


@pytest.mark.parametrize("rule", list(NEEDED))
def test_the_explanation_names_the_rule_in_words_and_data(rule: str) -> None:
    moves, score, _ = NEEDED[rule]
    explanation = Explainer(plies=0).explain(moves)
    assert explanation.score == score and explanation.claim is not None
    assert rule in {reason.rule for reason in explanation.rules}
    assert f"({rule})" in explanation.text
