"""Minimax and alpha-beta on an abstract game tree, with a trace a student can follow.

Seed 002's Exercise 3.1 asks for minimax with alpha-beta cuts on a small tree
(branching 3 at each of three levels, numbers on the leaves): the value of
every node and which branches the cuts remove. This module does that on any
tree a student types, and records *why* each cut happens, because that is what
the exercise is about.

A tree is written in one of two ways (:func:`parse_tree`, :func:`tree_from_branching`):

- nested brackets, one pair per inner node: ``[[3,12,8],[2,4,6],[14,5,2]]``
  (commas or spaces between items; the tree may be irregular);
- a branching and the leaves left to right: ``3x3x3`` and 27 numbers.

Nodes are named by their path from the root: ``A`` is the root, ``A.2`` its
second child, ``A.2.1`` the first child of that, counted in the order the tree
was written (a reordered search still uses these names).

The two searches are written MAX/MIN style, as the seed and most textbooks
write them, rather than as negamax: each node says who is to move there, and
the values are always from MAX's point of view.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from engine.errors import EngineError
from engine.validate import shown

Value = int | float
Order = Literal["given", "best", "worst"]
ORDERS: tuple[Order, ...] = ("given", "best", "worst")

#: Bounds on what may be typed: enough for any exercise, small enough to print.
MAX_NODES = 10_000
MAX_DEPTH = 12
MAX_TEXT = 100_000
MAX_NUMBER_CHARS = 24

#: The shape of seed 002's Exercise 3.1: three levels of three children each.
#: The seed's leaf values are in a figure that its text does not hold, so the
#: numbers below are this program's example, not the seed's.
EXAMPLE_BRANCHING = (3, 3, 3)
EXAMPLE_LEAVES = (3, 12, 8, 2, 4, 6, 14, 5, 2, 5, 1, 4, 9, 3, 7, 2, 11, 6, 7, 9, 1, 10, 2, 5, 2, 8, 3)


class TreeError(EngineError):
    """A tree that cannot be read or is too large; the message says where and why."""


class Player(Enum):
    """Who is to move at a node. MAX wants the largest leaf value, MIN the smallest."""

    MAX = "MAX"
    MIN = "MIN"

    @property
    def other(self) -> Player:
        return Player.MIN if self is Player.MAX else Player.MAX

    def better(self, a: Value, b: Value) -> bool:
        """Is ``a`` strictly better than ``b`` for this player?"""
        return a > b if self is Player.MAX else a < b


@dataclass(frozen=True)
class Node:
    """A node of the tree: a leaf holds a value, an inner node holds children."""

    path: str
    children: tuple[Node, ...] = ()
    value: Value | None = None  # leaves only

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def depth(self) -> int:
        return self.path.count(".")

    def walk(self) -> Iterator[Node]:
        """This node and all below it, in the order the tree was written (pre-order)."""
        yield self
        for child in self.children:
            yield from child.walk()

    def leaves(self) -> list[Node]:
        return [node for node in self.walk() if node.is_leaf]


def player_at(node: Node, root_player: Player) -> Player:
    """Players alternate by level: the root's player on even depths, the other on odd."""
    return root_player if node.depth % 2 == 0 else root_player.other


# -- reading a tree -------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_number(text: str, where: str) -> Value:
    """A leaf value: a whole number stays an ``int``, anything with a point or exponent is a ``float``."""
    if len(text) > MAX_NUMBER_CHARS:
        raise TreeError(f"{where}: a leaf value has at most {MAX_NUMBER_CHARS} characters, not {len(text)}")
    if not _NUMBER.fullmatch(text):
        raise TreeError(f"{where}: {shown(text)} is not a number")
    if re.fullmatch(r"[+-]?[0-9]+", text):
        return int(text)
    value = float(text)
    if not math.isfinite(value):
        raise TreeError(f"{where}: {shown(text)} is too large a number")
    return value


