"""Lowinverse (Allis §6.5): two verticals in two columns; the defender also gets one of the two upper cells.

Required: two columns, in each two empty cells directly above each other, the
upper one odd (two verticals). Solves: every group holding both upper cells,
and every group either vertical solves. The defender answers a move on a
lower cell on top of it; the mover, who has to open one of the columns first,
leaves the defender the other column's upper cell or this one's.
"""

from __future__ import annotations

from itertools import combinations

from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance

NAME = "lowinverse"
SECTION = "6.5"


def find(field: Field) -> list[Instance]:
    verticals = [(lower, lower << 1) for lower in bits_of(field.even) if (lower << 1) & field.odd]
    found = []
    for (low1, up1), (low2, up2) in combinations(verticals, 2):
        cells = field.cells
        if cells.column_of(low1) == cells.column_of(low2):
            continue
        across = field.holding_all(up1 | up2)
        if not across:
            continue  # two verticals say as much
        solves = across | field.holding_all(low1 | up1) | field.holding_all(low2 | up2)
        found.append(
            Instance(
                NAME,
                low1 | up1 | low2 | up2,
                solves,
                ((low1, (up1,)), (low2, (up2,)), (up1, (up2,)), (up2, (up1,))),
                pairs=((low1, up1), (low2, up2), (up1, up2)),
            )
        )
    return found


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    names = []
    for item in items:
        (low1, up1), (low2, up2), _ = item.pairs
        names.append(" and ".join("-".join(field.cells.names(low | up)) for low, up in ((low1, up1), (low2, up2))))
    return (
        f"{defender} answers {mover} on top in {listed(names)}, and so gets one cell of each and one of the "
        f"two upper cells (lowinverse)"
    )
