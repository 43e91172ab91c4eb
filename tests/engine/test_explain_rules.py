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
    "claimeven": ("3324524346452572767551333257727114", 0, False),
    "baseinverse": ("332166312711276477164432435466555521", 0, False),
    "vertical": ("74425337641465475671176741236615215533", 0, False),
    "aftereven": ("6216633712715125334265163163777225", -3, True),
    "lowinverse": ("332126451112643722513156", 0, False),
    "highinverse": ("4465756641755717", -3, True),
    "baseclaim": ("1155112222474364733743566614614525", 0, False),
    "before": ("17227416631324662771525327416733165", -1, True),
    "specialbefore": ("6171331275655636334422443721644156", 0, False),
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
