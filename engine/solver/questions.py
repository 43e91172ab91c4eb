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
#: Scores this close to 0 are asked about one at a time.
STEP_ZONE = 2


def next_question(low: int, high: int, ply: int) -> int:
    """The value ``s`` of the next null-window question "is the score above s?" (low <= s < high).

    ``low`` and ``high`` bound the score (both included) of a position with ``ply`` stones.
    """
    middle = low + (high - low) // 2
    if low < 0 < high and ply < SIGN_FIRST_PLIES:
        # In the first few moves no quick win exists and every question near 0 costs about
        # as much as the sign itself: ask the sign at once. (Measured: 79 -> 64 s on the
        # empty board; from 4 stones on, far questions pay on the Pons sets.)
        middle = 0
    elif low < 0 < high:
        # While the sign is open, cheap questions far from 0 first: they narrow the
        # interval. (-(-low // 2) is low / 2 rounded towards zero.)
        if middle <= 0 and -(-low // 2) < middle:
            middle = -(-low // 2)
        elif middle >= 0 and high // 2 > middle:
            middle = high // 2
    # Once it is known and the score is next to 0 (where the scores of openings lie and
    # each proof is costliest), ask about the very next score: "above 1?" after "above 0?".
    elif 0 <= low < STEP_ZONE:
        middle = low
    elif -STEP_ZONE < high <= 0:
        middle = high - 1
    return middle