def parse_tree(text: str) -> Node:
    """Read a tree in nested brackets: ``[[3,12,8],[2,4,6],[14,5,2]]``.

    Items are separated by commas, spaces or both. A bare number is a tree of one
    leaf. The reader is a loop with an explicit stack rather than a recursion,
    so that ``[[[[...`` a million deep is an error message, not a crash.
    """
    if not isinstance(text, str) or not text.strip():
        raise TreeError("the tree is empty: write it in brackets, e.g. [[3,12,8],[2,4,6],[14,5,2]]")
    if len(text) > MAX_TEXT:
        raise TreeError(f"the tree's text has {len(text):,} characters; at most {MAX_TEXT:,} are read")
    stack: list[tuple[int, list[object]]] = []  # (where each open bracket is, the items read in it so far)
    result: object = None  # the whole tree, once the outer item is read
    nodes = 0
    last = "open"  # what came last inside the brackets: "open", "item", "comma" or "space" (after an item)
    for match in re.finditer(r"\s+|,|\[|\]|[^\s,\[\]]+", text):
        token = match.group()
        where = f"character {match.start() + 1}"  # characters are counted from 1
        if token.isspace():
            last = "space" if last == "item" else last
            continue
        if token == "," and not stack:
            raise TreeError(f"{where}: a comma outside the brackets (a tree with several children is in [ ])")
        if token == "]" and not stack:
            raise TreeError(f"{where}: unbalanced brackets: this ']' closes nothing")
        if result is not None:
            raise TreeError(f"{where}: {shown(token)} after the end of the tree (its outer brackets are closed)")
        if token == ",":
            if last in ("open", "comma"):
                raise TreeError(f"{where}: a comma with no item before it")
            last = "comma"
            continue
        if token == "]":
            if last == "comma":
                raise TreeError(f"{where}: a comma with no item after it")
            opened, items = stack.pop()
            if not items:
                raise TreeError(
                    f"{where}: an empty subtree '[]' (opened at character {opened}): every inner node needs a child"
                )
            item: object = items
        else:
            if last == "item":
                raise TreeError(f"{where}: a comma or space is missing before {shown(token)}")
            nodes += 1
            if nodes > MAX_NODES:
                raise TreeError(f"the tree has more than {MAX_NODES:,} nodes; at most {MAX_NODES:,} are allowed")
            if token == "[":
                if len(stack) >= MAX_DEPTH:
                    raise TreeError(f"{where}: the tree is deeper than {MAX_DEPTH} levels below the root")
                stack.append((match.start() + 1, []))
                last = "open"
                continue
            item = parse_number(token, where)
        last = "item"
        if stack:
            stack[-1][1].append(item)
        else:
            result = item
    if stack:
        raise TreeError(f"unbalanced brackets: the '[' at character {stack[-1][0]} is never closed")
    return _build(result, "A")


def _build(item: object, path: str) -> Node:
    """Nested lists of numbers -> nodes named by their path (depth is at most MAX_DEPTH here)."""
    if isinstance(item, list):
        return Node(path, tuple(_build(child, f"{path}.{i}") for i, child in enumerate(item, start=1)))
    assert isinstance(item, int | float)
    return Node(path, value=item)


def parse_branching(text: str) -> tuple[int, ...]:
    """``3x3x3`` -> (3, 3, 3): the number of children at each level, root first."""
    parts = text.strip().lower().split("x")
    if not all(re.fullmatch(r"[0-9]{1,4}", part) for part in parts):
        raise TreeError(f"a branching is written like 3x3x3 (children per level, root first), not {shown(text)}")
    branching = tuple(int(part) for part in parts)
    if any(b < 1 for b in branching):
        raise TreeError(f"every level of {shown(text)} needs at least one child")
    if len(branching) > MAX_DEPTH:
        raise TreeError(f"{shown(text)} has {len(branching)} levels; at most {MAX_DEPTH} are allowed")
    nodes = level = 1
    for b in branching:
        level *= b
        nodes += level
        if nodes > MAX_NODES:
            raise TreeError(f"a {text} tree has more than {MAX_NODES:,} nodes; at most {MAX_NODES:,} are allowed")
    return branching


def parse_leaves(text: str) -> list[Value]:
    """Leaf values left to right, separated by commas and/or spaces."""
    if len(text) > MAX_TEXT:
        raise TreeError(f"the leaves' text has {len(text):,} characters; at most {MAX_TEXT:,} are read")
    items = [item for item in re.split(r"[\s,]+", text.strip()) if item]
    if not items:
        raise TreeError("no leaf values given")
    return [parse_number(item, f"leaf {i}") for i, item in enumerate(items, start=1)]


def tree_from_branching(branching: tuple[int, ...], leaves: list[Value]) -> Node:
    """A regular tree: ``branching[k]`` children at depth ``k``, the leaves filled in left to right."""
    expected = math.prod(branching)
    shape = "x".join(map(str, branching))
    if len(leaves) != expected:
        raise TreeError(f"a {shape} tree has {expected} leaves, but {len(leaves)} values were given")
    remaining = iter(leaves)

    def build(path: str, level: int) -> Node:
        if level == len(branching):
            return Node(path, value=next(remaining))
        return Node(path, tuple(build(f"{path}.{i}", level + 1) for i in range(1, branching[level] + 1)))

    return build("A", 0)


def example_tree() -> Node:
    """The default tree: seed 002's 3x3x3 shape with this program's example leaf values."""
    return tree_from_branching(EXAMPLE_BRANCHING, list(EXAMPLE_LEAVES))


