"""The move list beside the board: every move numbered, its 1-based column, the current one marked.

Moves are shown two to a row, as the game alternates (the first player's on
the left). Moves of the start position are dimmed, moves taken back (which
redo can replay) are faint, and the latest move on the board is marked. A
click on a move asks the match screen to show the game as it was just after
it. The list scrolls by itself to keep the current move in view, and with
the mouse wheel.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

import pygame

from engine.board import Side
from game import drawing
from game.model import Colour
from game.theme import ACCENT, DISC, FAINT, MUTED, PANEL, PANEL_LIGHT, TEXT, Theme, shade

if TYPE_CHECKING:
    from game.match_model import MatchModel


class MoveState(Enum):
    START = "start"  # part of the position the game started from
    PLAYED = "played"  # on the board
    UNDONE = "undone"  # taken back, can be replayed


@dataclass(frozen=True)
class MoveEntry:
    ply: int  # 1-based number of the move in the whole game
    column: int  # 0-based
    colour: Colour
    state: MoveState
    current: bool = False  # the latest move on the board


class MoveList:
    """Layout, scrolling and hit-testing of the list, and its picture, made in :meth:`update`;
    :meth:`draw` only blits that picture."""

    TITLE = 15  # design sizes (scaled by the theme)
    ROW = 22
    NUMBER = 34

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.entries: list[MoveEntry] = []
        self.note = ""  # a line above the moves (e.g. that the game began from a grid)
        self.first_row = 0  # the row shown at the top
        self._current: int | None = None
        self._cells: list[tuple[pygame.Rect, int]] = []  # (rect, index into the entries) of the visible moves
        self._image: pygame.Surface | None = None  # the panel as drawn, rebuilt by _arrange

    def layout(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self._arrange()

    # -- what is shown ----------------------------------------------------------------------------
    def update(self, entries: list[MoveEntry], note: str = "") -> list[pygame.Rect]:
        """New entries: scroll to keep the current move (or else the last one) in view. Returns where
        the picture changed: the title and the rows of the moves that changed, or all of it."""
        if entries == self.entries and note == self.note:
            return []
        before = {index: (cell, self.entries[index]) for cell, index in self._cells}
        whole = note != self.note or not entries or not self.entries
        first_row = self.first_row
        self.entries, self.note = entries, note
        current = next((i for i, entry in enumerate(entries) if entry.current), len(entries) - 1)
        if current != self._current and entries:
            self._current = current
            row = self.row_of(current)
            if row < self.first_row:
                self.first_row = row
            elif row >= self.first_row + self.visible_rows:
                self.first_row = row - self.visible_rows + 1
        self._arrange()
        if whole or self.first_row != first_row:
            return [self.rect]
        after = {index: (cell, entries[index]) for cell, index in self._cells}
        changed = [cell for index, (cell, _) in after.items() if before.get(index) != after[index]]
        changed += [cell for index, (cell, _) in before.items() if after.get(index) != before[index]]
        title = pygame.Rect(self.rect.x, self.rect.y, self.rect.width, self._top)  # the count, the scroll note
        return [title, *(pygame.Rect(self.rect.x, cell.y, self.rect.width, cell.height) for cell in changed)]

    def scroll(self, rows: int) -> None:
        """Scroll by ``rows`` (the mouse wheel), within the list."""
        last = self.row_of(len(self.entries) - 1) if self.entries else 0
        self.first_row = max(0, min(self.first_row + rows, last - self.visible_rows + 1))
        self._arrange()

    def entry_at(self, pos: tuple[int, int]) -> int | None:
        """The index of the move shown under ``pos``, or None (the start position's moves are not clickable)."""
        return next(
            (
                index
                for rect, index in self._cells
                if rect.collidepoint(pos) and self.entries[index].state is not MoveState.START
            ),
            None,
        )

    def row_of(self, index: int) -> int:
        """The row of entry ``index``: rows pair plies 1-2, 3-4, ... of the whole game."""
        return (self.entries[index].ply - 1) // 2 - (self.entries[0].ply - 1) // 2

    @property
    def _row_height(self) -> int:
        """A row: the design height, or more when the player's text size asks for it."""
        return max(self.theme.px(self.ROW), self.theme.font_px(14) + self.theme.px(6))

    @property
    def _top(self) -> int:
        """Where the first row starts (from the panel's top): under the title, and the note if there is one."""
        return self._row_height * 3 // 2 + (self._row_height if self.note else 0)

    @property
    def visible_rows(self) -> int:
        return max(1, (self.rect.height - self._top - self._row_height // 3) // self._row_height)

    def _arrange(self) -> None:
        """Lay out the visible moves and draw the panel into its image (the frames only blit it)."""
        px, row_height = self.theme.px, self._row_height
        number_width = px(self.NUMBER)
        cell_width = (self.rect.width - px(16) - number_width) // 2
        local: list[tuple[pygame.Rect, int]] = []
        numbers: list[tuple[str, tuple[int, int]]] = []
        rows = self.visible_rows
        for index, entry in enumerate(self.entries):
            row = self.row_of(index) - self.first_row
            if not 0 <= row < rows:
                continue
            y = self._top + row * row_height
            if entry.ply % 2 == 1 or index == 0:
                numbers.append((f"{(entry.ply + 1) // 2}.", (number_width, y + px(3))))
            left = px(8) + number_width + ((entry.ply - 1) % 2) * cell_width
            local.append((pygame.Rect(left, y, cell_width - px(4), row_height), index))
        self._cells = [(cell.move(self.rect.topleft), index) for cell, index in local]
        self._image = self._render(local, numbers)

    def _render(self, cells: list[tuple[pygame.Rect, int]], numbers: list[tuple[str, tuple[int, int]]]):
        theme, px = self.theme, self.theme.px
        image = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        drawing.panel(image, image.get_rect(), px(12), PANEL, raised=False)
        played = sum(entry.state is not MoveState.UNDONE for entry in self.entries)  # the discs on the board
        theme.draw_text(image, f"Moves · {played}", self.TITLE, (px(12), px(8)), MUTED, bold=True)
        if self.note:
            note = theme.fit_text(self.note, 12, self.rect.width - px(24))
            theme.draw_text(image, note, 12, (px(12), self._top - self._row_height), MUTED)
        if not self.entries:
            theme.draw_text(image, "No moves yet", 13, (px(12), self._top + px(2)), MUTED)
            return image
        for text, pos in numbers:
            theme.draw_text(image, text, 13, pos, MUTED, anchor="topright")
        for cell, index in cells:
            self._draw_move(image, cell, self.entries[index])
        last = self.row_of(len(self.entries) - 1)
        if self.first_row > 0 or last >= self.first_row + self.visible_rows:
            more = f"{self.first_row + 1}–{min(last + 1, self.first_row + self.visible_rows)} of {last + 1}"
            theme.draw_text(image, more, 11, (self.rect.width - px(10), px(10)), MUTED, anchor="topright")
        return image

    # -- drawing --------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        radius = self.theme.px(12)  # the shadow of a raised drawing.panel
        drawing.shadow(surface, self.rect, radius, blur=max(2, radius // 2), offset=max(2, radius // 3), alpha=90)
        if self._image is not None:
            surface.blit(self._image, self.rect)

    def _draw_move(self, surface: pygame.Surface, cell: pygame.Rect, entry: MoveEntry) -> None:
        theme, px = self.theme, self.theme.px
        if entry.current:
            pygame.draw.rect(surface, PANEL_LIGHT, cell, border_radius=px(6))
            pygame.draw.rect(surface, ACCENT, cell, width=max(1, px(2)), border_radius=px(6))
        disc = DISC[entry.colour]
        pygame.draw.circle(
            surface,
            disc if entry.state is MoveState.PLAYED else shade(disc, 0.5),
            (cell.x + px(10), cell.centery),
            max(2, px(5)),
        )
        colour = {MoveState.PLAYED: TEXT, MoveState.START: MUTED, MoveState.UNDONE: FAINT}[entry.state]
        theme.draw_text(
            surface,
            str(entry.column + 1),
            14,
            (cell.x + px(22), cell.centery),
            colour,
            bold=entry.current,
            anchor="midleft",
        )


def move_entries(model: MatchModel) -> tuple[list[MoveEntry], str]:
    """The entries of a match's move list, and its note (a game that began from a grid has no early moves)."""
    start, board = model.start, model.board
    root = start.ply - len(start.history)  # discs of a grid start, whose order nobody knows
    base, on_board = len(start.history), len(board.history)
    line = [*board.history, *(col for col, _ in reversed(model.redo_stack))]
    entries = []
    for index, col in enumerate(line):
        state = MoveState.START if index < base else MoveState.PLAYED if index < on_board else MoveState.UNDONE
        colour = model.colour_of(Side((root + index) % 2))
        entries.append(MoveEntry(root + index + 1, col, colour, state, current=index == on_board - 1))
    return entries, f"From a position of {root} discs" if root else ""
