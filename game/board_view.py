"""The board on screen: where every cell is, and how the discs and marks are drawn.

:meth:`BoardView.layout` fits the board into a rectangle (called when the
window changes size) and builds the cached images; :meth:`BoardView.draw`
only blits. Discs are drawn *behind* the frame, so a falling disc shows
through the holes it passes, as on a real board. Heights are in rows
(row 0 is the bottom one; ``rows`` and above is the space over the board).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field

import pygame

from engine.geometry import Geometry
from game import drawing
from game.animation import HAND_ROW, Animations
from game.model import Colour
from game.theme import ACCENT, DISC, TEXT

WIN_LINE = (226, 232, 246)

Owner = Callable[[int, int], Colour | None]
#: What the board shows, part by part: ``(col, row)`` a cell, ``(col, rows)`` the space above a
#: column (the disc in hand, a hint's arrow); see :meth:`BoardView.picture`.
Picture = dict[tuple[int, int], Hashable]


@dataclass
class Marks:
    """What to show on top of the discs."""

    ghost: tuple[int, Colour] | None = None  # the column under the pointer and the colour to play
    hint: int | None = None  # a suggested column
    last_move: tuple[int, int] | None = None
    winning: list[tuple[int, int]] = field(default_factory=list)
    pulse: float = 0.0  # 0..1, for breathing highlights


class BoardView:
    """Layout and drawing of one board size."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.cell = 1
        self.frame = pygame.Rect(0, 0, 1, 1)
        self._pad = 0
        self._radius = 1
        self._frame_image: pygame.Surface | None = None

    # -- geometry ---------------------------------------------------------------------------
    def layout(self, area: pygame.Rect) -> None:
        """Fit the board (and the space for the disc in hand above it) into ``area``."""
        cols, rows = self.geometry.cols, self.geometry.rows
        cell = int(min(area.width / (cols + 0.5), area.height / (rows + 1.45)))
        cell = max(cell, 12)
        pad = round(cell * 0.22)
        width, height = cols * cell + 2 * pad, rows * cell + 2 * pad
        top = area.bottom - height - max(0, (area.height - height - cell * 1.2) // 2)
        frame = pygame.Rect(area.centerx - width // 2, top, width, height)
        hole = round(cell * 0.4)
        self._frame_image = drawing.board_frame(cols, rows, cell, pad, hole)  # cached until the look changes
        self._radius = hole - 1
        self.cell, self._pad, self.frame = cell, pad, frame

    def cell_centre(self, col: int, row: float) -> tuple[float, float]:
        """The pixel centre of a cell; ``row`` may be fractional (a disc in flight)."""
        x = self.frame.x + self._pad + (col + 0.5) * self.cell
        y = self.frame.y + self._pad + (self.geometry.rows - 1 - row + 0.5) * self.cell
        return x, y

    @property
    def hand_row(self) -> float:
        return self.geometry.rows + HAND_ROW

    def part_area(self, part: tuple[int, int]) -> pygame.Rect:
        """Where a part of the :meth:`picture` is drawn (with a pixel or two for rounding)."""
        col, row = part
        x, y = self.cell_centre(col, min(row, self.geometry.rows - 1))
        cell = pygame.Rect(round(x - self.cell / 2), round(y - self.cell / 2), self.cell, self.cell)
        if row == self.geometry.rows:  # from above the disc in hand down to the holes of the top row
            top = self.cell_centre(col, self.hand_row)[1] - self.cell
            cell = pygame.Rect(cell.x, round(top), self.cell, self.frame.y + self._pad - round(top))
        return cell.inflate(4, 4)

    def column_at(self, pos: tuple[int, int]) -> int | None:
        """The column under a pointer position (the board and the space above it), or None."""
        x, y = pos
        left = self.frame.x + self._pad
        if not (left <= x < self.frame.right - self._pad):
            return None
        if not (self.frame.y - self.cell * 1.3 <= y <= self.frame.bottom):
            return None
        return min(self.geometry.cols - 1, int((x - left) // self.cell))

    # -- drawing ------------------------------------------------------------------------------
    def picture(
        self, owner: Owner, animations: Animations, marks: Marks, extra: Mapping[tuple[int, int], Hashable]
    ) -> Picture | None:
        """What :meth:`draw` shows in each part of the board, as values to compare (``extra``: what
        others draw on cells); None while a winning line is drawn, which crosses cells.

        Two pictures differ exactly where the board must be redrawn, except for what moves (falling
        discs, a mark's breathing), which the match redraws on every frame anyway.
        """
        if marks.winning:
            return None
        rows = self.geometry.rows
        glow = marks.ghost[0] if marks.ghost is not None else None
        hand = marks.ghost if marks.ghost is not None and not self._disc_above(animations) else None
        rings: dict[tuple[int, int | None], Hashable] = {}  # where the disc in hand and the hint would land
        if hand is not None:
            rings[hand[0], landing_row(owner, hand[0], rows)] = hand[1]
        if marks.hint is not None:
            rings[marks.hint, landing_row(owner, marks.hint, rows)] = "hint"
        last = marks.last_move if marks.last_move is not None and not animations.in_flight(*marks.last_move) else None
        picture: Picture = {}
        for col in range(self.geometry.cols):
            for row in range(rows):
                cell = (col, row)
                disc = None if animations.in_flight(col, row) else owner(col, row)
                picture[cell] = (disc, col == glow, cell == last, rings.get(cell), extra.get(cell))
            picture[col, rows] = (hand[1] if hand is not None and hand[0] == col else None, marks.hint == col)
        return picture

    def _disc_above(self, animations: Animations) -> bool:
        """A falling disc is still above the board (the disc in hand is hidden meanwhile)."""
        return any(disc.y > self.geometry.rows - 1 for disc in animations.falling)

    def draw(
        self,
        surface: pygame.Surface,
        owner: Owner,
        animations: Animations,
        marks: Marks,
    ) -> None:
        """Discs (settled and falling), the frame, then the marks."""
        radius, winning = self._radius, set(marks.winning)
        drawing.shadow(surface, self.frame, round(self._pad * 1.6), blur=14, offset=10, alpha=120)
        if marks.ghost is not None:
            self._draw_column_glow(surface, marks.ghost[0])
        for col in range(self.geometry.cols):
            for row in range(self.geometry.rows):
                colour = owner(col, row)
                if colour is None or animations.in_flight(col, row):
                    continue
                dim = bool(winning) and (col, row) not in winning
                image = drawing.dimmed_disc(DISC[colour], radius) if dim else drawing.disc(DISC[colour], radius)
                self._blit_disc(surface, image, col, row)
        for disc in animations.falling:
            self._blit_disc(surface, drawing.disc(DISC[disc.colour], radius), disc.col, disc.y)
        assert self._frame_image is not None  # made by the layout, before any drawing
        surface.blit(self._frame_image, self.frame)
        if marks.ghost is not None and not self._disc_above(animations):
            col, colour = marks.ghost
            self._blit_disc(surface, drawing.disc(DISC[colour], radius), col, self.hand_row)
            landing = landing_row(owner, col, self.geometry.rows)
            if landing is not None:  # where the disc would land
                drawing.ring(surface, DISC[colour], self.cell_centre(col, landing), radius * 0.92, 3, alpha=150)
        if marks.hint is not None:
            self._draw_hint(surface, marks.hint, marks.pulse, owner)
        if marks.last_move is not None and not animations.in_flight(*marks.last_move):
            x, y = self.cell_centre(*marks.last_move)
            drawing.ring(surface, TEXT, (x, y), radius * 0.28, max(2, radius // 12), alpha=200)
        if winning:
            self._draw_winning_lines(surface, winning, marks.pulse)

    def _blit_disc(self, surface: pygame.Surface, image: pygame.Surface, col: int, row: float) -> None:
        x, y = self.cell_centre(col, row)
        surface.blit(image, image.get_rect(center=(round(x), round(y))))

    def _draw_column_glow(self, surface: pygame.Surface, col: int) -> None:
        """Light behind the frame: the holes of the column under the pointer look lit."""
        x, _ = self.cell_centre(col, 0)
        rect = pygame.Rect(0, 0, self.cell - 4, self.frame.height - 2 * self._pad)
        rect.midbottom = (round(x), self.frame.bottom - self._pad)
        drawing.translucent(surface, rect, (255, 255, 255), 22, radius=self.cell // 2)

    def _draw_hint(self, surface: pygame.Surface, col: int, pulse: float, owner) -> None:
        """A bouncing arrow over the suggested column and a ring where the disc would land."""
        x, _ = self.cell_centre(col, 0)
        tip = self.frame.y + self._pad * 0.8 - self.cell * 0.08 * pulse  # bobbing on the top edge of the frame
        size = self.cell * 0.28
        points = [(x - size, tip - size * 1.2), (x + size, tip - size * 1.2), (x, tip)]
        pygame.draw.polygon(surface, ACCENT, points)
        pygame.draw.aalines(surface, (210, 225, 255), True, points)
        landing = landing_row(owner, col, self.geometry.rows)
        if landing is not None:
            drawing.ring(surface, ACCENT, self.cell_centre(col, landing), self._radius * (0.86 + 0.08 * pulse), 4)

    def _draw_winning_lines(self, surface: pygame.Surface, cells: set[tuple[int, int]], pulse: float) -> None:
        """A bright line through each run of winning discs and a breathing ring on each disc."""
        width = max(4, round(self.cell * 0.1))
        for start, end in winning_runs(cells, self.geometry.connect):
            a, b = self.cell_centre(*start), self.cell_centre(*end)
            pygame.draw.line(surface, WIN_LINE, a, b, width)
            for point in (a, b):
                pygame.draw.circle(surface, WIN_LINE, point, width / 2)

        for col, row in cells:
            x, y = self.cell_centre(col, row)
            drawing.ring(surface, (255, 255, 255), (x, y), self._radius * (0.9 + 0.08 * pulse), max(2, width // 2))


def landing_row(owner: Owner, col: int, rows: int) -> int | None:
    """Where a disc dropped in ``col`` would land (None: the column is full)."""
    return next((row for row in range(rows) if owner(col, row) is None), None)


def winning_runs(cells: set[tuple[int, int]], connect: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The first and last cell of every straight run of at least ``connect`` winning cells."""
    runs = []
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for col, row in cells:
            if (col - dc, row - dr) in cells:
                continue  # not the start of a run in this direction
            length = 1
            while (col + length * dc, row + length * dr) in cells:
                length += 1
            if length >= connect:
                runs.append(((col, row), (col + (length - 1) * dc, row + (length - 1) * dr)))
    return runs
