"""Which rule instances go together (Allis §7.4), and a set of them that solves every problem.

Two instances can be used together when the defender can follow both at
once. As this engine reads §7.4 of the thesis:

1. in general their cells are disjoint;
2. claimevens, verticals, afterevens, befores and specialbefores may share
   cells where they share an *equal* part (the same claimeven or vertical:
   the same answer), never a specialbefore's two playable cells;
3. a lowinverse or highinverse shares no cell with anything, every claimeven
   part (of a claimeven, aftereven, before, specialbefore or baseclaim) in
   one of its columns lies above its cells there, and two of them use the
   same columns or none in common.

A set is searched as Allis's program did: take the unsolved problem with the
fewest instances left that solve it, try each of them (simplest rules
first), never two that conflict. Every set found is then played out by
:mod:`engine.explain.check`; a set the play refutes is passed over for the
next.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.explain.cells import bits_of
from engine.explain.field import Field
from engine.explain.rule import Instance

#: The rules in the order they are tried: the simplest first (also the order of the nine in the thesis).
ORDER = (
    "claimeven",
    "baseinverse",
    "vertical",
    "aftereven",
    "lowinverse",
    "highinverse",
    "baseclaim",
    "before",
    "specialbefore",
)
INVERSES = frozenset({"lowinverse", "highinverse"})
SHARING = frozenset({"claimeven", "vertical", "aftereven", "before", "specialbefore"})


class Budget:
    """How many steps a search may take; spent by every node."""

    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def spend(self) -> bool:
        """Take one step; False once none is left."""
        self.left -= 1
        return self.left >= 0


def compatible(first: Instance, second: Instance, field: Field) -> bool:
    """May the defender follow both instances at once (the conditions of the module)?"""
    if first.rule in INVERSES or second.rule in INVERSES:
        if first.cells & second.cells:
            return False
        if first.rule in INVERSES and second.rule in INVERSES:
            one, other = _columns(first.cells, field), _columns(second.cells, field)
            return one == other or not one & other
        inverse, rest = (first, second) if first.rule in INVERSES else (second, first)
        return _claimevens_above(inverse, rest, field)
    shared = first.cells & second.cells
    if not shared:
        return True
    if first.rule not in SHARING or second.rule not in SHARING or shared & (first.special | second.special):
        return False
    equal = set(first.parts) & set(second.parts)
    return not shared & ~sum(lower | upper for lower, upper in equal)


def _columns(bits: int, field: Field) -> int:
    """The columns of the cells of ``bits``, as a bitmask over column numbers."""
    found = 0
    for col, column in enumerate(field.cells.columns):
        if bits & column:
            found |= 1 << col
    return found


def _claimevens_above(inverse: Instance, other: Instance, field: Field) -> bool:
    """Does every claimeven part of ``other`` in a column of ``inverse`` lie above the inverse's cells there?"""
    for lower, upper in other.parts:
        if not upper & field.even:
            continue  # a vertical
        column = field.cells.columns[field.cells.column_of(lower)]
        used = inverse.cells & column
        if used and lower <= 1 << (used.bit_length() - 1):
            return False  # (bits grow up a column: the part starts at or below the inverse's highest cell)
    return True


def conflicts(instances: Sequence[Instance], field: Field) -> list[int]:
    """For each instance, the bitmask (over indices) of the instances it cannot go with.

    Sharing a cell is a conflict unless both hold that cell in an equal part
    (and may share parts); the inverses' column conditions are then tested
    against the instances that have a claimeven, or are an inverse, in their
    columns.
    """
    users: dict[int, int] = {}  # cell -> the instances that use it
    part_users: dict[tuple[int, int], int] = {}  # part -> the instances that may share it
    in_column: dict[int, int] = {}  # column bit -> the instances with a claimeven part there, or inverses
    for index, item in enumerate(instances):
        bit = 1 << index
        for cell in bits_of(item.cells):
            users[cell] = users.get(cell, 0) | bit
        if item.rule in SHARING:
            for part in item.parts:
                part_users[part] = part_users.get(part, 0) | bit
        claimevens = sum(lower for lower, upper in item.parts if upper & field.even)
        watched = item.cells if item.rule in INVERSES else claimevens
        for col in bits_of(_columns(watched, field)):
            in_column[col] = in_column.get(col, 0) | bit
    masks = []
    for index, item in enumerate(instances):
        shareable: dict[int, tuple[int, int]] = {}
        if item.rule in SHARING:
            shareable = {cell: part for part in item.parts for cell in part}
        clash = 0
        for cell in bits_of(item.cells):
            equal = shareable.get(cell)
            clash |= users[cell] if equal is None else users[cell] & ~part_users[equal]
        masks.append(clash & ~(1 << index))
    for index, item in enumerate(instances):
        if item.rule not in INVERSES:
            continue
        near = 0
        for col in bits_of(_columns(item.cells, field)):
            near |= in_column[col]
        for other in bits_of(near & ~masks[index] & ~(1 << index)):
            number = other.bit_length() - 1
            if not compatible(item, instances[number], field):
                masks[index] |= other
                masks[number] |= 1 << index
    return masks


def covers(
    instances: Sequence[Instance], count: int, field: Field, budget: Budget, need_win: bool = False
) -> Iterator[list[int]]:
    """Sets of compatible instances (indices) that solve all ``count`` problems, simplest first.

    With ``need_win`` a set must also hold an instance that wins (an aftereven).
    """
    goal = (1 << count) - 1
    solves = [item.solves | (1 << count if item.wins else 0) for item in instances]
    if need_win:
        goal |= 1 << count
    clashes = conflicts(instances, field)
    solvers: dict[int, list[int]] = {}
    for index, solved in enumerate(solves):
        for problem in bits_of(solved & goal):
            solvers.setdefault(problem.bit_length() - 1, []).append(index)
    masks = {problem: sum(1 << index for index in found) for problem, found in solvers.items()}
    failed: set[tuple[int, int]] = set()

    def search(unsolved: int, blocked: int, chosen: list[int]) -> Iterator[list[int]]:
        if not unsolved:
            yield chosen
            return
        if not budget.spend() or (unsolved, blocked) in failed:
            return
        best, fewest = -1, -1
        for problem in bits_of(unsolved):
            number = problem.bit_length() - 1
            left = (masks.get(number, 0) & ~blocked).bit_count()
            if left == 0:
                failed.add((unsolved, blocked))
                return
            if fewest < 0 or left < fewest:
                best, fewest = number, left
        found = False
        for index in solvers[best]:
            if blocked >> index & 1:
                continue
            for cover in search(unsolved & ~solves[index], blocked | clashes[index] | 1 << index, [*chosen, index]):
                found = True
                yield cover
        if not found:
            failed.add((unsolved, blocked))

    yield from search(goal, 0, [])


def trimmed(chosen: list[int], instances: Sequence[Instance], count: int, need_win: bool) -> list[int]:
    """``chosen`` without the instances the others make unnecessary (the most complex dropped first)."""
    goal = (1 << count) - 1
    kept = list(chosen)
    for index in sorted(chosen, key=lambda i: (ORDER.index(instances[i].rule), -instances[i].solves.bit_count()))[::-1]:
        rest = [other for other in kept if other != index]
        solved = 0
        for other in rest:
            solved |= instances[other].solves
        if solved & goal == goal and (not need_win or any(instances[other].wins for other in rest)):
            kept = rest
    return kept


def ordered(instances: list[Instance]) -> list[Instance]:
    """The instances in the order a search tries them: simplest rule first, then the most problems solved."""
    return sorted(instances, key=lambda item: (ORDER.index(item.rule), -item.solves.bit_count()))
