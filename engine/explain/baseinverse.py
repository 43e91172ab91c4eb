"""Baseinverse (Allis §6.2): of two cells that can both be played now, the defender takes one.

Required: two directly playable cells (in two columns). Solves: every group
that holds both. When the mover plays one, the defender plays the other.
"""

from __future__ import annotations

from itertools import combinations

from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance

NAME = "baseinverse"
SECTION = "6.2"


def find(field: Field) -> list[Instance]:
    found = []
    for first, second in combinations(bits_of(field.playable & field.zone), 2):
        solves = field.holding_all(first | second)
        if solves:
            found.append(
                Instance(
                    NAME,
                    first | second,
                    solves,
                    ((first, (second,)), (second, (first,))),
                    pairs=((first, second),),
                )
            )
    return found


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    names = [" and ".join(field.cells.names(item.cells)) for item in items]
    one = "either pair" if len(items) == 2 else "each pair" if len(items) > 2 else "the pair"
    return f"of {listed(names)} {defender} takes the one {mover} leaves in {one} (baseinverse)"
