"""Baseclaim (Allis §6.7): three cells that can be played now and the even cell above the second.

Required: three directly playable cells - first, second, third - and the cell
above the second, which is even. Solves: every group holding the first cell
and the cell above the second, and every group holding the second and the
third cell. The defender answers the first with the third, the second with
the third (or the second's upper cell, once the third is taken), the third
with the second, and the cell above the second with the first.
"""

from __future__ import annotations

from itertools import permutations

from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance

NAME = "baseclaim"
SECTION = "6.7"


def find(field: Field) -> list[Instance]:
    playable = bits_of(field.playable & field.zone)
    found = []
    for first, second, third in permutations(playable, 3):
        above = second << 1
        if not above & field.even:
            continue
        solves = field.holding_all(first | above) | field.holding_all(second | third)
        if not solves & ~field.holding_all(above):
            continue
        answers = ((first, (third, above)), (second, (third, above)), (third, (second,)), (above, (first,)))
        found.append(
            Instance(
                NAME,
                first | second | third | above,
                solves,
                answers,
                pairs=((first, above), (second, third)),
                parts=((second, above),),
            )
        )
    return found


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    names = []
    for item in items:
        (first, _), (second, third) = item.pairs
        names.append(", ".join(field.cells.names(first) + field.cells.names(second) + field.cells.names(third)))
    return (
        f"of {listed(names)} and the cell above the second, {defender} takes the one {mover} leaves of the "
        f"first and the upper cell, and of the second and third (baseclaim)"
    )
