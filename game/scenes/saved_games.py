"""The saved games, newest first: pick one to open it where it was left (its moves can be taken back).

A file that cannot be read stays in the list, marked as damaged; choosing it
says what is wrong with it. The list scrolls with the keyboard focus.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import partial
from pathlib import Path

import pygame

from game import saves
from game.saves import SavedGame
from game.scenes.base import FormScene
from game.theme import FAINT, MUTED
from game.widgets import Button

RESULTS = {"red": "Red won", "yellow": "Yellow won", "draw": "Draw", "unfinished": "Unfinished"}


def open_game(app, game: SavedGame) -> str | None:
    """Open a saved game on the match screen; returns why it cannot be opened, if so."""
    from game.scenes.match import MatchScene

    config = game.config
    computers = [player.spec for player in (config.red, config.yellow) if player.spec]
    if computers and not app.catalog.ready:
        return "The engine is still loading; try again in a moment."
    for spec in computers:
        problem = app.catalog.check(spec)
        if problem:
            return f"This game's player {spec!r} is not available: {problem}"
    app.catalog.warm(computers, config.geometry)
    app.push(MatchScene(app, replace(config, replay=game.moves)))
    return None


def describe(game: SavedGame) -> tuple[str, str]:
    """The two lines of a saved game in the list: the players, then date, board, result and length."""
    config = game.config
    players = " vs ".join(
        player.name if player.is_human else player.agent_label for player in (config.red, config.yellow)
    )
    geometry = config.geometry
    detail = [when(game.date), f"{geometry.cols}×{geometry.rows}", RESULTS[game.result], f"{len(game.moves)} moves"]
    return players, " · ".join(part for part in detail if part)


def when(date: str) -> str:
    """``22 Nov 2026 23:40`` from the file's ISO date (as written if it is not one)."""
    try:
        return f"{datetime.fromisoformat(date):%d %b %Y %H:%M}"
    except ValueError:
        return date[:20]


class SavedGames(FormScene):
    title = "Saved games"

    def __init__(self, app, folder: Path | None = None) -> None:
        super().__init__(app)
        self.folder = folder or saves.games_folder()
        self.subtitle = f"In {self.folder}"
        self.entries = saves.saved_games(self.folder)
        self.items: list[Button] = []
        for path, game in self.entries:
            if isinstance(game, SavedGame):
                players, detail = describe(game)
                self.items.append(Button(players, partial(self.open, game), detail=detail))
            else:
                reason = game.removeprefix(f"{path.name}: ")
                damaged = Button(f"Damaged: {path.name}", partial(self.app.notify, game, error=True), detail=reason)
                self.items.append(damaged)
        self.back = Button("Back", app.pop)
        self.form.set_widgets([*self.items, self.back])
        self.first = 0  # the first item shown
        self.rows = 1
        self._list = pygame.Rect(0, 0, 0, 0)

    def open(self, game: SavedGame) -> None:
        problem = open_game(self.app, game)
        if problem:
            self.app.notify(problem, error=True)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL and self.items:
            self.first = max(0, min(self.first - event.y, len(self.items) - self.rows))
            self._place()
            return
        step = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -self.rows, pygame.K_PAGEDOWN: self.rows}
        if event.type == pygame.KEYDOWN and event.key in step and self.form.focused in self.items:
            self.focus_item(self.items.index(self.form.focused) + step[event.key])
            return
        super().handle_event(event)

    def focus_item(self, index: int) -> None:
        """Move the focus to item ``index`` (past the last: the Back button), scrolling it into view."""
        if index >= len(self.items):
            self.form.focus_on(self.back)
            return
        index = max(0, index)
        if not self.first <= index < self.first + self.rows:
            self.first = index if index < self.first else index - self.rows + 1
            self._place()
        self.form.focus_on(self.items[index])

    def resize(self, size: tuple[int, int]) -> None:
        px, area = self.theme.px, self.content(size)
        self._list = pygame.Rect(area.x, area.y, area.width, area.height - px(70))
        self.rows = max(1, self._list.height // px(68))
        self.button_row([self.back], area)
        self._place()

    def _place(self) -> None:
        px = self.theme.px
        for index, item in enumerate(self.items):
            row = index - self.first
            item.visible = 0 <= row < self.rows
            item.rect = pygame.Rect(self._list.x, self._list.y + row * px(68), self._list.width, px(60))

    def draw_content(self, surface: pygame.Surface) -> None:
        theme, px = self.theme, self.theme.px
        if not self.items:
            theme.draw_text(
                surface,
                "No saved games yet: press Ctrl+S during a game to save it.",
                17,
                self._list.midtop,
                MUTED,
                anchor="midtop",
            )
        elif len(self.items) > self.rows:
            shown = f"{self.first + 1}–{min(len(self.items), self.first + self.rows)} of {len(self.items)}"
            theme.draw_text(surface, shown, 13, (self._list.right, self._list.bottom + px(8)), FAINT, anchor="topright")
