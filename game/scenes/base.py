"""What the set-up screens share: a title, a form of controls and a footer of key hints."""

from __future__ import annotations

import pygame

from game.scene import Scene
from game.theme import ACCENT, FAINT, MUTED, TEXT
from game.widgets import Button, Form, paste_text

KEY_HINTS = "↑ ↓ move   ← → change   Enter select   Esc back   F1 all keys"
#: The footer of the screens that choose a game (the menu has its own).
SETUP_KEY_HINTS = "↑ ↓ move   ← → change   Enter select   Ctrl+V paste a game   Esc back   F1 all keys"


class FormScene(Scene):
    """A screen made of controls under a title."""

    title = ""
    subtitle = ""
    key_hints = KEY_HINTS  # the footer: the keys that matter on this screen
    #: Ctrl+V (unless a text field takes it) starts a game from a pasted position: on the menu and the set-up screens.
    pastes_games = False

    def __init__(self, app) -> None:
        super().__init__(app)
        self.form = Form(app.theme)

    @property
    def theme(self):
        return self.app.theme

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.form.handle_event(event):
            return
        ctrl = event.type == pygame.KEYDOWN and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        if ctrl and event.key == pygame.K_v and self.pastes_games:
            self.start_pasted_game()
        else:
            super().handle_event(event)

    def start_pasted_game(self) -> None:
        """A game from a pasted move string or text grid, with the players chosen so far (the last ones on
        the menu); a message says why when the text is not a position to play from."""
        from game.scenes.board_setup import start_match

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
        return pygame.Rect((size[0] - width) // 2, top, width, size[1] - top - px(52))

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
        draw_preparation_note(surface, self.app, height - theme.px(40))
        theme.draw_text(surface, self.key_hints, 13, (width / 2, height - theme.px(18)), FAINT, anchor="midbottom")

    def draw_content(self, surface: pygame.Surface) -> None:
        """Whatever the screen draws besides its controls."""


def draw_preparation_note(surface: pygame.Surface, app, y: float) -> None:
    """On a first start, one line centred at ``y`` saying which computer player is being prepared and how far
    along the preparing is (it fits the window: the end gives way to an ellipsis on a narrow one)."""
    progress = app.catalog.progress()
    if progress is None or not progress.compiling:
        return
    theme, width = app.theme, surface.get_width()
    note = theme.fit_text(progress.sentence(), 14, width - theme.px(40))
    theme.draw_text(surface, note, 14, (width / 2, y), ACCENT, anchor="center")
