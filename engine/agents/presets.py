"""The difficulty ladder: every preset the game offers, easiest first, with its measured Elo.

The ratings come from games played by the game's own window (hidden), each
computer thinking on the worker thread beside the frame loop, as players
meet them (``python -m game.tournament``): a round robin of every pair of
levels from two-move openings with both colours, and more games for each
pair of neighbouring levels, all in one Bradley-Terry fit
(``python -m engine bench ladder DIR...``, mean 1500). docs/ladder.md gives the
commands, the crosstable, the intervals and each level's win rate over the
level below. Re-measure and update the figures here when a preset changes:
the game's level list and ``--help`` read them from this one place.

Each level must win at least 70 % of its games against the one below, so
the steps are wide: ``hard`` searches four plies (no clock, so a seed replays
its games), far below the ``expert`` tree search. Weak levels play like
weaker people, not broken programs: from ``easy`` up they see a win in one
and an immediate threat (they search at least two plies), and they pick
among equally good or nearly as good moves at random (``tolerance``,
``seed``), so their games vary.
"""

from __future__ import annotations

from engine.agents.registry import register_preset

#: name, spec, summary, Elo (None: not measured yet). The order is the ladder's.
LADDER: tuple[tuple[str, str, str, int | None], ...] = (
    ("beginner", "random", "drops discs at random", 776),
    ("novice", "greedy:eval=central", "takes a win it sees, else likes the middle", 998),
    ("easy", "alphabeta:depth=2,eval=zero", "wins and blocks, else plays at random", 1247),
    ("medium", "alphabeta:depth=2,eval=seed004,order=center,tolerance=30", "wins, blocks and builds lines", 1488),
    ("hard", "alphabeta:depth=4,eval=threats,tolerance=20", "looks four moves ahead, weighs threats", 1703),
    ("expert", "mcts:seconds=1.5,endgame=24", "tree search with exact endgames (1.5 s)", 2027),
    ("perfect", "perfect", "exact on connect 4 up to 42 cells", 2261),
)

for level, (name, spec, summary, elo) in enumerate(LADDER):
    register_preset(name, spec, summary, level, elo)
