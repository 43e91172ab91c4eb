"""A reason on the board: the cells each rule claims, the pairs it shares, the groups it refutes, the threats.

:func:`draw_marks` draws an :class:`engine.explain.marks.Why` over a
:class:`~game.board_view.BoardView` (after the discs and the frame). Every
kind of mark has its own shape, so the picture reads without telling the
colours apart: a ring on a cell the defender is sure to get, a dotted link
between two cells of which it gets one, a bar along its own line, a thin
dashed line along each group of the mover's it refutes, a star on a winning
cell, a square on the cell the mover must play last.

A mark may lie on a hole, on the board or on a disc of either colour (its
own, too: a bar along the defender's line crosses the defender's discs), in
any look. So each is drawn in the defender's colour or white inside a
near-black edge (:func:`inks`): no colour is close to both black and white,
so one of them always stands out. The finer marks go under the bolder ones,
and the rules' names on top. The moves of a reason that looks ahead are
drawn first as see-through discs (the marks are about the position after
them), their numbers last, on white, above every mark.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from game import drawing
from game.model import Colour
from game.theme import DISC, Paint, Theme

if TYPE_CHECKING:
    from engine.board import Board
    from engine.explain.marks import Mark, Why
    from game.board_view import BoardView

#: The marks' edge and paper, also the labels' ink and paper: black and white in every look (the board's
#: colours change with the look; against any colour one of the two has a contrast of 4 or more).
EDGE, PAPER = (20, 20, 24), (250, 250, 246)
#: The kinds of marks from the bottom up: the many thin dashes under the bars, dots and cell marks.
LAYERS = ("refuted", "line", "pair", "claim", "threat", "poison")
#: What each mark means, for the key beside the board.
KEY = (
    ("ring", "a cell {defender} is sure to get"),
    ("dots", "two cells: {defender} gets one"),
    ("bar", "{defender}'s own line"),
    ("dashes", "a line of {mover}'s it stops"),
    ("star", "a cell that wins; square: played last"),
)
#: The rules' short names on the board (as in the engine's diagrams).
SHORT = {
    "claimeven": "ce",
    "baseinverse": "bi",
    "vertical": "v",
    "aftereven": "ae",
    "lowinverse": "li",
    "highinverse": "hi",
    "baseclaim": "bc",
    "before": "b",
    "specialbefore": "sb",
    "odd-threat": "t",
    "double-threat": "dt",
}


def line_cells(board: Board, moves: str) -> list[tuple[int, int, int]]:
    """``(col, row, number)`` where each move of ``moves`` (played on ``board``) lands, numbered from 1."""
    heights = [board.height(col) for col in range(board.geometry.cols)]
    cells = []
    for number, move in enumerate(moves, start=1):
        col = int(move) - 1
        cells.append((col, heights[col], number))
        heights[col] += 1
    return cells


def inks(kind: str, own: Paint) -> tuple[Paint, ...]:
    """The colours a mark of ``kind`` is drawn in, from its edge in to its fill (``own``: the defender's)."""
    if kind in ("refuted", "poison"):
        return EDGE, PAPER
    if kind in ("line", "pair"):  # (these cross discs and the board: a white rim between edge and fill)
        return EDGE, PAPER, own
    return EDGE, own


def draw_marks(
    surface: pygame.Surface, theme: Theme, view: BoardView, board: Board, why: Why, colours: tuple[Colour, Colour]
) -> None:
    """The marks of ``why`` on ``view``, which shows ``board`` (``colours``: the first player's, the second's)."""
    radius = view.cell * 0.4
    line = line_cells(board, why.moves)
    for col, row, number in line:
        disc = drawing.disc(DISC[colours[(board.ply + number - 1) % 2]], round(radius), alpha=150)
        surface.blit(disc, disc.get_rect(center=_round(view.cell_centre(col, row))))
    own = DISC[colours[why.defender]]
    labels: list[tuple[str, tuple[float, float]]] = []
    for mark in sorted(why.marks, key=lambda mark: LAYERS.index(mark.kind) if mark.kind in LAYERS else 0):
        labels += _draw_mark(surface, theme, view, mark, inks(mark.kind, own))
    for text, centre in labels:
        _label(surface, theme, text, centre)
    for col, row, number in line:
        _label(surface, theme, str(number), view.cell_centre(col, row), size=14)


def _draw_mark(
    surface: pygame.Surface, theme: Theme, view: BoardView, mark: Mark, colours: tuple[Paint, ...]
) -> list[tuple[str, tuple[float, float]]]:
    """One mark, in ``colours`` (see :func:`inks`); returns its labels and where they go."""
    px, radius, short = theme.px, view.cell * 0.4, SHORT.get(mark.rule, "")
    points = [view.cell_centre(col, row) for col, row in mark.cells]
    if not points:
        return []
    start, end = points[0], points[-1]
    if mark.kind == "refuted":
        for colour, width in zip(colours, (px(6), px(2)), strict=True):
            _dashed(surface, colour, start, end, width, px(10))
    elif mark.kind == "line":
        for colour, width in zip(colours, (px(16), px(12), px(8)), strict=True):
            pygame.draw.line(surface, colour, start, end, width)
    elif mark.kind == "pair":
        for colour, size in zip(colours, (px(6), px(4.5), px(3)), strict=True):
            _dotted(surface, colour, start, end, size, spacing=px(15))
        middle = _along(start, end, 0.5)
        return [(short, (middle[0] + radius * 0.45, middle[1]))]
    elif mark.kind == "claim":
        for point in points:
            drawing.ring(surface, colours[0], point, radius * 0.8 + px(2), px(8))  # (2 pixels each side)
            drawing.ring(surface, colours[1], point, radius * 0.8, px(4))
        return [(short, (point[0] + radius * 0.62, point[1] + radius * 0.62)) for point in points]
    elif mark.kind == "threat":
        for point in points:
            _star(surface, colours[1], colours[0], point, radius * 0.7)
    elif mark.kind == "poison":
        for point in points:
            square = pygame.Rect(0, 0, round(radius * 0.7), round(radius * 0.7))
            square.center = _round(point)
            pygame.draw.rect(surface, colours[0], square.inflate(px(4), px(4)))
            pygame.draw.rect(surface, colours[1], square, px(3))
    return []


def _round(point: tuple[float, float]) -> tuple[int, int]:
    return round(point[0]), round(point[1])


def _label(surface: pygame.Surface, theme: Theme, text: str, centre: tuple[float, float], size: int = 12) -> None:
    """A rule's short name or a move's number in a small box (black on white, in every look)."""
    if not text:
        return
    image = theme.text(text, size, EDGE, bold=True)
    box = image.get_rect(center=_round(centre)).inflate(theme.px(8), theme.px(2))
    pygame.draw.rect(surface, PAPER, box, border_radius=theme.px(5))
    pygame.draw.rect(surface, EDGE, box, 1, border_radius=theme.px(5))
    surface.blit(image, image.get_rect(center=box.center))


def _dashed(surface, colour, start, end, width: int, dash: int) -> None:
    """A dashed line from ``start`` to ``end`` (dashes and gaps ``dash`` pixels long)."""
    length = math.dist(start, end)
    steps = max(1, int(length // dash))
    for step in range(0, steps, 2):
        a = step / steps
        b = min(1.0, (step + 1) / steps)
        pygame.draw.line(surface, colour, _along(start, end, a), _along(start, end, b), width)


def _dotted(surface, colour, start, end, radius: int, spacing: int) -> None:
    """Round dots from ``start`` to ``end``, about ``spacing`` pixels apart."""
    length = math.dist(start, end)
    count = max(2, int(length // spacing))
    for step in range(count + 1):
        pygame.draw.circle(surface, colour, _along(start, end, step / count), radius)


def _along(start, end, share: float) -> tuple[float, float]:
    return start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share


def _star(surface, fill, outline, centre: tuple[float, float], size: float) -> None:
    """A five-pointed star."""
    points = []
    for index in range(10):
        angle = math.pi / 2 + index * math.pi / 5
        reach = size if index % 2 == 0 else size * 0.45
        points.append((centre[0] + reach * math.cos(angle), centre[1] - reach * math.sin(angle)))
    pygame.draw.polygon(surface, fill, points)
    pygame.draw.polygon(surface, outline, points, max(2, round(size / 7)))
