"""What the shipped puzzle set is built from (light: read by ``--help`` without loading the solver)."""

from __future__ import annotations

from engine.geometry import Geometry

#: The boards of the shipped set (connect 4), 7x6 first.
BOARDS = (Geometry(7, 6), Geometry(6, 7), Geometry(6, 6), Geometry(7, 5), Geometry(6, 5))
DEFAULT_SEED = 46
#: Games per board, and puzzles kept per band and board, of the shipped set.
DEFAULT_GAMES = 400
DEFAULT_PER_BAND = 60
