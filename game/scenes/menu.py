"""The main menu: play (through the set-up screens), a quick game with the last settings, help, settings, quit;
and, when a game was left unfinished (game.autosave), Resume."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game import pictures
from game.bindings import ALL_KEYS, MOVE, PASTE_GAME, SELECT, Binding, Bindings
from game.labels import board_name
from game.model import Mode
from game.players import side_label
from game.scene import Host
from game.scenes.base import FormScene, draw_preparation_note
from game.settings import Settings
from game.theme import MUTED, TEXT
from game.widgets import Button

if TYPE_CHECKING:
    from game.saves import SavedGame


class MainMenu(FormScene):
    """Play and Quick game, the row of screens that have a button here (see game.screens), and Quit."""

    name = "menu"
    bindings = Bindings(
        MOVE,
        SELECT,
        PASTE_GAME,
        Binding("escape", "point_at_quit"),  # nothing is below the menu: Escape points at Quit instead
        ALL_KEYS,
    )

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.play = Button("Play", self.open_setup, primary=True, detail="Choose the players and the board")
        self.quick = Button("Quick game", self.start_quick_game, detail="")
        #: The row of screens opened from here, by name: how to play, settings, saved games.
        self.screens = {name: Button(text, partial(app.open, name)) for name, text in app.menu_entries()}
        self.leave = Button("Quit", app.quit)
        #: The unfinished game, read once the engine is loaded (reading it needs the engine's rules). Its
        #: button has its place (and the focus) from the first frame when the file is there: the menu must
        #: not move under the pointer a few seconds after the start.
        self.resume_game = Button("Resume", self.open_unfinished, primary=True, detail="Loading the engine…")
        self.unfinished: SavedGame | None = None
        self._looked = False
        self._expected = self._unfinished_path().exists()  # (a look at the folder: reading it waits)
        self._arrange()

    def _arrange(self) -> None:
        """The buttons, Resume beside Quick game (and in focus) when there is a game to resume."""
        resume = [self.resume_game] if self.unfinished is not None or self._expected else []
        widgets = [self.play, *resume, self.quick, *self.screens.values(), self.leave]
        self.form.set_widgets(widgets, focus=resume[0] if resume else None)
        self.resize(self.app.screen.get_size())

    def handle_event(self, event: pygame.event.Event) -> None:
        """The menu's keys, then the keys that open a screen of the row (see game.screens)."""
        if self.form.handle_event(event) or self.bindings.dispatch(self, event) or event.type != pygame.KEYDOWN:
            return
        name = next((name for name, key in self.app.menu_keys() if key.weight(event) is not None), None)
        if name is not None:
            self.app.open(name)

    def point_at_quit(self) -> None:
        self.form.focus_on(self.leave)

    def update(self, dt: float) -> None:
        if not self._looked and (self.app.catalog.ready or self.app.catalog.load_error):
            self._look_for_unfinished()
        ready = self.app.catalog.ready or self.app.settings.mode is Mode.HOTSEAT
        if ready != self.quick.enabled or not self.quick.detail:
            self.quick.enabled = ready
            self.quick.detail = describe(self.app.settings, self.app.catalog) if ready else "Loading the engine…"

    def resume(self) -> None:
        self.quick.detail = ""  # the settings may have changed: describe them again
        self._looked = False  # a match may have left a game unfinished, or finished the one kept

    def _look_for_unfinished(self) -> None:
        """Offer the unfinished game, if there is one (a damaged file is set aside, with a message)."""
        from game import autosave

        self._looked = True
        found = autosave.look(self._unfinished_path())
        if found.problem:
            self.app.notify(found.problem, error=True, seconds=8.0)
        if found.game != self.unfinished or self._expected:
            self.unfinished, self._expected = found.game, False
            self.resume_game.detail = autosave.describe(found.game) if found.game is not None else ""
            self._arrange()
            self.app.invalidate()

    def _unfinished_path(self) -> Path:
        from game import autosave

        return autosave.path_for(self.app.settings_path)

    def open_unfinished(self) -> None:
        """Resume the unfinished game where it was left (a student's seat comes back as a person)."""
        from game.start import open_game

        problem = "The engine is still loading; try again in a moment."  # (the file is read once it is loaded)
        if self.unfinished is not None:
            problem = open_game(self.app, self.unfinished) or ""
        if problem:
            self.app.notify(problem, error=True)

    def resize(self, size: tuple[int, int]) -> None:
        px = self.theme.px
        width = px(380)
        x = (size[0] - width) // 2
        y = max(px(330), size[1] // 2 + px(20))
        row = list(self.screens.values())
        for button, height in ((self.play, 66), (self.quick, 66), (None, 50), (self.leave, 50)):
            if button is not None:
                button.rect = pygame.Rect(x, y, width, px(height))
            else:
                row_y = y
            y += px(height) + px(14)
        # the screens share a wider row, each as wide as the longest words need (within the window)
        need = max(self.theme.font(17, True).size(button.text)[0] for button in row)
        gap, count = px(12), len(row)
        wide = min(size[0] - 2 * px(20), max(px(480), count * (need + px(24)) + (count - 1) * gap))
        each = (wide - (count - 1) * gap) // count
        for index, button in enumerate(row):
            button.rect = pygame.Rect((size[0] - wide) // 2 + index * (each + gap), row_y, each, px(50))
        if self.resume_game in self.form.widgets:  # Resume and Quick game share a row as wide as the screens'
            half, top, height = (wide - gap) // 2, self.quick.rect.y, self.quick.rect.height
            self.resume_game.rect = pygame.Rect((size[0] - wide) // 2, top, half, height)
            self.quick.rect = pygame.Rect(self.resume_game.rect.right + wide - 2 * half, top, half, height)

    # -- actions ---------------------------------------------------------------------------
    def open_setup(self) -> None:
        self.app.open("mode_select")

    def start_quick_game(self) -> None:
        from game.start import start_match

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
        footer = self.bindings.footer()
        theme.draw_text(surface, footer, 13, (width / 2, height - theme.px(18)), MUTED, anchor="midbottom")


def describe(settings: Settings, catalog) -> str:
    """One line for the quick-game button, e.g. ``You vs Medium · 7×6`` (``7×6, 5 in a row`` for connect 5)."""
    first, second = (side_label(settings, colour, catalog.resolve) for colour in (settings.first, settings.first.other))
    board = board_name(settings.geometry())  # the board that will start (the classic one if the saved one is wrong)
    return f"{first} vs {second} · {board}"
