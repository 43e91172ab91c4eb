"""How to play: the rules in three lines and every control."""

from __future__ import annotations

import pygame

from game import drawing
from game.bindings import PLAYING
from game.scene import Host
from game.scenes.base import FormScene
from game.theme import ACCENT, MUTED, PANEL, TEXT
from game.widgets import Button

RULES = (
    "Take turns dropping a disc into a column; it falls to the lowest free cell.",
    "The first to line up four of their discs - across, up and down, or diagonally - wins.",
    "A full board with no line is a draw. Other board sizes and connect-N work the same way.",
)

#: After the keys of play (from the shortcuts card): where to find the others.
MORE_CONTROLS = (
    ("F1  or  ?", "every keyboard shortcut;  F2: settings"),
    ("Esc", "back one screen"),
)


class HelpScene(FormScene):
    name = "help"
    title = "How to play"

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.back = Button("Back", self.dismiss, primary=True)
        self.form.set_widgets([self.back])
        self.entries = (*dict(app.shortcuts())[PLAYING], *MORE_CONTROLS)

    def resize(self, size: tuple[int, int]) -> None:
        self.area = self.content(size)
        self.button_row([self.back], self.area)

    def draw_content(self, surface: pygame.Surface) -> None:
        theme, px, area = self.theme, self.theme.px, self.area
        box = pygame.Rect(area.x, area.y, area.width, self.back.rect.top - area.y - px(20))
        drawing.panel(surface, box, px(14), PANEL)
        x, y = box.x + px(28), box.y + px(22)
        theme.draw_text(surface, "The rules", 20, (x, y), ACCENT, bold=True)
        y += px(34)
        for rule in RULES:
            y = theme.draw_text(surface, rule, 16, (x, y), TEXT, wrap=box.width - px(56)).bottom + px(8)
        y += px(18)
        theme.draw_text(surface, "Controls", 20, (x, y), ACCENT, bold=True)
        y += theme.font_px(20) + px(12)
        # as many as fit (all but with a large text size), then a pointer to the shortcuts card
        size, line = 16, theme.font_px(16) + px(8)
        controls = self.entries
        rows = max(1, min(len(controls), (box.bottom - y) // line))
        shown = controls if rows == len(controls) else (*controls[: rows - 1], ("F1  or  ?", "all the keys"))
        keys_width = max(theme.font(size, True).size(keys)[0] for keys, _ in shown) + px(24)
        for keys, meaning in shown:
            theme.draw_text(surface, keys, size, (x, y), TEXT, bold=True)
            room = box.right - px(28) - x - keys_width
            theme.draw_text(surface, theme.fit_text(meaning, size, room), size, (x + keys_width, y), MUTED)
            y += line
