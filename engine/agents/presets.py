"""The difficulty ladder: every preset the game offers, easiest first, with its measured Elo.

The ratings come from one tournament per pair of neighbouring levels
(``python -m engine tournament easy medium --games 16``: eight seeded
two-move openings on 7x6, each with both colours), all games in one
Bradley-Terry fit (``python -m engine bench ladder results/pair_*/``, mean
1500), measured on a shared 2-core machine under heavy load (load average
15-20). The README gives the crosstable, the intervals and which steps
still fall short of winning 70 % of games against the level below.
Re-measure and update the figures here when a preset changes: the game's
level list and ``--help`` read them from this one place.

Weak levels play like weaker people, not broken programs: from ``easy`` up
they see a win in one and an immediate threat (they search at least two
plies), and they pick among equally good or nearly as good moves at random
(``tolerance``, ``seed``), so their games vary.
"""

from __future__ import annotations

from engine.agents.registry import register_preset

#: name, spec, summary, Elo (None: not measured yet). The order is the ladder's.
LADDER: tuple[tuple[str, str, str, int | None], ...] = (
    ("beginner", "random", "drops discs at random", 366),
    ("novice", "greedy:eval=seed004,tolerance=30", "likes lines of its own, ignores yours", 772),
    ("easy", "alphabeta:depth=2,eval=seed004,order=center,tolerance=30", "wins and blocks, one move ahead", 1379),
    ("medium", "alphabeta:depth=4,eval=seed004,tolerance=20", "looks four moves ahead", 1462),
    ("hard", "alphabeta:depth=81,time=0.5,eval=threats", "deep search with threat analysis (0.5 s)", 2070),
    ("expert", "mcts:time=1.5,endgame=24", "tree search with exact endgames (1.5 s)", 2070),
    (
        "perfect",
        "perfect",
        "exact up to 42 cells, estimates beyond",
        2381,
    ),
)

for level, (name, spec, summary, elo) in enumerate(LADDER):
    register_preset(name, spec, summary, level, elo)
