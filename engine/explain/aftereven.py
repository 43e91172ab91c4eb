"""Aftereven (Allis §6.4): a line of the defender's that claimeven completes wins before groups above it.

Required: a group of the defender's (no stone of the mover) whose empty cells
are all upper cells of claimevens (even cells with an empty cell below). By
claimeven the defender gets every one of them, so the group is sure to be
completed. Solves: every group that has, in *each* of the aftereven's columns,
a cell above the aftereven's empty cell there (such a group is completed only
after the columns are filled past those cells, when the defender has already
won), and every group its claimevens solve.

An aftereven is how the defender **wins**: the mover cannot stop the line.
"""

from __future__ import annotations

from engine.explain import claimeven
from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance, merged_answers

NAME = "aftereven"
SECTION = "6.4"


def find(field: Field) -> list[Instance]:
    found = []
    for group in field.own_groups():
        empty = group & ~field.defender
        if empty & ~field.even:
            continue
        if any(not (cell >> 1) & field.odd for cell in bits_of(empty)):
            continue  # an even cell without an empty cell below is no claimeven
        found.append(instance(field, group, empty))
    return found


def instance(field: Field, group: int, empty: int) -> Instance:
    cells = field.cells
    parts = [claimeven.instance(field, cell >> 1, cell) for cell in bits_of(empty)]
    solves = 0
    for part in parts:
        solves |= part.solves
    above = [cells.columns[cells.column_of(cell)] & ~(cell | (cell - 1)) for cell in bits_of(empty)]
    for index, problem in enumerate(field.problems):
        if all(problem & cells_above for cells_above in above):
            solves |= 1 << index
    return Instance(
        NAME,
        sum(part.cells for part in parts),
        solves,
        merged_answers(*(part.answers for part in parts)),
        claims=empty,
        parts=tuple(part.parts[0] for part in parts),
        group=group,
        wins=True,
    )


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    names = [field.cells.group_name(item.group) for item in items]
    line = "line" if len(items) == 1 else "lines"
    return (
        f"{defender}'s {line} {listed(names)} will be completed by claimeven, before any line of {mover}'s "
        f"above it (aftereven)"
    )
