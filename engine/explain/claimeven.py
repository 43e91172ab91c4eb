"""Claimeven (Allis §6.1): the defender answers on top and takes the even cell.

Required: two empty cells directly above each other, the upper one even (a
follow cell, :mod:`engine.explain.field`). Solves: every group that holds the
upper cell. The mover has to play the lower cell first (the defender never
does); the defender answers on the upper one.
"""

from __future__ import annotations

from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance, claimeven_part

NAME = "claimeven"
SECTION = "6.1"


def find(field: Field) -> list[Instance]:
    """Every claimeven of the zones (also those that solve nothing: the aftereven and before use them)."""
    found = []
    for upper in bits_of(field.even):
        lower = upper >> 1
        if lower & field.odd:  # (the cell below is in the zone, so not below the bottom row)
            found.append(instance(field, lower, upper))
    return found


def instance(field: Field, lower: int, upper: int) -> Instance:
    return Instance(
        NAME,
        lower | upper,
        field.holding_all(upper),
        claimeven_part(lower, upper),
        claims=upper,
        parts=((lower, upper),),
    )


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    cells = field.cells
    columns = sorted({cells.column_of(item.claims) + 1 for item in items})
    claimed = cells.names(sum(item.claims for item in items))
    where = "column" if len(columns) == 1 else "columns"
    return (
        f"{defender} answers every move of {mover}'s in {where} {listed([str(c) for c in columns])} on top of it "
        f"and so takes {listed(claimed)} (claimeven)"
    )