def shape(tree: Node) -> str:
    """``3x3x3`` for a regular tree, else a short description of an irregular one."""
    levels: list[set[int]] = []
    leaf_depths = set()
    for node in tree.walk():
        if node.is_leaf:
            leaf_depths.add(node.depth)
            continue
        while len(levels) <= node.depth:
            levels.append(set())
        levels[node.depth].add(len(node.children))
    if not levels:
        return "a single leaf"
    if len(leaf_depths) == 1 and all(len(widths) == 1 for widths in levels):
        return "x".join(str(next(iter(widths))) for widths in levels)
    depths = f"{min(leaf_depths)}-{max(leaf_depths)}" if len(leaf_depths) > 1 else str(min(leaf_depths))
    widths = {w for level in levels for w in level}
    return f"irregular (leaves at depth {depths}, {min(widths)}-{max(widths)} children)"


# -- plain minimax --------------------------------------------------------------------


@dataclass
class MinimaxResult:
    """Every node's minimax value; plain minimax visits every node and evaluates every leaf."""

    values: dict[str, Value]
    nodes: int
    leaves: int

    @property
    def root(self) -> Value:
        return self.values["A"]


def minimax(tree: Node, root_player: Player = Player.MAX) -> MinimaxResult:
    """The minimax value of every node: a leaf's own value, else the best child's value for the player to move."""
    values: dict[str, Value] = {}

    def value(node: Node, player: Player) -> Value:
        if node.is_leaf:
            assert node.value is not None
            values[node.path] = node.value
            return node.value
        child_values = [value(child, player.other) for child in node.children]
        values[node.path] = max(child_values) if player is Player.MAX else min(child_values)
        return values[node.path]

    value(tree, root_player)
    leaves = sum(1 for node in tree.walk() if node.is_leaf)
    return MinimaxResult(values, nodes=len(values), leaves=leaves)


# -- alpha-beta with a trace ---------------------------------------------------------


@dataclass(frozen=True)
class Bound:
    """alpha or beta, and where it came from: the ancestor that raised (or lowered) it and the child that did it.

    alpha is the value MAX is already sure of somewhere above this node; beta the
    value MIN is already sure of. A node whose value falls outside (alpha, beta)
    cannot change the choice of the ancestor that set the bound.
    """

    value: float
    at: str | None = None  # the ancestor whose choice it is (None: the initial -inf / +inf)
    via: str | None = None  # the child of ``at`` that gave the value


@dataclass(frozen=True)
class Enter:
    """Alpha-beta starts on an inner node with the window (alpha, beta)."""

    path: str
    player: Player
    alpha: Bound
    beta: Bound


@dataclass(frozen=True)
class Leaf:
    """Alpha-beta evaluates a leaf."""

    path: str
    value: Value
    alpha: Bound
    beta: Bound


@dataclass(frozen=True)
class Cut:
    """A node stops early: ``value`` (its best so far, after child ``after``) is already outside the window.

    At a MIN node the cut is ``value <= alpha``: MAX above already has alpha and
    will never let play come here. At a MAX node it is ``value >= beta``. The
    children in ``pruned`` are never visited; equal values are cut too, since a
    tie cannot change the choice above.
    """

    path: str
    player: Player
    after: str
    value: Value
    alpha: Bound
    beta: Bound
    pruned: tuple[str, ...]

    @property
    def reason(self) -> str:
        """``value 2 <= alpha 3`` or ``value 14 >= beta 6``."""
        if self.player is Player.MIN:
            return f"value {fmt(self.value)} <= alpha {fmt(self.alpha.value)}"
        return f"value {fmt(self.value)} >= beta {fmt(self.beta.value)}"

    @property
    def bound(self) -> Bound:
        """The bound that caused the cut (alpha at a MIN node, beta at a MAX node)."""
        return self.alpha if self.player is Player.MIN else self.beta


@dataclass(frozen=True)
class Return:
    """An inner node is done and hands ``value`` to its parent.

    After a cut, alpha-beta does not know a node's minimax value, only that it
    is bad enough never to be chosen. ``low`` and ``high`` are what the search
    has proven about the true value from the leaves it evaluated (a child it
    never visited could be anything): equal when the value is exact.
    ``value`` always lies between them.
    """

    path: str
    player: Player
    value: Value
    low: float
    high: float

    @property
    def known(self) -> str:
        """``exact``, ``at most 5``, ``at least 14`` or ``between 3 and 4``."""
        if self.low == self.high:
            return "exact"
        if self.low == -math.inf:
            return f"at most {fmt(self.high)}"
        if self.high == math.inf:
            return f"at least {fmt(self.low)}"
        return f"between {fmt(self.low)} and {fmt(self.high)}"


Event = Enter | Leaf | Cut | Return


