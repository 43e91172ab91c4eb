"""Specialbefore (Allis §6.9): a before whose one playable cell pairs with another playable cell.

Required: a group of the defender's (no stone of the mover), none of whose
empty cells is at the top of its zone, one of them directly playable; and a
directly playable cell in another column, outside the group. The other empty
cells get parts as in a before. Solves: every group holding the cells above
all the empty cells *and* the extra playable cell; every group holding both
playable cells; every group the parts solve. The two playable cells are
answered by each other, as a baseinverse.
"""

from __future__ import annotations

from engine.explain import before
from engine.explain.cells import bits_of, listed
from engine.explain.field import Field
from engine.explain.rule import Instance

NAME = "specialbefore"
SECTION = "6.9"


def find(field: Field) -> list[Instance]:
    found = []
    playable = field.playable & field.zone
    for group in field.own_groups():
        empty = group & ~field.defender
        if not before._fits(field, empty) or not empty & playable:
            continue
        successors = empty << 1
        for own in bits_of(empty & playable):
            column = field.cells.columns[field.cells.column_of(own)]
            for extra in bits_of(playable & ~group & ~column):
                timing = field.holding_all(successors | extra)
                pair = field.holding_all(own | extra)
                if not timing | pair:
                    continue
                for parts in before.part_choices(field, bits_of(empty & ~own)):
                    if any(part.cells & (own | extra) for _, part in parts):
                        continue  # (the two playable cells are the specialbefore's alone)
                    found.append(
                        before.instance(
                            NAME,
                            field,
                            group,
                            parts,
                            timing | pair,
                            special=own | extra,
                            answers=((own, (extra,)), (extra, (own,))),
                            pairs=((own, extra),),
                        )
                    )
    return found


def words(items: list[Instance], field: Field, mover: str, defender: str) -> str:
    names = []
    for item in items:
        own, extra = item.pairs[-1]
        names.append(f"{field.cells.group_name(item.group)} (with {' and '.join(field.cells.names(own | extra))})")
    line = "line" if len(items) == 1 else "lines"
    return (
        f"{defender} completes {line} {listed(names)} first or takes the playable cell {mover} leaves (specialbefore)"
    )
