"""Hypothesis strategies: board geometries and random legal games."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.geometry import MAX_COLS, MAX_CONNECT, MAX_ROWS, MIN_COLS, MIN_CONNECT, MIN_ROWS, Geometry


@st.composite
def geometries(draw) -> Geometry:
    cols = draw(st.integers(MIN_COLS, MAX_COLS))
    rows = draw(st.integers(MIN_ROWS, MAX_ROWS))
    connect = draw(st.integers(MIN_CONNECT, min(MAX_CONNECT, max(cols, rows))))
    return Geometry(cols, rows, connect)


def choices(length: int = 81):
    """Raw choices; a test maps each to one of the legal columns at its turn."""
    return st.lists(st.integers(0, 1000), max_size=length)
