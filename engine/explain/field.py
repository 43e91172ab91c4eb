"""The position as the rules see it: who defends, which cells are "even", which groups are problems.

Allis's rules are the strategy of the player who *controls zugzwang*: the
one who can answer every move on top of it (follow-up) and so take every
cell of the *follow rows* - on six rows the 2nd, 4th and 6th, Allis's
"even" squares. Here the side to move is the **mover** and the other the
**defender**, whose rules show the mover cannot win.

* With an even number of empty cells the defender follows up: the even
  cells are, in each column, the top cell and every second one below it
  (the rows :mod:`engine.solver.claimeven` calls follow rows: on five rows
  the 1st, 3rd and 5th).
* With an odd number the defender needs an **odd threat** (Allis §4.3): a
  cell ``t`` that would complete a defender's group, whose cell below is
  empty. Neither side plays below ``t`` (the mover would hand over ``t``, the
  defender would have it blocked), so the column stops there: its *zone*
  ends two cells below ``t``. When the cells outside the zones (the one
  below ``t`` and everything above) are odd in number, the zones hold an
  even number and the defender follows up in them; at the end the mover
  must play below ``t`` and loses.

Where the defender controls no zugzwang at all, a *free* field still allows
the rules that need no follow-up: pairs of cells of which the defender takes
the one the mover leaves (baseinverse, and vertical pairs of either parity).

The mover's **problems** are the groups the mover could still complete (no
defender stone); a group through ``t`` or above it is no problem, as the
defender wins at ``t`` before it could be completed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, product

from engine.explain.cells import Cells, bits_of

#: Fields (sets of threats) tried in one position.
FIELDS = 6


@dataclass(frozen=True)
class Field:
    """One position for one defender: zones, even cells, problems (all bitmasks)."""

    cells: Cells
    mover: int
    defender: int
    #: the defender's threats (one cell a column, each with an empty cell below) whose columns are frozen:
    #: an odd threat gives it zugzwang, an even one keeps the parity (0: none, the empty cells are even in number)
    threats: int = 0
    #: those of ``threats`` with a threat of the defender's directly above (a stacked pair) whose column is
    #: frozen from two cells below: the mover's stone there is answered on the cell below the threat, after
    #: which the mover must block the threat and the defender wins above it
    stacked: int = 0
    #: the defender does not control zugzwang: only rules that need no follow-up (pairs) apply
    free: bool = False

    @cached_property
    def mask(self) -> int:
        return self.mover | self.defender

    @cached_property
    def empty(self) -> int:
        return self.cells.geometry.board_mask & ~self.mask

    @cached_property
    def playable(self) -> int:
        return self.cells.playable(self.mask)

    @cached_property
    def poison(self) -> int:
        """The lowest frozen cell of each column: the cell below a threat (two below a stacked pair).

        Whoever plays it hands the threat over (the bits of a column: shifting down a cell is shifting by one).
        """
        return (self.threats & ~self.stacked) >> 1 | self.stacked >> 2

    @cached_property
    def frozen(self) -> int:
        """Each poison cell and every cell above it in its column (0 without a threat)."""
        frozen = 0
        for poison in bits_of(self.poison):
            frozen |= self.cells.columns[self.cells.column_of(poison)] & ~(poison - 1)  # from the poison up
        return frozen

    @cached_property
    def zone(self) -> int:
        """The empty cells the rules play on: every empty cell outside the frozen part."""
        return self.empty & ~self.frozen

    @cached_property
    def even(self) -> int:
        """The zone's follow cells (Allis's even squares): each column's zone top and every second below.

        None in a free field: nobody follows up there.
        """
        if self.free:
            return 0
        g = self.cells.geometry
        even = 0
        for col in range(g.cols):
            top = self.top(col)
            for row in range(top, -1, -2):
                even |= g.cell(col, row)
        return even & self.zone

    @cached_property
    def odd(self) -> int:
        return 0 if self.free else self.zone & ~self.even

    def top(self, col: int) -> int:
        """The highest row of column ``col``'s zone (-1: none)."""
        poison = self.poison & self.cells.columns[col]
        if poison:
            return self.cells.col_row(poison)[1] - 1
        return self.cells.geometry.rows - 1

    @cached_property
    def controlled(self) -> bool:
        """Does the defender control zugzwang: an even number of empty cells in the zones?"""
        return self.zone.bit_count() % 2 == 0

    @cached_property
    def problems(self) -> tuple[int, ...]:
        """The mover's groups still to refute: no defender stone, not already won past, not above the threat."""
        # Above the poison the defender wins (or blocks) first; but the lower cell of a stacked pair is the
        # mover's in the end (it must block there), so groups through it stay problems.
        safe = self.frozen & ~self.poison & ~self.stacked
        return tuple(group for group in self.cells.groups if not group & (self.defender | safe) and group & ~self.mover)

    @cached_property
    def holding(self) -> dict[int, int]:
        """cell -> the problems (as a bitmask over their indices) that hold it."""
        holding: dict[int, int] = {}
        for index, group in enumerate(self.problems):
            for cell in bits_of(group & ~self.mover):
                holding[cell] = holding.get(cell, 0) | 1 << index
        return holding

    def holding_all(self, bits: int) -> int:
        """The problems that hold every cell of ``bits`` (empty cells)."""
        holding = self.holding
        found = -1
        while bits:
            cell = bits & -bits  # the lowest cell left
            found &= holding.get(cell, 0)
            if not found:
                return 0
            bits ^= cell
        return 0 if found == -1 else found

    def own_groups(self) -> list[int]:
        """The defender's groups with no mover stone and at least one empty cell."""
        return [group for group in self.cells.groups if not group & self.mover and group & ~self.defender]


def column_threats(cells: Cells, mover: int, defender: int) -> list[int]:
    """The defender's threats whose cell below is empty: the lowest of each column, lowest first."""
    g = cells.geometry
    empty = g.board_mask & ~(mover | defender)
    playable = cells.playable(mover | defender)
    found = []
    for column in cells.columns:
        for cell in bits_of(empty & column & ~playable):
            if cells.completes(defender | cell, cell):
                found.append(cell)
                break
    return sorted(found, key=lambda cell: cells.col_row(cell)[1])


def stackable(cells: Cells, mover: int, defender: int, threat: int) -> bool:
    """Is ``threat`` the lower of two threats of the defender's, one above the other, with two empty cells below?"""
    above, below = cells.above(threat), cells.below(threat)
    lower = cells.below(below) if below else 0
    empty = cells.geometry.board_mask & ~(mover | defender)
    return bool(above and lower and lower & empty and cells.completes(defender | above, above))


def fields(cells: Cells, mover: int, defender: int) -> list[Field]:
    """The fields in which the defender controls zugzwang, the fewest threats first (at most ``FIELDS``).

    Without a threat where the empty cells are even in number; else with
    each set of the defender's threats (one a column, a stacked pair frozen
    from the cell below the threat or from the one below that) whose frozen
    columns leave the zones even.
    """
    options: list[list[tuple[int, int]]] = []  # each column's ways: (threat, stacked)
    for threat in column_threats(cells, mover, defender):
        ways = [(threat, 0)]
        if stackable(cells, mover, defender, threat):
            ways.append((threat, threat))
        options.append(ways)
    found = []
    for size in range(len(options) + 1):
        for columns in combinations(options, size):
            for chosen in product(*columns):
                field = Field(cells, mover, defender, sum(t for t, _ in chosen), sum(s for _, s in chosen))
                if field.controlled:
                    found.append(field)
                    if len(found) == FIELDS:
                        return found
    return found
