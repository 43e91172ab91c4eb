"""Before (Allis §6.8): a line of the defender's is completed before a group that needs the cells above it.

Required: a group of the defender's (no stone of the mover), none of whose
empty cells is at the top of its column's zone. Each empty cell gets a part:
a vertical (the cell and the one above it: the defender gets one of the two)
or, for an even cell with an empty cell below, a claimeven (the defender gets
the cell itself). Solves: every group holding the cell above *each* empty cell
of the before group - to complete it the mover needs all of those cells, so
the defender holds one of them or has completed its own group first - and
every group the parts solve.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from engine.explain import claimeven, vertical
from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance, merged_answers

NAME = "before"
SECTION = "6.8"

#: Parts of each empty cell: ``False`` a vertical (cell, cell above), ``True`` a claimeven (cell below, cell).
VERTICAL, CLAIMEVEN = False, True


def find(field: Field) -> list[Instance]:
    found = []
    for group in field.own_groups():
        empty = group & ~field.defender
        successors = empty << 1
        if not _fits(field, empty):
            continue
        timing = field.holding_all(successors)
        if not timing:
            continue
        for parts in part_choices(field, bits_of(empty)):
            if all(kind is CLAIMEVEN for kind, _ in parts):
                continue  # an aftereven
            found.append(instance(NAME, field, group, parts, timing))
    return found


def _fits(field: Field, empty: int) -> bool:
    """Are all ``empty`` cells in the zone with a zone cell above (not at the top)?"""
    return not empty & ~field.zone and not (empty << 1) & ~field.zone


def part_choices(field: Field, empty: list[int]) -> Iterator[list[tuple[bool, Instance]]]:
    """Every way to give each empty cell a vertical or a claimeven, the parts not overlapping."""
    options = []
    for cell in empty:
        choices = [(VERTICAL, vertical.instance(field, cell, cell << 1))]
        if cell & field.even and (cell >> 1) & field.odd:
            choices.append((CLAIMEVEN, claimeven.instance(field, cell >> 1, cell)))
        options.append(choices)
    for parts in product(*options):
        used = 0
        for _, part in parts:
            if part.cells & used:
                break
            used |= part.cells
        else:
            yield list(parts)


def instance(
    rule: str,
    field: Field,
    group: int,
    parts: list[tuple[bool, Instance]],
    timing: int,
    special: int = 0,
    answers: tuple[tuple[int, tuple[int, ...]], ...] = (),
    pairs: tuple[tuple[int, int], ...] = (),
) -> Instance:
    solves = timing
    for _, part in parts:
        solves |= part.solves
    return Instance(
        rule,
        sum(part.cells for _, part in parts) | special,
        solves,
        merged_answers(*(part.answers for _, part in parts), answers),
        claims=sum(part.claims for _, part in parts),
        pairs=tuple(pair for _, part in parts for pair in part.pairs) + pairs,
        parts=tuple(part.parts[0] for _, part in parts),
        group=group,
        special=special,
    )


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    names = [field.cells.group_name(item.group) for item in items]
    line = "line" if len(items) == 1 else "lines"
    return (
        f"{defender} completes {line} {listed(names)} before {mover} can have every cell above it, taking one "
        f"cell of each pair on top of it (before)"
    )
