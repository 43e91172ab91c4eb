"""Searches as trees, and where a student's search first leaves the reference's: the CS188 way of marking.

A search question runs the student's function with a fixed move order on a
small tree (a real position to a few plies, or an abstract tree) and records
what it visits, as the assignment counts it. The reference visits the same
tree with :func:`engine.tree.alphabeta`; a position's game tree is first
turned into an :class:`engine.tree.Node` tree (:class:`GameTree`), whose leaves
hold the evaluation. The two visiting orders are then compared
(:func:`first_divergence`): the first node where they differ, what the
student's search did there, what the reference does, and why, in words drawn
from the reference's own trace (its cuts, with the alpha and beta that caused
them, and its leaves).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.tree import AlphaBetaResult, Cut, Enter, Leaf, MinimaxResult, Node, Player, alphabeta, fmt, minimax

#: A tree has at most this many nodes (a search question's tree is small on purpose).
MAX_TREE_NODES = 20_000


@dataclass
class GameTree:
    """A game tree as an :class:`engine.tree.Node` tree, with what each node stands for.

    ``moves[path]`` is the line of moves from the root (columns), ``keys[path]`` the
    position's key, ``leaf_reason[path]`` why a leaf stops there ("depth 2 reached",
    "X has won", "the board is full"), ``labels[path]`` a short name for the drawing.
    """

    root: Node
    moves: dict[str, tuple[int, ...]] = field(default_factory=dict)
    keys: dict[str, Hashable] = field(default_factory=dict)
    leaf_reason: dict[str, str] = field(default_factory=dict)
    by_moves: dict[tuple[int, ...], str] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        root: Any,
        children: Callable[[Any], list[tuple[int, Any]]],
        leaf: Callable[[Any, int], tuple[float, str] | None],
        key: Callable[[Any], Hashable],
    ) -> GameTree:
        """The tree below the position ``root``: ``children(position)`` are ``(column, position)`` in the
        order the search tries them; ``leaf(position, depth)`` is ``(value, reason)`` where the search
        stops, else None. Raises ValueError past :data:`MAX_TREE_NODES` nodes."""
        tree = cls(Node("A"))
        count = [0]

        def build(position: Any, path: str, line: tuple[int, ...]) -> Node:
            count[0] += 1
            if count[0] > MAX_TREE_NODES:
                raise ValueError(f"the tree has more than {MAX_TREE_NODES:,} nodes")
            tree.moves[path], tree.keys[path] = line, key(position)
            tree.by_moves[line] = path
            stop = leaf(position, len(line))
            nexts = [] if stop is not None else children(position)
            if not nexts:
                value, reason = stop if stop is not None else (0, "no move left")
                tree.leaf_reason[path] = reason
                return Node(path, value=value)
            kids = tuple(
                build(child, f"{path}.{i}", (*line, column)) for i, (column, child) in enumerate(nexts, start=1)
            )
            return Node(path, kids)

        tree.root = build(root, "A", ())
        return tree

    def parent(self, path: str) -> str | None:
        return path.rsplit(".", 1)[0] if "." in path else None

    def path_of(self, line: tuple[int, ...] | None) -> str | None:
        """The node reached by ``line`` (columns from the root); ``LEAF.+COLUMN`` one move below a leaf
        (a search that goes deeper than this tree); None for anything else."""
        if line is None:
            return None
        if line in self.by_moves:
            return self.by_moves[line]
        above = self.by_moves.get(line[:-1]) if line else None
        if above is not None and above in self.leaf_reason:
            return f"{above}.+{line[-1]}"
        return None


@dataclass(frozen=True)
class Reference:
    """What the reference search does on a tree: every node's minimax value and alpha-beta's trace."""

    tree: GameTree
    root_player: Player
    plain: MinimaxResult
    search: AlphaBetaResult

    @classmethod
    def of(cls, tree: GameTree, root_player: Player, window: tuple[float, float] = (-math.inf, math.inf)) -> Reference:
        """The reference on ``tree``, its search started with the ``(alpha, beta)`` the student's is called with."""
        return cls(tree, root_player, minimax(tree.root, root_player), alphabeta(tree.root, root_player, window=window))

    @property
    def value(self) -> float:
        return self.plain.root

    def best_moves(self) -> set[int]:
        """The root's columns whose minimax value is the root's: any of them is a right answer."""
        return {self.tree.moves[c.path][-1] for c in self.tree.root.children if self.plain.values[c.path] == self.value}

    def visited(self) -> list[str]:
        return self.search.visited


@dataclass(frozen=True)
class Divergence:
    """The first node where the student's search leaves the reference's.

    ``index`` counts visits from 0; ``ours`` and ``theirs`` are the node each search visits there
    (None: that search had ended); ``said`` the whole story in words.
    """

    index: int
    ours: str | None
    theirs: str | None
    theirs_text: str  # the student's node in words (it may be no node of the tree)
    said: str


