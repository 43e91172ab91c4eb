"""Seed 004 (Connect-4, an AI project): the ``Connect_Four_State`` class, its ``move``, ``generate_new_states``
and ``count_lines``.

The grader makes an object of the student's ``Connect_Four_State`` with no
arguments and sets the seed's attributes to a position: ``board`` (6x7 numpy
int8, row 0 on top, 0 / 1 / 2), ``columns_height``, ``actions``,
``current_player``, ``winner``, ``move_history``; then it calls the method. A
move must return a new state (the seed deep-copies) and leave the old one as
it was; a move into a column that is not in ``actions`` returns the state
itself. The seed gives no points: each question is worth 10.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.grade import values
from engine.grade.cases import drawn, random_cells, rng
from engine.grade.model import Assignment, Case, Question, Reply, Verdict
from engine.grade.reference.seed004 import NCOLS, NROWS, Connect_Four_State

SYMBOLS = {0: "-", 1: "X", 2: "O"}
CLASS = "Connect_Four_State"
#: The attributes read back from a state.
ATTRS = ("board", "current_player", "winner", "actions", "columns_height")


def state_at(cells: list[list[int]]) -> Connect_Four_State:
    """The reference's state of a position (cells top row first), as the seed's ``read_state`` makes it."""
    state = Connect_Four_State()
    state.board = np.array(cells, dtype=np.int8)
    for col in range(NCOLS):
        filled = [r for r in range(NROWS) if cells[r][col]]
        state.columns_height[col] = (min(filled) if filled else NROWS) - 1
    state.actions = np.array([c for c in range(NCOLS) if cells[0][c] == 0], dtype=np.int8)
    ones, twos = sum(row.count(1) for row in cells), sum(row.count(2) for row in cells)
    state.current_player = 2 if ones > twos else 1
    state.move_history = (state.board,)
    return state


def _new(state: Connect_Four_State) -> dict[str, Any]:
    """The request's argument that builds the student's state like ``state``."""
    return {
        "new": CLASS,
        "attrs": {
            "board": {"array": state.board.tolist(), "dtype": "int8"},
            "columns_height": {"array": state.columns_height.tolist(), "dtype": "int8"},
            "actions": {"array": state.actions.tolist(), "dtype": "int8"},
            "current_player": state.current_player,
            "winner": state.winner,
            "move_history": {"tuple": [{"array": state.board.tolist(), "dtype": "int8"}]},
        },
    }


def _positions(seed: int, question: str, count: int) -> list[list[list[int]]]:
    generator = rng(seed, "seed004", question)
    found: list[list[list[int]]] = []
    while len(found) < count:
        cells, _, winner = random_cells(generator, NROWS, NCOLS, generator.randint(0, 41))
        if not winner:
            found.append(cells)
    return found


def _summary(state: Connect_Four_State) -> dict[str, Any]:
    return {
        "board": state.board.tolist(),
        "current_player": int(state.current_player),
        "winner": int(state.winner),
        "actions": sorted(int(a) for a in state.actions),
        "columns_height": [int(h) for h in state.columns_height],
    }


def _compare(encoded: Any, expected: dict[str, Any]) -> str:
    """What differs between a state the student returned and the reference's ("" when nothing)."""
    if not isinstance(encoded, dict) or "object" not in encoded:
        return f"returned {values.shown(encoded)}, not a {CLASS}"
    attrs = encoded["attrs"]
    board = values.array(attrs.get("board"))
    if board is None or board.tolist() != expected["board"]:
        return "its board is not the reference's:\n" + drawn(expected["board"], SYMBOLS)
    for name in ("current_player", "winner"):
        if values.integer(attrs.get(name)) != expected[name]:
            return f"its {name} is {values.shown(attrs.get(name))}; the reference's is {expected[name]}"
    actions = values.columns(attrs.get("actions"))
    if actions is None or sorted(actions) != expected["actions"]:
        return f"its actions are {values.shown(attrs.get('actions'))}; the reference's are {expected['actions']}"
    heights = values.columns(attrs.get("columns_height"))
    if heights != expected["columns_height"]:
        shown = values.shown(attrs.get("columns_height"))
        return f"its columns_height is {shown}; the reference's is {expected['columns_height']}"
    return ""


# -- move -------------------------------------------------------------------------------------------
def move_cases(seed: int) -> list[Case]:
    generator = rng(seed, "seed004", "move", "columns")
    found = []
    for k, cells in enumerate(_positions(seed, "move", 12), start=1):
        state = state_at(cells)
        full = [c for c in range(NCOLS) if c not in state.actions]
        column = generator.choice(full) if full and k % 4 == 0 else generator.choice(list(state.actions))
        after = state.move(int(column))
        expected = {"state": None if after is state else _summary(after), "before": state.board.tolist()}
        request = {"function": f"{CLASS}.move", "args": [_new(state), int(column)], "attrs": ATTRS, "after": [0]}
        found.append(Case(f"hidden {k}: move({column})", request, expected, True, drawn(cells, SYMBOLS)))
    return found


