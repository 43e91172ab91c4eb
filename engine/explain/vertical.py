"""Vertical (Allis §6.3): of two cells directly above each other, the upper one odd, the defender takes one.

Required: two empty cells directly above each other, the upper one odd. Solves:
every group that holds both (the vertical ones). When the mover plays the lower
cell, the defender plays on top of it. Where the defender does not control
zugzwang (a free field) the parity does not matter: any such pair, answered
on top, leaves the defender one of its two cells.
"""

from __future__ import annotations

from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance

NAME = "vertical"
SECTION = "6.3"


def find(field: Field) -> list[Instance]:
    """The verticals of the zones (in a free field, any two empty cells one above the other)."""
    lowers, uppers = (field.zone, field.zone) if field.free else (field.even, field.odd)
    found = []
    for lower in bits_of(lowers):
        upper = lower << 1
        if upper & uppers:
            solves = field.holding_all(lower | upper)
            if solves:
                found.append(instance(field, lower, upper, solves))
    return found


def instance(field: Field, lower: int, upper: int, solves: int | None = None) -> Instance:
    return Instance(
        NAME,
        lower | upper,
        field.holding_all(lower | upper) if solves is None else solves,
        ((lower, (upper,)),),
        pairs=((lower, upper),),
        parts=((lower, upper),),
    )


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    names = ["-".join(field.cells.names(item.cells)) for item in items]
    return f"{defender} answers {mover}'s stone on the lower cell of {listed(names)} on top of it (vertical)"
