"""A reason on the board: the cells each rule claims, the pairs it shares, the groups it refutes, the threats.

:func:`draw_marks` draws an :class:`engine.explain.marks.Why` over a
:class:`~game.board_view.BoardView` (after the discs and the frame). Every
kind of mark has its own shape, so the picture reads in every look and
without telling the colours apart: a ring on a cell the defender is sure to
get, a dotted link between two cells of which it gets one, a bar along its
own line, a thin dashed line along each group of the mover's it refutes, a
star on a winning cell, a square on the cell the mover must play last. Each
mark is outlined in the board's dark shade, so it stands out on the discs of
either colour. The moves of a reason that looks ahead are drawn first as
numbered see-through discs (the marks are about the position after them).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from game import drawing
from game.model import Colour
from game.theme import BOARD_DARK, DISC, TEXT, Theme

if TYPE_CHECKING:
    from engine.board import Board
    from engine.explain.marks import Why
    from game.board_view import BoardView

#: The labels' ink and paper: black on white in every look (the board's colours change with the look).
LABEL_INK, LABEL_PAPER = (20, 20, 24), (250, 250, 246)
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


def draw_marks(
    surface: pygame.Surface, theme: Theme, view: BoardView, board: Board, why: Why, colours: tuple[Colour, Colour]
) -> None:
    """The marks of ``why`` on ``view``, which shows ``board`` (``colours``: the first player's, the second's)."""
    px = theme.px
    radius = view.cell * 0.4
    for col, row, number in line_cells(board, why.moves):
        colour = colours[(board.ply + number - 1) % 2]
        centre = view.cell_centre(col, row)
        disc = drawing.disc(DISC[colour], round(radius), alpha=150)
        surface.blit(disc, disc.get_rect(center=(round(centre[0]), round(centre[1]))))
        theme.draw_text(surface, str(number), 14, centre, TEXT, bold=True, anchor="center")
    own = DISC[colours[why.defender]]
    outline = BOARD_DARK
    for mark in why.marks:
        points = [view.cell_centre(col, row) for col, row in mark.cells]
        if mark.kind == "refuted":
            _dashed(surface, outline, points[0], points[-1], px(5), px(10))
            _dashed(surface, TEXT, points[0], points[-1], px(2), px(10))
        elif mark.kind == "line":
            pygame.draw.line(surface, outline, points[0], points[-1], px(14))
            pygame.draw.line(surface, own, points[0], points[-1], px(8))
        elif mark.kind == "pair":
            _dotted(surface, outline, points[0], points[-1], px(5))
            _dotted(surface, own, points[0], points[-1], px(3))
            middle = _middle(points[0], points[-1])
            _label(surface, theme, SHORT.get(mark.rule, ""), (middle[0] + radius * 0.45, middle[1]))
        elif mark.kind == "claim":
            for point in points:
                drawing.ring(surface, outline, point, radius * 0.82, px(7))
                drawing.ring(surface, own, point, radius * 0.8, px(4))
                _label(surface, theme, SHORT.get(mark.rule, ""), (point[0] + radius * 0.62, point[1] + radius * 0.62))
        elif mark.kind == "threat":
            for point in points:
                _star(surface, own, outline, point, radius * 0.7)
        elif mark.kind == "poison":
            for point in points:
                square = pygame.Rect(0, 0, round(radius * 0.7), round(radius * 0.7))
                square.center = (round(point[0]), round(point[1]))
                pygame.draw.rect(surface, outline, square.inflate(px(4), px(4)))
                pygame.draw.rect(surface, TEXT, square, px(3))


def _middle(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _label(surface: pygame.Surface, theme: Theme, text: str, centre: tuple[float, float]) -> None:
    """A rule's short name in a small box (dark on light, in every look)."""
    if not text:
        return
    image = theme.text(text, 12, LABEL_INK, bold=True)
    box = image.get_rect(center=(round(centre[0]), round(centre[1]))).inflate(theme.px(8), theme.px(2))
    pygame.draw.rect(surface, LABEL_PAPER, box, border_radius=theme.px(5))
    pygame.draw.rect(surface, LABEL_INK, box, 1, border_radius=theme.px(5))
    surface.blit(image, image.get_rect(center=box.center))


def _dashed(surface, colour, start, end, width: int, dash: int) -> None:
    """A dashed line from ``start`` to ``end`` (dashes and gaps ``dash`` pixels long)."""
    length = math.dist(start, end)
    steps = max(1, int(length // dash))
    for step in range(0, steps, 2):
        a = step / steps
        b = min(1.0, (step + 1) / steps)
        pygame.draw.line(surface, colour, _along(start, end, a), _along(start, end, b), width)


def _dotted(surface, colour, start, end, radius: int) -> None:
    """Round dots from ``start`` to ``end``."""
    length = math.dist(start, end)
    count = max(2, int(length // (radius * 3)))
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
    pygame.draw.polygon(surface, outline, points, max(2, round(size / 8)))
