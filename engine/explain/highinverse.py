"""Highinverse (Allis §6.6): three cells in each of two columns; the defender gets one of each pair that matters.

Required: two columns, in each three empty cells directly above each other,
the upper one even (so the lower one even, the middle one odd). Solves: every
group holding both upper cells, or both middle cells; every (vertical) group
holding the middle and upper cell of one column; and, where a column's lower
cell can be played now, every group holding it and the other column's upper
cell.

The defender answers a move on a lower cell on top of it (the middle cell);
when the mover then goes on in the same column or in the other, the defender
answers so that it holds the middle of one column and the top of the other.
"""

from __future__ import annotations

from itertools import combinations

from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance

NAME = "highinverse"
SECTION = "6.6"


def find(field: Field) -> list[Instance]:
    stacks = [
        (low, low << 1, low << 2) for low in bits_of(field.even) if (low << 1) & field.odd and (low << 2) & field.even
    ]
    found = []
    for (l1, m1, u1), (l2, m2, u2) in combinations(stacks, 2):
        if field.cells.column_of(l1) == field.cells.column_of(l2):
            continue
        solves = (
            field.holding_all(u1 | u2)
            | field.holding_all(m1 | m2)
            | field.holding_all(m1 | u1)
            | field.holding_all(m2 | u2)
        )
        pairs = [(u1, u2), (m1, m2), (m1, u1), (m2, u2)]
        if l1 & field.playable:
            solves |= field.holding_all(l1 | u2)
            pairs.append((l1, u2))
        if l2 & field.playable:
            solves |= field.holding_all(l2 | u1)
            pairs.append((l2, u1))
        if not solves & ~(field.holding_all(u1) | field.holding_all(u2)):
            continue  # two claimevens say as much
        answers = (
            (l1, (u2, m1)),
            (l2, (u1, m2)),
            (m1, (u1, m2)),
            (m2, (u2, m1)),
            (u1, (u2, l2, m2)),
            (u2, (u1, l1, m1)),
        )
        found.append(Instance(NAME, l1 | m1 | u1 | l2 | m2 | u2, solves, answers, pairs=tuple(pairs)))
    return found


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    names = []
    for item in items:
        columns = sorted({field.cells.column_of(cell) + 1 for cell in bits_of(item.cells)})
        names.append(" and ".join(str(col) for col in columns))
    where = "columns " + listed(names)
    return (
        f"in {where} {defender} answers so as to hold a middle cell of one column and the top cell of the "
        f"other (highinverse)"
    )
