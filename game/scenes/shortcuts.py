"""Every keyboard shortcut on one card, over whatever screen is showing (F1 or ?).

The card is made from every screen's key table (see :mod:`game.bindings`):
a key described there shows here. The card closes with the key that opened
it, Escape, Enter or a click, and takes no other input, so nothing happens
behind it by mistake.
"""

from __future__ import annotations

import pygame

from game import drawing
from game.bindings import Binding, Bindings, Card
from game.scene import Host, Scene
from game.theme import ACCENT, MUTED, PANEL, TEXT

LEFT_GROUPS = 2  # on a wide card, the first two groups make the left column, the others the right one

#: A column of the card: groups, each a title and some of its entries (a long group may go on in the next column).
Column = list[tuple[str, tuple[tuple[str, str], ...]]]


class ShortcutsOverlay(Scene):
    """The card of shortcuts, drawn over the screen below it.

    Every entry shows in full: two columns when the window is wide enough for both,
    else one; and when the window is too short for them, the card has pages
    (← → turn them).
    """

    name = "shortcuts"
    overlay = True
    bindings = Bindings(
        Binding("left pageup", "previous_page", repeat=True, when="has_pages"),
        Binding("right pagedown", "next_page", repeat=True, when="has_pages"),
        Binding("escape f1 return kp_enter space ?", "dismiss"),
    )

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.shortcuts: Card = app.shortcuts()
        self.card = pygame.Rect(0, 0, 0, 0)
        self.columns = 1
        self.pages: list[list[Column]] = [[list(self.shortcuts)]]
        self.page = 0

    def handle_event(self, event: pygame.event.Event) -> None:
        if not self.bindings.dispatch(self, event) and event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.dismiss()

    def has_pages(self, event: pygame.event.Event) -> bool:
        return len(self.pages) > 1

    def previous_page(self) -> None:
        self.page = max(0, self.page - 1)

    def next_page(self) -> None:
        self.page = min(len(self.pages) - 1, self.page + 1)

    def resize(self, size: tuple[int, int]) -> None:
        theme, px = self.app.theme, self.app.theme.px
        width, height = size
        shortcuts = self.shortcuts
        entries = [entry for _, group in shortcuts for entry in group]
        self.keys_width = max(theme.font(15, True).size(keys)[0] for keys, _ in entries) + px(16)
        column = self.keys_width + max(theme.font(15).size(meaning)[0] for _, meaning in entries) + px(16)
        # side by side when both columns show every entry in full
        self.columns = 2 if 2 * column + px(48) <= width - px(24) else 1
        chrome = theme.font_px(22) + theme.font_px(13) + px(70)  # title, closing hint, margins
        room = max(4, (height - px(24) - chrome) // self.line)  # rows that fit one above the other
        balanced = max(column_lines(shortcuts[:LEFT_GROUPS]), column_lines(shortcuts[LEFT_GROUPS:]))
        flowed = flow(shortcuts, min(room, balanced) if self.columns == 2 else room)
        self.pages = [flowed[index : index + self.columns] for index in range(0, len(flowed), self.columns)]
        self.page = min(self.page, len(self.pages) - 1)
        lines = max(column_lines(part) for part in flowed)
        card_width = min(width - px(24), self.columns * column + px(48))
        self.card = pygame.Rect(0, 0, card_width, min(height - px(24), lines * self.line + chrome))
        self.card.center = (width // 2, height // 2)

    @property
    def line(self) -> int:
        """The height of one row of the card: room for the text at the player's text size."""
        return self.app.theme.font_px(15) + self.app.theme.px(10)

    def draw(self, surface: pygame.Surface) -> None:
        theme, px, card = self.app.theme, self.app.theme.px, self.card
        drawing.translucent(surface, surface.get_rect(), (0, 0, 0), 150)
        drawing.panel(surface, card, px(16), PANEL, ACCENT, 2)
        title = theme.draw_text(
            surface, "Keyboard shortcuts", 22, (card.centerx, card.y + px(16)), TEXT, bold=True, anchor="midtop"
        )
        column_width = (card.width - px(48)) // self.columns
        keys_width = min(column_width * 2 // 5, self.keys_width)
        for number, column in enumerate(self.pages[self.page]):
            x, y = card.x + px(24) + number * column_width, title.bottom + px(12)
            for index, (group, entries) in enumerate(column):
                if index:
                    y += self.line // 2
                theme.draw_text(surface, group, 16, (x, y), ACCENT, bold=True)
                y += self.line + px(2)
                for keys, meaning in entries:
                    keys = theme.fit_text(keys, 15, keys_width - px(8), bold=True)
                    theme.draw_text(surface, keys, 15, (x, y), TEXT, bold=True)
                    room = column_width - keys_width - px(16)
                    theme.draw_text(surface, theme.fit_text(meaning, 15, room), 15, (x + keys_width, y), MUTED)
                    y += self.line
        hint = "Esc, F1 or ? to close"
        if len(self.pages) > 1:
            hint = f"Page {self.page + 1} of {len(self.pages)}: ← → turn   {hint}"
        theme.draw_text(surface, hint, 13, (card.centerx, card.bottom - px(12)), MUTED, anchor="midbottom")


def flow(groups, room: int) -> list[Column]:
    """The groups in columns of at most ``room`` rows: whole groups where they fit, a long one split."""
    columns: list[Column] = [[]]
    for title, entries in groups:
        while entries:
            column = columns[-1]
            if column_lines([*column, (title, entries)]) <= room:
                column.append((title, entries))
                break
            if column:  # a group starts a new column rather than being cut
                columns.append([])
                continue
            taken = entries[: max(1, room - 2)]
            column.append((title, taken))
            entries, title = entries[len(taken) :], f"{title} (continued)"
            columns.append([])
    return [column for column in columns if column]


def column_lines(groups) -> int:
    """The rows a column of groups takes: a title per group, its keys, and half a row between groups."""
    return sum(len(entries) + 1 for _, entries in groups) + (len(groups) - 1) // 2 + 1
