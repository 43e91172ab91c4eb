"""The evaluation graph of a reviewed game: the exact value for Red after every move.

Up is good for Red. A win sits above the middle line and a loss below it, the
quicker the win (or loss) the farther out; a draw is on the line. Moves the
solver has not reached yet leave a gap, mistakes and blunders get a coloured
dot, and the move under review a vertical marker.
"""

from __future__ import annotations

import pygame

from engine.geometry import Geometry
from game import drawing
from game.theme import ACCENT, DANGER, FAINT, MUTED, PANEL, TEXT, Theme

#: The dot colour of each label worth pointing out.
LABEL_COLOURS = {"mistake": (255, 170, 60), "blunder": DANGER}


def height_of(score: int, geometry: Geometry) -> float:
    """A score's place on the graph in [-1, 1]: 0 for a draw, wins from 0.35 (the slowest) to 1 (at once)."""
    if score == 0:
        return 0.0
    top = (geometry.cells + 1) // 2  # the largest score there is: a win with the first stone
    magnitude = 0.35 + 0.65 * min(1.0, abs(score) / top)
    return magnitude if score > 0 else -magnitude


def draw_graph(
    surface: pygame.Surface,
    theme: Theme,
    rect: pygame.Rect,
    values: list[float | None],
    labels: list[str | None],
    selected: int,
) -> None:
    """``values[i]``: the height (see :func:`height_of`) after ``i`` moves, None if unknown; ``labels[i]``
    the label of move ``i`` (index 0 unused); ``selected``: the number of moves shown on the board."""
    px = theme.px
    drawing.panel(surface, rect, px(10), PANEL, None, 1)
    inner = rect.inflate(-px(24), -px(24))
    mid = inner.centery
    pygame.draw.line(surface, FAINT, (inner.x, mid), (inner.right, mid), 1)
    theme.draw_text(surface, "Red wins", 11, (inner.x + px(2), inner.y), MUTED)
    theme.draw_text(surface, "Yellow wins", 11, (inner.x + px(2), inner.bottom), MUTED, anchor="bottomleft")
    count = max(1, len(values) - 1)

    def point(index: int, value: float) -> tuple[float, float]:
        return inner.x + inner.width * index / count, mid - value * inner.height / 2

    x_selected = inner.x + inner.width * selected / count
    pygame.draw.line(surface, ACCENT, (x_selected, inner.y), (x_selected, inner.bottom), max(1, px(2)))
    run: list[tuple[float, float]] = []
    for index, value in enumerate([*values, None]):
        if value is None:
            if len(run) > 1:
                pygame.draw.aalines(surface, TEXT, False, run)
            run = []
        else:
            run.append(point(index, value))
    for index, value in enumerate(values):
        if value is None:
            continue
        colour = LABEL_COLOURS.get(labels[index] or "")
        if colour is not None:
            pygame.draw.circle(surface, colour, point(index, value), px(4))
        elif index == selected:
            pygame.draw.circle(surface, ACCENT, point(index, value), px(4))


def index_at(rect: pygame.Rect, theme: Theme, pos: tuple[int, int], moves: int) -> int | None:
    """The number of moves at a click on the graph, or None outside it."""
    if not rect.collidepoint(pos):
        return None
    inner = rect.inflate(-theme.px(24), -theme.px(24))
    fraction = (pos[0] - inner.x) / max(1, inner.width)
    return max(0, min(moves, round(fraction * moves)))