def check_move(case: Case, reply: Reply) -> Verdict:
    expected = case.expected
    before = (
        values.array(reply["after"][0].get("attrs", {}).get("board")) if isinstance(reply["after"][0], dict) else None
    )
    if expected["state"] is None:
        if reply.get("same") == 0:
            return Verdict.right()
        return Verdict.wrong("the column is full (not in actions): move returns the state itself, unchanged")
    if reply.get("same") == 0:
        return Verdict.wrong("returned the state it was called on: move returns a new state (the seed deep-copies)")
    problem = _compare(reply.get("value"), expected["state"])
    if problem:
        return Verdict.wrong(problem)
    if before is None or before.tolist() != expected["before"]:
        return Verdict(0.5, "changed the state it was called on: only the new state has the piece")
    return Verdict.right()


# -- generate_new_states ---------------------------------------------------------------------------
def children_cases(seed: int) -> list[Case]:
    found = []
    for k, cells in enumerate(_positions(seed, "generate_new_states", 8), start=1):
        state = state_at(cells)
        expected = [_summary(child) for child in state.generate_new_states()]
        request = {"function": f"{CLASS}.generate_new_states", "args": [_new(state)], "attrs": ATTRS}
        found.append(Case(f"hidden {k}", request, expected, True, drawn(cells, SYMBOLS)))
    return found


def check_children(case: Case, reply: Reply) -> Verdict:
    states = values.items(reply.get("value"))
    if states is None:
        return Verdict.wrong(
            f"returned {values.shown(reply.get('value'))}; generate_new_states returns a list of states"
        )
    if len(states) != len(case.expected):
        return Verdict.wrong(f"returned {len(states)} states; there is one per action: {len(case.expected)}")
    for number, (state, expected) in enumerate(zip(states, case.expected, strict=True), start=1):
        problem = _compare(state, expected)
        if problem:
            return Verdict.wrong(f"state {number} (a piece in column {_column(expected, case)}): {problem}")
    return Verdict.right()


def _column(expected: dict[str, Any], case: Case) -> int:
    before = case.request["args"][0]["attrs"]["board"]["array"]
    return next(c for c in range(NCOLS) if any(expected["board"][r][c] != before[r][c] for r in range(NROWS)))


# -- count_lines -------------------------------------------------------------------------------------
def lines_cases(seed: int) -> list[Case]:
    generator = rng(seed, "seed004", "count_lines", "cells")
    found = []
    for k, cells in enumerate(_positions(seed, "count_lines", 14), start=1):
        state = state_at(cells)
        n = generator.choice((2, 3, 3, 4))
        player = generator.choice((1, 2))
        row, col = generator.randrange(NROWS), generator.randrange(NCOLS)
        expected = state.count_lines(n, player, row, col)
        request = {"function": f"{CLASS}.count_lines", "args": [_new(state), n, player, row, col]}
        label = f"hidden {k}: count_lines({n}, {player}, {row}, {col})"
        found.append(Case(label, request, expected, True, drawn(cells, SYMBOLS)))
    return found


def check_lines(case: Case, reply: Reply) -> Verdict:
    got = values.truth(reply.get("value"))
    if got is None:
        return Verdict.wrong(f"returned {values.shown(reply.get('value'))}; count_lines returns True or False")
    if got != case.expected:
        return Verdict.wrong(f"returned {got}; the reference gives {case.expected}")
    return Verdict.right()


ASSIGNMENT = Assignment(
    name="seed004",
    title="Connect-4, an AI project: the Connect_Four_State class",
    source="seeds/004",
    questions=(
        Question(
            f"{CLASS}.move",
            10,
            "state.move(ncol)",
            "a new state with the current player's piece dropped into column ncol, columns_height, actions and the "
            "winner (1 or 2 for a line of four, 0 for a full board, -1 while the game goes on) updated and the turn "
            "passed; the state itself unchanged; a column not in actions returns the state itself",
            move_cases,
            check_move,
        ),
        Question(
            f"{CLASS}.generate_new_states",
            10,
            "state.generate_new_states()",
            "a list with one new state per column of actions, in the order of actions",
            children_cases,
            check_children,
        ),
        Question(
            f"{CLASS}.count_lines",
            10,
            "state.count_lines(n, player, nrow, ncol)",
            "True if player has n pieces in a row on the row nrow, the column ncol or a diagonal through (nrow, ncol)",
            lines_cases,
            check_lines,
        ),
    ),
    notes=("The seed gives no points: each question is worth 10.",),
)