def first_divergence(
    reference: Reference,
    student: Sequence[str | None],
    describe: Callable[[str], str],
    student_text: Callable[[int], str],
    visits: str = "calls",
    ours: list[str] | None = None,
) -> Divergence | None:
    """Where ``student`` (the tree paths the student's search visited, None for a node the tree does not
    have) first differs from the reference's visiting order; None when they are the same.

    ``describe(path)`` names a node for people ("the board after O 3, X 4"); ``student_text(i)`` the
    student's i-th visit (for a node the tree does not have); ``visits`` what one visit is ("calls");
    ``ours`` the reference's order if not every visit counts (each position once: its first visit).
    """
    ours = reference.visited() if ours is None else ours
    for index in range(max(len(ours), len(student))):
        mine = ours[index] if index < len(ours) else None
        theirs = student[index] if index < len(student) else None
        if index < len(ours) and index < len(student) and mine == theirs:
            continue
        ended = index >= len(student)
        theirs_text = "nothing (its search had ended)" if ended else student_text(index)
        said = _story(reference, index, mine, theirs, ended, theirs_text, describe, ours, visits)
        return Divergence(index, mine, theirs, theirs_text, said)
    return None


def _story(
    reference: Reference,
    index: int,
    mine: str | None,
    theirs: str | None,
    ended: bool,
    theirs_text: str,
    describe: Callable[[str], str],
    ours: list[str],
    visits: str,
) -> str:
    """The divergence in words: what happened, and the reference's reason.

    ``theirs`` may be a node below a leaf of the reference's tree, written ``LEAF.+N`` (the student's
    search went deeper than the reference's).
    """
    tree = reference.tree
    before = ours[index - 1] if index > 0 else None
    opening = f"The first {index} {visits} agree" + (f" (the last on {describe(before)})" if before else "") + ". "
    if mine is None:
        return (
            opening
            + (
                f"Then the reference's search is over ({len(ours)} {visits}), but yours goes on to {theirs_text}. "
                + (_why_not(reference, theirs, describe) if theirs is not None else "")
            ).rstrip()
        )
    if ended:
        return (
            opening
            + f"Then your search stops, but the reference goes on to {describe(mine)}. "
            + _why_visit(reference, mine, describe)
        )
    head = opening + f"Next the reference visits {describe(mine)}; yours visits {theirs_text}. "
    if theirs is None:
        return head + "That is not a position of the tree the reference searches: check how you make and undo moves."
    mine_parent, theirs_parent = tree.parent(mine), tree.parent(theirs)
    if before is not None and theirs_parent == before and mine_parent != before:
        return head + f"The reference does not look below {describe(before)}: {tree.leaf_reason.get(before, '')}."
    if before is not None and mine_parent == before and theirs_parent != before:
        return head + f"Your search did not look below {describe(before)}; " + _why_visit(reference, mine, describe)
    if mine_parent == theirs_parent and mine_parent is not None:
        return head + (
            f"Both are moves from {describe(mine_parent)}, tried in another order: "
            f"the reference tries the moves in the order {_order(reference, mine_parent)}."
        )
    return head + (_why_not(reference, theirs, describe) or _why_visit(reference, mine, describe))


def _why_not(reference: Reference, node: str, describe: Callable[[str], str]) -> str:
    """Why the reference never visits ``node`` (a cut above it, or a leaf), in words; "" if it cannot say."""
    for event in reference.search.events:
        if isinstance(event, Cut) and any(_within(node, p) for p in event.pruned):
            return _cut_words(event, describe) + f" So it never visits {_named(node, describe)}."
    parent = reference.tree.parent(node)
    if parent is not None and parent in reference.tree.leaf_reason:
        return f"The reference does not look below {describe(parent)}: {reference.tree.leaf_reason[parent]}."
    return ""


def _cut_words(cut: Cut, describe: Callable[[str], str]) -> str:
    """A cut as a student would say it: who stops where, and the bound that made it stop."""
    bound = cut.bound
    origin = "its starting value" if bound.at is None else f"set at {describe(bound.at)}"
    if cut.player is Player.MIN:
        rule = f"{_number(cut.value)} <= alpha = {_number(bound.value)} ({origin})"
        who = "MIN moves there and already has a reply worth"
    else:
        rule = f"{_number(cut.value)} >= beta = {_number(bound.value)} ({origin})"
        who = "MAX moves there and already has a move worth"
    return (
        f"The reference stops trying moves at {describe(cut.path)} once {describe(cut.after)} is searched: {who} "
        f"{rule}, so alpha >= beta and the moves left there cannot change the choice above."
    )


def _why_visit(reference: Reference, node: str, describe: Callable[[str], str]) -> str:
    """Why the reference does visit ``node``: the window it enters it with allows no cut."""
    for event in reference.search.events:
        if event.path == node and isinstance(event, Enter | Leaf):
            alpha, beta = event.alpha.value, event.beta.value
            return (
                f"the reference goes on there, since alpha = {_number(alpha)} < beta = {_number(beta)}: "
                "only alpha >= beta stops the moves of a node."
            )
    return ""


def _named(node: str, describe: Callable[[str], str]) -> str:
    try:
        return describe(node)
    except KeyError:
        return "that board"


def _within(path: str, ancestor: str) -> bool:
    return path == ancestor or path.startswith(ancestor + ".")


def _order(reference: Reference, parent: str) -> str:
    node = _node(reference.tree.root, parent)
    columns = [reference.tree.moves[child.path][-1] for child in node.children] if node else []
    return ", ".join(str(column) for column in columns)


def _node(root: Node, path: str) -> Node | None:
    for node in root.walk():
        if node.path == path:
            return node
    return None


def _number(value: float) -> str:
    if value in (math.inf, -math.inf):
        return fmt(value)
    if abs(value) == 9223372036854775807:
        return ("" if value > 0 else "-") + "sys.maxsize"
    return fmt(value)
