"""What every rule finds: an :class:`Instance` - the cells it uses, the problems it solves, its answers.

An instance is one application of one of Allis's rules in one position:

* ``cells``: the squares it uses (two instances may share squares only where
  §7.4 of the thesis allows it, :mod:`engine.explain.combine`);
* ``solves``: the mover's problems it refutes, as a bitmask over the indices
  of :attr:`Field.problems <engine.explain.field.Field.problems>`;
* ``answers``: the defender's strategy - for a move of the mover on a cell,
  the cells the defender answers with, in order of preference (the first
  that can be played). :mod:`engine.explain.check` plays these against every
  reply;
* ``claims`` and ``pairs``: what the defender is sure to get (a cell, or one
  of two cells), for the words and the picture on the board.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Instance:
    """One application of a rule; every cell set is a bitmask of the board."""

    rule: str
    cells: int
    solves: int
    answers: tuple[tuple[int, tuple[int, ...]], ...] = ()
    claims: int = 0
    pairs: tuple[tuple[int, int], ...] = ()
    #: (lower, upper) claimevens and verticals the rule is built of: other rules may share equal ones (§7.4)
    parts: tuple[tuple[int, int], ...] = ()
    #: the defender's group of an aftereven, before or specialbefore
    group: int = 0
    #: cells no other rule may share even as an equal part (a specialbefore's two playable cells)
    special: int = 0
    #: the defender completes ``group`` (an aftereven): what a win needs
    wins: bool = False


def claimeven_part(lower: int, upper: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Answers of a claimeven: the mover's stone on ``lower`` is answered on ``upper``."""
    return ((lower, (upper,)),)


def merged_answers(*answer_lists: tuple[tuple[int, tuple[int, ...]], ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Several parts' answers as one table (a cell's answers in the order given)."""
    table: dict[int, tuple[int, ...]] = {}
    for answers in answer_lists:
        for cell, replies in answers:
            table[cell] = table.get(cell, ()) + tuple(reply for reply in replies if reply not in table.get(cell, ()))
    return tuple(table.items())
