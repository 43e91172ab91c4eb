"""Allis's whole-board strategies for the second player, found by the rules from the start of the game."""

from __future__ import annotations

import pytest

from engine.explain.explainer import Explainer
from engine.explain.explanation import CANNOT_WIN
from engine.explain.prove import RULE_NAMES
from engine.geometry import Geometry


@pytest.mark.parametrize(("cols", "rows", "moves"), [(4, 4, ""), (6, 6, ""), (7, 6, "14"), (7, 6, "34")])
def test_whole_board_strategies_of_the_second_player(cols: int, rows: int, moves: str) -> None:
    """As in Allis's thesis: on 6x6 (and 4x4) from the empty board, and on 7x6 after a first move beside the
    middle answered in the middle, the second player's rules hold from here to the end of the game."""
    explanation = Explainer(Geometry(cols, rows), plies=0).explain(moves)
    assert explanation.claim == CANNOT_WIN and explanation.line == ""
    rules = {reason.rule for reason in explanation.rules}
    assert "claimeven" in rules and rules <= set(RULE_NAMES)
