"""A set of rules played out: the defender's strategy against every reply of the mover.

A reason is shown only when it is checked. The check does not trust the
rules' logic: it *plays* the strategy the rules describe against every move
the mover can make, to the end of the game (positions met twice are looked up,
not played again), and the claim holds only if no line of play refutes it.

The defender's strategy:

* when the mover plays a cell a rule answers, the defender plays that rule's
  answer (the first of its answers that can be played; the others are tried
  if it fails);
* otherwise it *follows up*: it plays an even cell that can be played
  (:mod:`engine.explain.field`) - on top of the mover's stone if that is one,
  else in another column, the cells no rule uses first. The empty cells of
  the zones are then even in number at every move of the mover's, which is
  what follow-up needs;
* the cell below an odd threat is never the defender's, and the mover's stone
  there is answered on the threat (a win).

"Mover cannot win" holds when no line of play gives the mover a group;
"opponent wins" when every line of play ends with a group of the defender's.
Two shortcuts end a line early, both implied by the strategy: with no problem
left for the mover, the mover cannot win; and then, if the defender has an
odd threat or an aftereven whose group is still free of the mover's stones,
the defender wins (the mover must, in the end, play below the threat or below
the aftereven's cells, and the defender, who never plays those cells, answers
on top). A check visits at most ``nodes`` positions; past that it says
nothing (None).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.explain.cells import bits_of
from engine.explain.field import Field
from engine.explain.rule import Instance

#: Positions one check may visit.
CHECK_NODES = 20_000


class _OverBudget(Exception):
    pass


class Strategy:
    """The defender's answers from a set of rule instances, and follow-up elsewhere."""

    def __init__(self, field: Field, instances: Sequence[Instance]) -> None:
        self.field = field
        answers: dict[int, tuple[int, ...]] = {}
        reserved = field.poison
        for item in instances:
            reserved |= item.cells
            for cell, replies in item.answers:
                answers[cell] = answers.get(cell, ()) + tuple(r for r in replies if r not in answers.get(cell, ()))
        for threat in bits_of(field.threats & ~field.stacked):
            answers[threat >> 1] = (threat,)  # the cell below a threat is answered on the threat
        for threat in bits_of(field.stacked):
            answers[threat >> 2] = (threat >> 1,)  # two below a stacked pair: below the threat, then
            answers[threat] = (threat << 1,)  # the mover must block the threat, and the one above wins
        self.answers = answers
        self.reserved = reserved
        self.winning = [item.group for item in instances if item.wins]
        self._follow = field.zone if field.free else field.even  # follow-up plays these cells
        self._threats = field.threats | field.stacked << 1  # the cells where the defender may win at once
        self._bottom, self._full = field.cells.geometry.bottom_mask, field.cells.geometry.board_mask

    def replies(self, mover: int, defender: int, cell: int) -> list[int]:
        """The defender's candidate answers to the mover's stone on ``cell`` (in order of preference)."""
        playable = (mover + defender + self._bottom) & self._full  # (as Cells.playable: the carry finds the top)
        for threat in bits_of(self._threats & playable):
            if self.field.cells.completes(defender | threat, threat):
                return [threat]  # a win at once comes first
        ruled = self.answers.get(cell)
        if ruled:
            found = [reply for reply in ruled if reply & playable]
            if found:
                return found
        free = playable & self._follow  # follow-up: an even cell of the zones
        if not free:
            return []
        above = cell << 1
        first = [above] if above & free else []
        free &= ~above
        mine = free & ~self.reserved
        return first + bits_of(mine) + bits_of(free & self.reserved)


def verify(field: Field, instances: Sequence[Instance], want_win: bool, nodes: int = CHECK_NODES) -> bool | None:
    """Does the strategy of ``instances`` hold against every reply? None: more than ``nodes`` positions."""
    return Checker(field, instances, want_win, nodes).holds(field.mover, field.defender)


class Checker:
    """Plays a strategy out from any position of its field; what it learns is kept for the next question."""

    def __init__(self, field: Field, instances: Sequence[Instance], want_win: bool, nodes: int = CHECK_NODES):
        self.field, self.want_win, self.nodes = field, want_win, nodes
        self.strategy = Strategy(field, instances)
        self._memo: dict[tuple[int, int], bool] = {}
        self._left = 0

    def holds(self, mover: int, defender: int) -> bool | None:
        """With the mover to move, does the strategy hold against every reply? None: over the budget."""
        self._left = self.nodes
        try:
            return self._mover_moves(mover, defender, self._alive(defender))
        except _OverBudget:
            return None

    def _alive(self, defender: int) -> int:
        """The problems (a bitmask over their indices) without a stone of the defender's."""
        alive = 0
        for index, group in enumerate(self.field.problems):
            if not group & defender:
                alive |= 1 << index
        return alive

    def answer(self, mover: int, defender: int, cell: int) -> int | None:
        """The defender's answer to the mover's stone on ``cell`` (in ``mover``) that holds, or None."""
        cells = self.field.cells
        for reply in self.strategy.replies(mover, defender, cell):
            stones = defender | reply
            if cells.completes(stones, reply) or self.holds(mover, stones):
                return reply
        return None

    def _decided(self, mover: int, defender: int, alive: int) -> bool | None:
        """The shortcuts of the module, or None (``alive``: the problems still without a defender's stone)."""
        field = self.field
        if alive:
            return None
        if not self.want_win:
            return True
        if any(not poison & (mover | defender) for poison in bits_of(field.poison)):
            return True  # a frozen column untouched: in the end the mover must play its poison cell
        if any(not group & mover for group in self.strategy.winning):
            return True
        return None

    def _mover_moves(self, mover: int, defender: int, alive: int) -> bool:
        key = (mover, defender)
        memo = self._memo
        if key in memo:
            return memo[key]
        self._left -= 1
        if self._left < 0:
            raise _OverBudget
        cells = self.field.cells
        mask = mover | defender
        result = self._decided(mover, defender, alive)
        if result is None:
            result = True
            if mask == cells.geometry.board_mask:
                result = not self.want_win
            for cell in bits_of(cells.playable(mask)):
                stones = mover | cell
                if cells.completes(stones, cell) or not self._defender_answers(stones, defender, cell, alive):
                    result = False
                    break
        memo[key] = result
        return result

    def _defender_answers(self, mover: int, defender: int, cell: int, alive: int) -> bool:
        cells = self.field.cells
        if mover | defender == cells.geometry.board_mask:
            return not self.want_win
        holding = self.field.holding
        for reply in self.strategy.replies(mover, defender, cell):
            stones = defender | reply
            if cells.completes(stones, reply) or self._mover_moves(mover, stones, alive & ~holding.get(reply, 0)):
                return True
        return False