@dataclass
class AlphaBetaResult:
    """What alpha-beta found and did: the root value, the move it picks, and the trace."""

    value: Value
    best_child: str | None
    events: list[Event]

    @property
    def visited(self) -> list[str]:
        """Every node alpha-beta looked at, in visiting order."""
        return [event.path for event in self.events if isinstance(event, Enter | Leaf)]

    @property
    def nodes(self) -> int:
        return sum(1 for event in self.events if isinstance(event, Enter | Leaf))

    @property
    def leaves(self) -> int:
        return sum(1 for event in self.events if isinstance(event, Leaf))

    @property
    def cuts(self) -> list[Cut]:
        return [event for event in self.events if isinstance(event, Cut)]

    @property
    def returns(self) -> dict[str, Return]:
        """The :class:`Return` of every inner node that was visited."""
        return {event.path: event for event in self.events if isinstance(event, Return)}


def ordered_children(node: Node, player: Player, order: Order, values: dict[str, Value]) -> list[Node]:
    """The children in the order the search visits them.

    ``given``: as written. ``best``: best first for the player to move, by the
    children's true minimax values (``values``): an oracle no real program has,
    which shows alpha-beta's best case. ``worst``: the reverse, its worst case.
    Ties keep the written order.
    """
    children = list(node.children)
    if order == "given":
        return children
    best_first = sorted(children, key=lambda child: values[child.path], reverse=player is Player.MAX)
    if order == "best":
        return best_first
    return sorted(children, key=lambda child: values[child.path], reverse=player is Player.MIN)


def alphabeta(
    tree: Node,
    root_player: Player = Player.MAX,
    order: Order = "given",
    window: tuple[float, float] = (-math.inf, math.inf),
) -> AlphaBetaResult:
    """Minimax with alpha-beta cuts, recording every step (see :data:`Event`).

    The same search as the seed's pseudocode, written out: a MAX node raises
    alpha as its children return and stops once its best value reaches beta; a
    MIN node lowers beta and stops once its best value falls to alpha. The value
    returned is the best seen ("fail-soft"), so a cut node hands up a bound
    rather than its true value; :class:`Return` says which. ``window`` is the
    (alpha, beta) the root is searched with: seed 003 starts its search with
    (-sys.maxsize, sys.maxsize), and then a win worth sys.maxsize cuts at once.
    """
    if order not in ORDERS:
        raise TreeError(f"the order is one of {', '.join(ORDERS)}, not {order!r}")
    oracle = minimax(tree, root_player).values if order != "given" else {}
    events: list[Event] = []
    choice: dict[str, str] = {}  # node -> the child whose value it took

    def search(node: Node, player: Player, alpha: Bound, beta: Bound) -> tuple[Value, float, float]:
        """The node's alpha-beta value, and the lowest and highest its true value can be."""
        if node.is_leaf:
            assert node.value is not None
            events.append(Leaf(node.path, node.value, alpha, beta))
            return node.value, node.value, node.value
        events.append(Enter(node.path, player, alpha, beta))
        children = ordered_children(node, player, order, oracle)
        best: Value = -math.inf if player is Player.MAX else math.inf
        lows, highs = [], []
        for index, child in enumerate(children):
            value, low, high = search(child, player.other, alpha, beta)
            lows.append(low)
            highs.append(high)
            if node.path not in choice or player.better(value, best):
                best, choice[node.path] = value, child.path
            rest = _paths(children[index + 1 :])
            if player is Player.MAX:
                if best >= beta.value and rest:  # MIN above already has beta: it never lets play come here
                    events.append(Cut(node.path, player, child.path, best, alpha, beta, rest))
                    break
                if best > alpha.value:
                    alpha = Bound(best, node.path, child.path)
            else:
                if best <= alpha.value and rest:  # MAX above already has alpha: it never lets play come here
                    events.append(Cut(node.path, player, child.path, best, alpha, beta, rest))
                    break
                if best < beta.value:
                    beta = Bound(best, node.path, child.path)
        if len(lows) < len(children):  # a cut: the children never visited could hold any value
            lows.append(-math.inf)
            highs.append(math.inf)
        pick = max if player is Player.MAX else min
        low, high = pick(lows), pick(highs)
        events.append(Return(node.path, player, best, low, high))
        return best, low, high

    value, _, _ = search(tree, root_player, Bound(window[0]), Bound(window[1]))
    return AlphaBetaResult(value, choice.get(tree.path), events)


def _paths(nodes: list[Node]) -> tuple[str, ...]:
    return tuple(node.path for node in nodes)


def fmt(value: float) -> str:
    """A value as people write it: ``3``, ``2.5``, ``-inf``, ``+inf``."""
    if value == math.inf:
        return "+inf"
    if value == -math.inf:
        return "-inf"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)
