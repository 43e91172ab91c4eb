"""The main menu: play (through the set-up screens), a quick game with the last settings, help, settings, quit."""

from __future__ import annotations

import pygame

from game import pictures
from game.players import side_label
from game.scenes.base import FormScene, draw_preparation_note
from game.settings import Mode, Settings
from game.theme import FAINT, MUTED, TEXT
from game.widgets import Button


class MainMenu(FormScene):
    pastes_games = True

    def __init__(self, app) -> None:
        super().__init__(app)
        self.play = Button("Play", self.open_setup, primary=True, detail="Choose the players and the board")
        self.quick = Button("Quick game", self.start_quick_game, detail="")
        self.saved = Button("Saved games", self.open_saved_games)
        self.help = Button("How to play", self.open_help)
        self.settings = Button("Settings", self.open_settings)
        self.leave = Button("Quit", app.quit)
        self.form.set_widgets([self.play, self.quick, self.help, self.settings, self.saved, self.leave])

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.form.focus_on(self.leave)  # nothing is below the menu: Escape points at Quit instead
            return
        ctrl = event.type == pygame.KEYDOWN and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        if ctrl and event.key == pygame.K_o:
            self.open_saved_games()
        else:
            super().handle_event(event)

    def update(self, dt: float) -> None:
        ready = self.app.catalog.ready or self.app.settings.mode is Mode.HOTSEAT
        if ready != self.quick.enabled or not self.quick.detail:
            self.quick.enabled = ready
            self.quick.detail = describe(self.app.settings, self.app.catalog) if ready else "Loading the engine…"

    def resume(self) -> None:
        self.quick.detail = ""  # the settings may have changed: describe them again

    def resize(self, size: tuple[int, int]) -> None:
        px = self.theme.px
        width = px(380)
        x = (size[0] - width) // 2
        y = max(px(330), size[1] // 2 + px(20))
        for button, height in ((self.play, 66), (self.quick, 66), (self.help, 50), (self.leave, 50)):
            button.rect = pygame.Rect(x, y, width, px(height))
            y += px(height) + px(14)
        # help, settings and saved games share a wider row, as wide as their words need (within the window)
        need = max(self.theme.font(17, True).size(button.text)[0] for button in (self.help, self.settings, self.saved))
        row = min(size[0] - 2 * px(20), max(px(480), 3 * (need + px(24)) + 2 * px(12)))
        third = (row - 2 * px(12)) // 3
        self.help.rect.update((size[0] - row) // 2, self.help.rect.y, third, self.help.rect.height)
        self.settings.rect = self.help.rect.move(third + px(12), 0)
        self.saved.rect = self.settings.rect.move(third + px(12), 0)

    # -- actions ---------------------------------------------------------------------------
    def open_setup(self) -> None:
        from game.scenes.mode_select import ModeSelect

        self.app.push(ModeSelect(self.app))

    def open_saved_games(self) -> None:
        from game.scenes.saved_games import SavedGames

        self.app.push(SavedGames(self.app))

    def open_help(self) -> None:
        from game.scenes.help import HelpScene

        self.app.push(HelpScene(self.app))

    def open_settings(self) -> None:
        from game.scenes.settings_screen import SettingsScene

        self.app.push(SettingsScene(self.app))

    def start_quick_game(self) -> None:
        from game.scenes.board_setup import start_match

        problem = start_match(self.app)
        if problem:
            self.app.notify(problem, error=True)

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        self.app.draw_background(surface)
        theme, (width, height) = self.theme, surface.get_size()
        top = self.play.rect.top
        tagline = "Line up four before your opponent does."
        theme.draw_text(surface, tagline, 17, (width / 2, top - theme.px(26)), MUTED, anchor="midbottom")
        title = theme.draw_text(
            surface, "Connect Four", 54, (width / 2, top - theme.px(54)), TEXT, bold=True, anchor="midbottom"
        )
        pictures.logo(surface, (width / 2, title.top - theme.px(6)), theme.px(30))

        self.form.draw(surface)
        draw_preparation_note(surface, self.app, (self.leave.rect.bottom + height - theme.px(36)) / 2)
        theme.draw_text(
            surface,
            "↑ ↓ move   Enter select   Ctrl+V paste a game   F1 all keys",
            13,
            (width / 2, height - theme.px(18)),
            FAINT,
            anchor="midbottom",
        )


def describe(settings: Settings, catalog) -> str:
    """One line for the quick-game button, e.g. ``You vs Medium · 7×6``."""
    first, second = (side_label(settings, colour, catalog.resolve) for colour in (settings.first, settings.first.other))
    geometry = settings.geometry()  # the board that will really start (the classic one if the saved one is wrong)
    return f"{first} vs {second} · {geometry.cols}×{geometry.rows}"
