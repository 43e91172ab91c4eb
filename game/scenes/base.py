"""What the set-up screens share: a title, a form of controls and a footer of key hints."""

from __future__ import annotations

import pygame

from game.bindings import FORM
from game.scene import Host, Scene
from game.theme import ACCENT, MUTED, TEXT, Theme
from game.widgets import Button, Form, paste_text


class FormScene(Scene):
    """A screen made of controls under a title; its footer names the keys of its ``bindings``.

    The form takes the keys it needs first (a text field takes what is typed,
    Ctrl+V included); the screen's bindings get the others. A screen that has
    ``PASTE_GAME`` among them starts a game from a pasted position on Ctrl+V.
    """

    title = ""
    subtitle = ""
    bindings = FORM

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.form = Form(app.theme)

    @property
    def theme(self) -> Theme:
        return self.app.theme

    def handle_event(self, event: pygame.event.Event) -> None:
        if not self.form.handle_event(event):
            self.bindings.dispatch(self, event)

    def start_pasted_game(self) -> None:
        """A game from a pasted move string or text grid, with the players chosen so far (the last ones on
        the menu); a message says why when the text is not a position to play from."""
        from game.start import start_match

        if not self.choices_ready():
            return
        problem = start_match(self.app, paste_text())
        if problem:
            self.app.notify(problem, error=True)

    def choices_ready(self) -> bool:
        """Can a game start with what this screen chose? (If not, the screen says why.)"""
        return True

    def content(self, size: tuple[int, int]) -> pygame.Rect:
        """The area between the title and the footer."""
        theme, px = self.theme, self.theme.px
        width = min(size[0] - 2 * px(40), px(900))
        # below the title and subtitle, which grow with the player's text size
        top = max(px(118), self._subtitle_top() + theme.font_px(16) + px(14))
        note_top = self._note_y(size[1]) - theme.font(14).get_linesize() // 2 - px(4)  # the content ends above it
        return pygame.Rect((size[0] - width) // 2, top, width, min(size[1] - px(52), note_top) - top)

    def _note_y(self, height: int) -> int:
        """The middle of a first start's preparing note in a window ``height`` high: above the footer however
        large the text is."""
        theme = self.theme
        return height - theme.px(20) - theme.font(13).get_linesize() - theme.font(14).get_linesize() // 2

    def _subtitle_top(self) -> int:
        theme = self.theme
        return max(theme.px(80), theme.px(34) + theme.font(34, True).get_linesize() + theme.px(2))

    def button_row(self, buttons: list[Button], area: pygame.Rect) -> None:
        """Lay out buttons side by side at the bottom of ``area``, the last one on the right."""
        px = self.theme.px
        width, height, gap = px(190), px(50), px(16)
        x = area.right - len(buttons) * width - (len(buttons) - 1) * gap
        for button in buttons:
            button.rect = pygame.Rect(x, area.bottom - height, width, height)
            x += width + gap

    def draw(self, surface: pygame.Surface) -> None:
        self.app.draw_background(surface)
        theme, (width, height) = self.theme, surface.get_size()
        theme.draw_text(surface, self.title, 34, (width / 2, theme.px(34)), TEXT, bold=True, anchor="midtop")
        if self.subtitle:  # under the title, however large the player's text size makes it
            theme.draw_text(surface, self.subtitle, 16, (width / 2, self._subtitle_top()), MUTED, anchor="midtop")
        self.draw_content(surface)
        self.form.draw(surface)
        draw_preparation_note(surface, self.app, self._note_y(height))
        footer = self.bindings.footer()
        theme.draw_text(surface, footer, 13, (width / 2, height - theme.px(18)), MUTED, anchor="midbottom")

    def draw_content(self, surface: pygame.Surface) -> None:
        """Whatever the screen draws besides its controls."""


def draw_preparation_note(surface: pygame.Surface, app: Host, y: float) -> None:
    """On a first start, one line centred at ``y`` saying which computer player is being prepared and how far
    along the preparing is (it fits the window: the end gives way to an ellipsis on a narrow one)."""
    progress = app.catalog.progress()
    if progress is None or not progress.compiling:
        return
    theme, width = app.theme, surface.get_width()
    note = theme.fit_text(progress.sentence(), 14, width - theme.px(40))
    theme.draw_text(surface, note, 14, (width / 2, y), ACCENT, anchor="center")
