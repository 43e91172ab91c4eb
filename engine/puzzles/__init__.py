"""Puzzles: positions with one answer, proven by the solver, from good play and from a player's own games.

- :mod:`~engine.puzzles.puzzle`: the :class:`Puzzle` value and its JSON form, checked field by field;
- :mod:`~engine.puzzles.finder`: whether a position is a puzzle (one winning or one saving column);
- :mod:`~engine.puzzles.motifs`: what the solution does (win in N, forced block, double threat, ...);
- :mod:`~engine.puzzles.build`: the shipped set, from seeded games of good play, reproducibly;
- :mod:`~engine.puzzles.store`: the set's file (``assets/puzzles.txt``), checksummed and checked on loading;
- :mod:`~engine.puzzles.verify`: every puzzle of a set checked again by the solver;
- :mod:`~engine.puzzles.mistakes`: a reviewed game's mistakes as puzzles.
"""
