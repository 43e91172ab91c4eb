"""The first divergence of a search, in words and in a picture, on the exercise's example tree."""

from __future__ import annotations

from engine.grade.pictures import draw_divergence
from engine.grade.trees import GameTree, Reference, first_divergence
from engine.tree import EXAMPLE_BRANCHING, EXAMPLE_LEAVES, Player, tree_from_branching
from engine.tree import minimax as plain_minimax


def _reference() -> Reference:
    root = tree_from_branching(EXAMPLE_BRANCHING, list(EXAMPLE_LEAVES))
    tree = GameTree(root)
    for node in root.walk():
        tree.moves[node.path] = tuple(int(p) for p in node.path.split(".")[1:])
        tree.keys[node.path] = node.path
        tree.by_moves[tree.moves[node.path]] = node.path
        if node.is_leaf:
            tree.leaf_reason[node.path] = "it is a leaf"
    return Reference.of(tree, Player.MAX)


def _diverge(reference: Reference, visits: list[str]):
    return first_divergence(reference, visits, lambda p: p, lambda i: visits[i] if i < len(visits) else "?")


def test_the_same_visits_do_not_diverge():
    reference = _reference()
    assert _diverge(reference, reference.visited()) is None


def test_a_search_without_cuts_is_told_where_the_reference_cuts():
    reference = _reference()
    every = [node.path for node in reference.tree.root.walk()]  # plain minimax: every node, in order
    divergence = _diverge(reference, every)
    assert divergence is not None
    assert divergence.ours == reference.visited()[divergence.index]
    assert "stops trying moves at" in divergence.said and "alpha >= beta" in divergence.said
    assert f"never visits {divergence.theirs}" in divergence.said


def test_a_search_that_stops_early_is_told_why_the_reference_goes_on():
    reference = _reference()
    visits = reference.visited()[:5]
    divergence = _diverge(reference, visits)
    assert divergence is not None and divergence.index == 5 and divergence.theirs is None
    assert "your search stops" in divergence.said and "alpha =" in divergence.said


def test_another_order_is_named():
    reference = _reference()
    visits = list(reference.visited())
    first, second = visits.index("A.1.1"), visits.index("A.1.2")
    visits[first], visits[second] = visits[second], visits[first]
    divergence = _diverge(reference, visits)
    assert divergence is not None and "another order" in divergence.said


def test_the_picture_is_a_png(tmp_path):
    reference = _reference()
    every = [node.path for node in reference.tree.root.walk()]
    divergence = _diverge(reference, every)
    assert divergence is not None
    path = draw_divergence(reference, divergence.ours, divergence.theirs, {}, tmp_path / "d.png", "minimax, a test")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert plain_minimax(reference.tree.root).root == reference.value
