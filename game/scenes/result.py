"""The result, shown over the finished board: rematch, change the settings, or back to the menu.

Escape closes the panel to look at the final position (the match screen
offers the result again from its buttons).
"""

from __future__ import annotations

import pygame

from game import drawing
from game.scene import Scene
from game.settings import Colour, Mode
from game.theme import DISC, MUTED, PANEL, TEXT
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
        self.form = Form(app.theme, [self.again, self.settings, self.menu])
        self.panel = pygame.Rect(0, 0, 0, 0)

    # -- actions ---------------------------------------------------------------------------------
    def rematch(self) -> None:
        self.app.pop()
        self.match.rematch()

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
        elif not self.form.handle_event(event):
            super().handle_event(event)

    # -- layout and drawing -------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        px = self.app.theme.px
        self.panel = pygame.Rect(0, 0, min(px(440), size[0] - px(40)), px(376))
        self.panel.center = (size[0] // 2, size[1] // 2)
        y = self.panel.y + px(160)
        for button, height in ((self.again, 64), (self.settings, 48), (self.menu, 48)):
            button.rect = pygame.Rect(self.panel.x + px(40), y, self.panel.width - px(80), px(height))
            y += px(height) + px(12)

    def headline(self) -> tuple[str, str]:
        match = self.match
        winner, ply = match.model.winner, match.model.board.ply
        if winner is None:
            return "Draw!", "The board is full and nobody has a line."
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
        drawing.translucent(surface, surface.get_rect(), (4, 8, 20), 120)

        drawing.panel(surface, self.panel, px(18), PANEL)
        title, detail = self.headline()
        winner = self.match.model.winner
        centre_x = self.panel.centerx
        if winner is not None:
            disc = drawing.disc(DISC[winner], px(22))
            surface.blit(disc, disc.get_rect(center=(centre_x, self.panel.y + px(42))))
        else:
            for offset, colour in ((-px(14), Colour.RED), (px(14), Colour.YELLOW)):
                disc = drawing.disc(DISC[colour], px(18))
                surface.blit(disc, disc.get_rect(center=(centre_x + offset, self.panel.y + px(42))))
        theme.draw_text(surface, title, 32, (centre_x, self.panel.y + px(74)), TEXT, bold=True, anchor="midtop")
        theme.draw_text(
            surface,
            detail,
            15,
            (centre_x, self.panel.y + px(120)),
            MUTED,
            anchor="midtop",
            wrap=self.panel.width - px(60),
        )
        self.form.draw(surface)
