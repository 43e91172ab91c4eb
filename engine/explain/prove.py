"""One position's reason without looking ahead: immediate threats, no line left, or a checked set of rules.

:func:`prove` answers for the side to move (the mover) and its opponent (the
defender), either "the mover cannot win" or, with ``want_win``, "the
defender wins". The reasons, simplest first:

* **double-threat**: the defender can win in two places at once (or on a
  cell and the one above it), and the mover stops one at most;
* **no-lines**: every group the mover could complete already holds a stone
  of the defender's (a "cannot win" only);
* **rules**: for each field in which the defender controls zugzwang
  (:func:`engine.explain.field.fields`), the rule instances found, sets of
  them that solve every problem (:mod:`engine.explain.combine`), each set
  played out against every reply (:mod:`engine.explain.check`) until one
  holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from engine.errors import EngineError
from engine.explain import (
    aftereven,
    baseclaim,
    baseinverse,
    before,
    claimeven,
    highinverse,
    lowinverse,
    specialbefore,
    vertical,
)
from engine.explain.cells import Cells, bits_of
from engine.explain.check import CHECK_NODES, verify
from engine.explain.combine import Budget, covers, ordered, trimmed
from engine.explain.field import Field, fields
from engine.explain.rule import Instance
from engine.validate import shown

#: The nine rules, in the thesis's order (one module each).
RULES: tuple[ModuleType, ...] = (
    claimeven,
    baseinverse,
    vertical,
    aftereven,
    lowinverse,
    highinverse,
    baseclaim,
    before,
    specialbefore,
)
RULE_NAMES = tuple(rule.NAME for rule in RULES)


def rules_from(text: str) -> list[ModuleType]:
    """The rule modules named in ``text`` (comma-separated, as ``--rules`` takes them), in the thesis's order."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in RULE_NAMES]
    if unknown:
        raise EngineError(f"--rules: no rule named {shown(unknown[0])} (the rules: {', '.join(RULE_NAMES)})")
    return [rule for rule in RULES if rule.NAME in names]


#: The rules that need no zugzwang (a free field): pairs of cells.
PAIRS = ("baseinverse", "vertical")
#: Steps of one search for a set of rules, and sets played out per field, before giving up.
COVER_NODES = 3_000
SETS_TRIED = 8


@dataclass(frozen=True)
class Leaf:
    """A reason that needs no look-ahead: ``kind`` is ``double-threat``, ``no-lines`` or ``rules`` (and, at the
    end of a look-ahead, ``win``: the defender's answer wins, or ``full``: the mover filled the board)."""

    kind: str
    mover: int
    defender: int
    field: Field | None = None
    instances: tuple[Instance, ...] = ()
    #: the defender's cells that win (double-threat)
    threats: int = 0
    wins: bool = False


def winning_cells(cells: Cells, stones: int, mask: int) -> int:
    """The playable cells on which ``stones`` would complete a group."""
    found = 0
    for cell in bits_of(cells.playable(mask)):
        if cells.completes(stones | cell, cell):
            found |= cell
    return found


def double_threat(cells: Cells, mover: int, defender: int) -> int:
    """The defender's cells that win even if the mover stops one (0: none); the mover must not win at once."""
    mask = mover | defender
    now = winning_cells(cells, defender, mask)
    if now.bit_count() >= 2:
        return now
    if now:
        above = cells.above(now)
        if above and cells.completes(defender | above, above):
            return now | above
    return 0


def prove(
    cells: Cells,
    mover: int,
    defender: int,
    want_win: bool,
    rules: Sequence[ModuleType] = RULES,
    check_nodes: int = CHECK_NODES,
) -> Leaf | None:
    """A checked reason why the mover cannot win (``want_win``: why the defender wins), or None."""
    if winning_cells(cells, mover, mover | defender):
        return None  # the mover wins at once
    threats = double_threat(cells, mover, defender)
    if threats:
        return Leaf("double-threat", mover, defender, threats=threats, wins=True)
    plain = Field(cells, mover, defender)
    if not want_win and not plain.problems:
        return Leaf("no-lines", mover, defender, plain)
    for one in fields(cells, mover, defender):
        found = _rules(one, want_win, rules, check_nodes)
        if found is not None:
            return Leaf("rules", mover, defender, one, tuple(found), wins=want_win)
    pairs = [rule for rule in rules if rule.NAME in PAIRS]
    if not want_win and pairs and not plain.controlled:
        free = Field(cells, mover, defender, free=True)
        found = _rules(free, False, pairs, check_nodes)
        if found is not None:
            return Leaf("rules", mover, defender, free, tuple(found))
    return None


def _rules(field: Field, want_win: bool, rules: Sequence[ModuleType], check_nodes: int) -> list[Instance] | None:
    """A set of instances that solves every problem and holds when played out, or None."""
    need_win = want_win and not field.threats
    instances: list[Instance] = []
    for rule in rules:
        instances += [item for item in rule.find(field) if item.solves or item.wins]
    instances = ordered(instances)
    count = len(field.problems)
    for tried, cover in enumerate(covers(instances, count, field, Budget(COVER_NODES), need_win), start=1):
        chosen = [instances[index] for index in trimmed(cover, instances, count, need_win)]
        if verify(field, chosen, want_win, check_nodes):
            return chosen
        if tried >= SETS_TRIED:
            break
    return None
