"""The difficulty ladder: every preset the game offers, easiest first, with its measured Elo.

Each level beats the one below it in most games; the ratings come from a
round robin of the presets (``python -m engine tournament beginner novice
easy medium hard expert perfect --games 16``, Bradley-Terry maximum
likelihood, anchored so that ``beginner`` is 1000), played on the 7x6 board
from varied two-move openings, each with both colours, on a 2-core machine
under a competing CPU load. The README gives the crosstable and the
intervals. Re-measure and update the figures here when a preset changes:
the game's level list and ``--help`` read them from this one place.

Weak levels play like weaker people, not broken programs: from ``easy`` up
they see a win in one and an immediate threat (they search at least two
plies), and they pick among equally good or nearly as good moves at random
(``tolerance``, ``seed``), so their games vary.
"""

from __future__ import annotations

from engine.agents.registry import register_preset

#: name, spec, summary, Elo (None: not measured yet). The order is the ladder's.
LADDER: tuple[tuple[str, str, str, int | None], ...] = (
    ("beginner", "random", "drops discs at random", None),
    ("novice", "greedy:eval=seed004,tolerance=30", "likes lines of its own, ignores yours", None),
    ("easy", "alphabeta:depth=2,eval=seed004,order=center,tolerance=30", "wins and blocks, one move ahead", None),
    ("medium", "alphabeta:depth=4,eval=seed004,tolerance=20", "looks four moves ahead", None),
    ("hard", "alphabeta:depth=81,time=0.5,eval=threats", "deep search with threat analysis (0.5 s)", None),
    ("expert", "mcts:time=1.5,endgame=24", "tree search with exact endgames (1.5 s)", None),
    (
        "perfect",
        "perfect",
        "exact up to 42 cells, estimates beyond",
        None,
    ),
)

for level, (name, spec, summary, elo) in enumerate(LADDER):
    register_preset(name, spec, summary, level, elo)
