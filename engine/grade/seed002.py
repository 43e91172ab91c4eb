"""Seed 002 (IART Exercise 3): minimax with alpha-beta on an abstract tree, and the evaluation helpers on its State.

Exercise 3.1 is marked the CS188 way: the student's ``minimax(state, depth,
playerMax, alpha, beta)``, the seed's own pseudocode, runs on trees of numbers
(each state has ``isEndState()`` and ``validMoves()``; the grader's
``evalFunct(state)`` gives a leaf's number), and every state it is called on,
in order, is compared with alpha-beta's (:func:`engine.tree.alphabeta`). The
seed's own leaf values are in a figure its text does not hold, so the cases are
this program's example on the exercise's 3x3x3 shape and hidden trees.

``nlines4``, ``nlines3`` and ``central`` take the seed's ``State`` (``board[HEI][WID]``
of 0 / 1 / 2 with row 0 at the bottom, as its ``execute_movement`` fills it,
``player``, ``nmoves``) and a player. ``nlines3`` counts windows of four with
three of the player's pieces and an empty cell; the reading where the empty
cell ends the window ("three pieces followed by an empty spot") is right too.
The seed gives no points: each question is worth 10.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from engine.grade import values
from engine.grade.cases import drawn, random_cells, rng
from engine.grade.model import Assignment, Case, Question, Reply, Verdict
from engine.grade.reference import seed002 as ref
from engine.grade.trees import GameTree, Reference, first_divergence
from engine.tree import EXAMPLE_BRANCHING, EXAMPLE_LEAVES, Node, Player, tree_from_branching

SYMBOLS = {0: ".", 1: "1", 2: "2"}


# -- the evaluation helpers ------------------------------------------------------------------------
def _state_request(function: str, cells: list[list[int]], player: int) -> dict[str, Any]:
    bottom_first = cells[::-1]  # the seed's board: row 0 at the bottom
    moves = sum(1 for row in cells for cell in row if cell)
    return {
        "function": function,
        "args": [{"state002": {"board": bottom_first, "player": 1 + moves % 2, "nmoves": moves}}, player],
    }


def nlines3_ends(st: ref.State, player: int) -> int:
    """The other reading of nlines3: three in a row with the empty cell at an end of the window."""
    return sum(
        1
        for cells in ref.windows(st.board)
        if cells.count(player) == 3 and cells.count(0) == 1 and cells.index(0) in (0, 3)
    )


def helper_question(name: str, function: Callable[[ref.State, int], int], expects: str) -> Question:
    def cases(seed: int) -> list[Case]:
        generator = rng(seed, "seed002", name)
        found = []
        for k in range(1, 13):
            cells, _, _ = random_cells(generator, 6, 7, generator.randint(3, 30), stop_at_win=k % 3 != 0)
            state = ref.State()
            state.board = [row[:] for row in cells[::-1]]
            player = generator.choice((1, 2))
            expected = {function(state, player)}
            if name == "nlines3":
                expected.add(nlines3_ends(state, player))
            request = _state_request(name, cells, player)
            found.append(Case(f"hidden {k}, player {player}", request, sorted(expected), True, drawn(cells, SYMBOLS)))
        return found

    def check(case: Case, reply: Reply) -> Verdict:
        got = values.integer(reply.get("value"))
        if got in case.expected:
            return Verdict.right()
        if got is None:
            return Verdict.wrong(f"returned {values.shown(reply.get('value'))}; {name} returns a whole number")
        return Verdict.wrong(f"returned {got}; the reference gives {' or '.join(map(str, case.expected))}")

    return Question(name, 10, f"{name}(st, player)", expects, cases, check)


# -- minimax on a tree --------------------------------------------------------------------------------
def tree_cases(seed: int) -> list[Case]:
    found = [
        _tree_case(
            "the exercise's 3x3x3 shape with this program's example values", list(EXAMPLE_LEAVES), EXAMPLE_BRANCHING
        )
    ]
    generator = rng(seed, "seed002", "minimax")
    shapes = ((3, 3, 3), (3, 3, 3), (3, 3, 3), (2, 3, 2), (3, 2, 3), (2, 2, 2, 2))
    for k, shape in enumerate(shapes, start=1):
        leaves: list[int | float] = [generator.randint(-10, 20) for _ in range(math.prod(shape))]
        found.append(_tree_case(f"hidden {k}: a {'x'.join(map(str, shape))} tree", leaves, shape, k % 3 == 0, True))
    irregular = Node("A", (Node("A.1", value=4), tree_from_branching((2, 2), [3, 9, 1, 6]), Node("A.3", value=2)))
    found.append(_tree_case("hidden 7: an irregular tree", [], (), hidden=True, tree=_renamed(irregular)))
    return found


def _renamed(node: Node, path: str = "A") -> Node:
    if node.is_leaf:
        return Node(path, value=node.value)
    return Node(path, tuple(_renamed(child, f"{path}.{i}") for i, child in enumerate(node.children, start=1)))


def _lists(node: Node) -> Any:
    return node.value if node.is_leaf else [_lists(child) for child in node.children]


def _tree_case(
    label: str,
    leaves: list[int | float],
    shape: tuple[int, ...],
    min_first: bool = False,
    hidden: bool = False,
    tree: Node | None = None,
) -> Case:
    root = tree if tree is not None else tree_from_branching(shape, leaves)
    game = GameTree(root)
    for node in root.walk():
        game.moves[node.path] = tuple(int(part) for part in node.path.split(".")[1:])
        game.keys[node.path] = node.path
        game.by_moves[game.moves[node.path]] = node.path
        if node.is_leaf:
            game.leaf_reason[node.path] = "it is an end state (a leaf)"
    player = Player.MIN if min_first else Player.MAX
    reference = Reference.of(game, player)
    height = max(node.depth for node in root.walk())
    request = {
        "function": "minimax",
        "args": [{"tree": _lists(root)}, height, not min_first, {"float": "-inf"}, {"float": "inf"}],
        "patch": {"evalFunct": {"kind": "tree_value"}},
        "trace": {"kind": "tree", "function": "minimax"},
    }
    text = f"{'MIN' if min_first else 'MAX'} at the root A; the tree as nested lists: {_lists(root)}"
    return Case(label + (", MIN at the root" if min_first else ""), request, reference, hidden, text)


def check_tree(case: Case, reply: Reply) -> Verdict:
    reference: Reference = case.expected
    messages, score = [], 0.0
    got = values.number(reply.get("value"))
    if got == reference.value:
        score += 0.5
    else:
        messages.append(f"returned {values.shown(reply.get('value'))}; the root's minimax value is {reference.value:g}")
    paths = [entry[0] if isinstance(entry[0], str) else None for entry in reply.get("trace") or []]
    divergence = first_divergence(reference, paths, _name, lambda i: _name(paths[i] or ""), "calls of minimax")
    payload = None
    if divergence is None:
        score += 0.5
    else:
        messages.append(f"the states it is called on leave alpha-beta's: {divergence.said}")
        payload = {"ours": divergence.ours, "theirs": divergence.theirs}
    return Verdict(score, " ".join(messages), payload)


def _name(path: str) -> str:
    return "the root A" if path == "A" else f"node {path}" if path else "a state of no tree"


def draw_tree(case: Case, divergence: Mapping[str, Any], path: Any) -> None:
    from engine.grade.pictures import draw_divergence

    draw_divergence(
        case.expected,
        divergence.get("ours"),
        divergence.get("theirs"),
        {},
        path,
        f"minimax, {case.label.split(':')[0]}",
    )


ASSIGNMENT = Assignment(
    name="seed002",
    title="IART Exercise 3: minimax with alpha-beta cuts, and Connect-4's evaluation functions",
    source="seeds/002",
    questions=(
        Question(
            "minimax",
            10,
            "minimax(state, depth, playerMax, alpha, beta)",
            "the seed's pseudocode on an abstract tree (Exercise 3.1): return the value of the root; end states are "
            "scored by evalFunct(state); stop trying a node's moves once beta <= alpha. Marked on the value and on "
            "the states it is called on, in order: exactly alpha-beta's",
            tree_cases,
            check_tree,
            draw=draw_tree,
        ),
        helper_question(
            "nlines4", ref.nlines4, "the number of lines of four of player's pieces (rows, columns, diagonals)"
        ),
        helper_question(
            "nlines3",
            ref.nlines3,
            "the number of windows of four cells holding three of player's pieces and an empty cell",
        ),
        helper_question(
            "central",
            ref.central,
            "2 points per piece of player in the centre column (column 4), 1 per piece in columns 3 and 5",
        ),
    ),
    notes=(
        "The seed gives no points: each question is worth 10.",
        "The State's board is board[HEI][WID] with row 0 at the bottom, as the seed's execute_movement fills it.",
    ),
)
