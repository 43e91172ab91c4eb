"""The result, as a banner over the top of the finished match: rematch, change the settings, or the menu.

The banner covers only the players' panels (it says who won), so the board
and its highlighted winning line stay in view. Escape closes it to look at
the final position; the match screen offers the result again from its
buttons.
"""

from __future__ import annotations

import pygame

from game import drawing
from game.scene import Scene
from game.settings import Colour, Mode
from game.theme import DISC, MUTED, PANEL, SUCCESS, TEXT
from game.widgets import Button, Form


class ResultOverlay(Scene):
    overlay = True

    def __init__(self, app, match) -> None:
        super().__init__(app)
        self.match = match
        starts = match.config.first.other.title
        self.again = Button("Rematch", self.rematch, primary=True, detail=f"{starts} moves first")
        self.settings = Button("Change settings", self.change_settings)
        self.menu = Button("Main menu", self.main_menu)
        self.review = Button("Review (V)", self.open_review, detail="every move, by the solver")
        self.form = Form(app.theme, [self.again, self.review, self.settings, self.menu])
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.headline_y, self.stacked = 0, False

    # -- actions ---------------------------------------------------------------------------------
    def rematch(self) -> None:
        self.app.pop()
        self.match.rematch()

    def open_review(self) -> None:
        self.app.pop()
        self.match.show_review()

    def change_settings(self) -> None:
        from game.scenes.menu import MainMenu
        from game.scenes.mode_select import ModeSelect

        self.app.reset(MainMenu, ModeSelect)

    def main_menu(self) -> None:
        from game.scenes.menu import MainMenu

        self.app.reset(MainMenu)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_r:
            self.rematch()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_v:
            self.open_review()
        elif not self.form.handle_event(event):
            super().handle_event(event)

    # -- layout and drawing -------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        """The buttons beside the headline when it fits there in full, else in a row under it."""
        theme, px = self.app.theme, self.app.theme.px
        gap, height, pad = px(10), px(60), px(20)
        buttons = (self.again, self.review, self.settings, self.menu)
        self.panel = pygame.Rect(px(12), px(10), size[0] - 2 * px(12), px(108))
        width = min(px(170), (self.panel.width * 2 // 3 - 3 * gap) // len(buttons))
        x = self.panel.right - pad - len(buttons) * width - (len(buttons) - 1) * gap
        self.stacked = self._text_left() + theme.font(28, True).size(self.headline()[0])[0] + px(12) > x
        self.headline_y = self.panel.centery
        if self.stacked:
            self.headline_y = self.panel.y + px(54)
            self.panel.height = px(108) + height
            width = (self.panel.width - 2 * pad - (len(buttons) - 1) * gap) // len(buttons)
            x = self.panel.x + pad
        top = self.panel.bottom - px(54) - height // 2
        for button in buttons:
            button.rect = pygame.Rect(x, top, width, height)
            x += width + gap

    def _text_left(self) -> int:
        """Where the headline starts, right of the winner's disc (or both discs for a draw)."""
        px = self.app.theme.px
        return self.panel.x + px(22) + (2 if self.match.model.winner is not None else 3) * px(24) + px(16)

    def headline(self) -> tuple[str, str]:
        match = self.match
        winner, ply = match.model.winner, match.model.board.ply
        if winner is None:
            return "Draw!", "The board is full."
        in_moves = f"{match.config.geometry.connect} in a row on move {ply}."
        if match.mode is Mode.HUMAN_VS_AI:
            if match.config.player(winner).is_human:
                return "You win!", in_moves
            return "You lose", f"{match.config.player(winner).agent_label} found {in_moves.lower()}"
        player = match.config.player(winner)
        name = player.colour.title if player.is_human else f"{player.colour.title} ({player.agent_label})"
        return f"{name} wins!", in_moves

    def draw(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        drawing.translucent(surface, surface.get_rect(), (4, 8, 20), 70)  # the board stays readable
        winner = self.match.model.winner
        border = SUCCESS if winner is not None and self.match.config.player(winner).is_human else None
        drawing.panel(surface, self.panel, px(16), PANEL, border, 2)
        radius, centre_y = px(24), self.headline_y
        x = self.panel.x + px(22)
        for index, colour in enumerate([winner] if winner is not None else [Colour.RED, Colour.YELLOW]):
            disc = drawing.disc(DISC[colour], radius)
            surface.blit(disc, disc.get_rect(midleft=(x + index * radius, centre_y)))
        x = self._text_left()
        title, detail = self.headline()
        room = (self.panel.right - px(20) if self.stacked else self.again.rect.x) - x - px(12)
        title_rect = theme.draw_text(
            surface,
            theme.fit_text(title, 28, room, bold=True),
            28,
            (x, centre_y + px(2)),
            TEXT,
            bold=True,
            anchor="bottomleft",
        )
        theme.draw_text(surface, theme.fit_text(detail, 15, room), 15, (x, title_rect.bottom + px(2)), MUTED)
        self.form.draw(surface)
