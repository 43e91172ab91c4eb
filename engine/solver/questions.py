"""Which null-window question a solve asks next.

A solve is a chain of questions "is the score above s?", each one null-window
search, until the bounds meet. Which ``s`` comes next decides how many there
are and how costly each is. One order for every solver: the compiled one
(:mod:`engine.solver.negamax`, which compiles this function), its two threads
and the plain-Python :mod:`engine.solver.quick` (which must not load numba).
"""

from __future__ import annotations

#: Positions with fewer stones than this are asked for their sign first.
SIGN_FIRST_PLIES = 4
#: Positions with at least this many empty cells are early: their questions step out from 0.
EARLY_EMPTY = 37
#: In early positions, questions about scores at least this far from 0 are cheap.
FAR_FROM_ZERO = 8
#: Later, scores this close to 0 are asked about one at a time.
STEP_ZONE = 2


def next_question(low: int, high: int, ply: int, cells: int) -> int:
    """The value ``s`` of the next null-window question "is the score above s?" (low <= s < high).

    ``low`` and ``high`` bound the score (both included) of a position with ``ply`` stones on a
    board of ``cells`` cells.
    """
    early = cells - ply >= EARLY_EMPTY
    if low < 0 < high:
        if ply < SIGN_FIRST_PLIES:
            # In the first few moves no quick win exists and every question near 0 costs about
            # as much as the sign itself: ask the sign at once. (Measured: 79 -> 64 s on the
            # empty board.)
            return 0
        # While the sign is open, cheap questions far from 0 first: they narrow the interval.
        # (-(-low // 2) is low / 2 rounded towards zero.)
        middle = low + (high - low) // 2
        if middle <= 0 and -(-low // 2) < middle:
            middle = -(-low // 2)
        elif middle >= 0 and high // 2 > middle:
            middle = high // 2
        if early and abs(middle) < FAR_FROM_ZERO:
            # Early in a game the score lies near 0, and a question between 0 and the score
            # costs about as much as the score itself: past the cheap far ones, ask the sign ...
            return 0
        return middle
    if early or (low < STEP_ZONE and high > -STEP_ZONE):
        # ... then step away from 0 one score at a time ("above 1?" after "above 0?"), as later
        # too while the score is next to 0, where each proof is costliest. (Early, measured
        # against halving on positions of 6 stones of 9x5, 8x6 and 7x7, one thread: 8-43 % fewer
        # nodes on the slowest ones, 14 % fewer on 24 positions of 8 stones, 90 % more on one
        # scoring 5; on 7x6 from 37 empty cells: 8 % fewer on Pons's first 20 early positions,
        # 3 % more on the first 200 middle ones. Asking the sign first at every stage made Pons's
        # end games take 10 times the nodes.)
        return low if low >= 0 else high - 1
    return low + (high - low) // 2
