"""A question before something that cannot be undone (a new game over an unfinished one).

A panel over the screen that asked, with the question, a line that says what
is at stake, and two buttons: the action (Y) and "Keep
playing" (Escape), which has the focus, so that Enter pressed by habit never
throws a game away. It closes with True for the action, else None.
"""

from __future__ import annotations

import pygame

from game import drawing
from game.bindings import BACK, Binding, Bindings
from game.scene import Host, Scene
from game.theme import MUTED, PANEL, TEXT
from game.widgets import Button, Form


class Confirm(Scene):
    """``question`` and ``detail`` over the screen below; ``action`` names the button that goes ahead."""

    name = "confirm"
    overlay = True
    bindings = Bindings(Binding("y", "accept", "Y", "yes, go ahead (in a question)", button="Y"), BACK)

    def __init__(self, app: Host, question: str, detail: str, action: str, stay: str = "Keep playing") -> None:
        super().__init__(app)
        self.question, self.detail = question, detail
        self.go = Button(action, self.accept, detail=self.bindings.hint("accept"))
        self.stay = Button(stay, self.dismiss, primary=True, detail="Esc")
        self.form = Form(app.theme)
        self.form.set_widgets([self.go, self.stay], focus=self.stay)
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.wrap = 0

    def accept(self) -> None:
        self.dismiss(True)

    def handle_event(self, event: pygame.event.Event) -> None:
        if not self.bindings.dispatch(self, event):
            self.form.handle_event(event)

    def resize(self, size: tuple[int, int]) -> None:
        """The panel as tall as its wrapped words, centred, the two buttons along its bottom."""
        theme, px = self.app.theme, self.app.theme.px
        width = min(px(560), size[0] - px(40))
        self.wrap = width - px(48)
        words = theme.text(self.question, 22, TEXT, True, self.wrap).get_height() + px(8)
        words += theme.text(self.detail, 15, MUTED, wrap=self.wrap).get_height()
        self.panel = pygame.Rect(0, 0, width, px(24) + words + px(20) + px(50) + px(24))
        self.panel.center = (size[0] // 2, size[1] // 2)
        button_width = min(px(200), (width - px(62)) // 2)
        self.stay.rect = pygame.Rect(self.panel.right - px(24) - button_width, 0, button_width, px(50))
        self.stay.rect.bottom = self.panel.bottom - px(24)
        self.go.rect = self.stay.rect.move(-button_width - px(14), 0)

    def draw(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        drawing.translucent(surface, surface.get_rect(), (4, 8, 20), 120)
        drawing.panel(surface, self.panel, px(16), PANEL)
        at = (self.panel.x + px(24), self.panel.y + px(24))
        title = theme.draw_text(surface, self.question, 22, at, TEXT, bold=True, wrap=self.wrap)
        theme.draw_text(surface, self.detail, 15, (at[0], title.bottom + px(8)), MUTED, wrap=self.wrap)
        self.form.draw(surface)
