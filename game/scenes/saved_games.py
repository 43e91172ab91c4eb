"""The saved games, newest first: pick one to open it where it was left (its moves can be taken back).

A file that cannot be read (damaged, not a regular file, a link to nothing)
stays in the list, marked as damaged, and the others still show; choosing it
says what is wrong with it. A seat a student's agent played opens as a
person, and the screen says so. The list scrolls with the keyboard focus.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from pathlib import Path

import pygame

from game import saves
from game.bindings import ALL_KEYS, BACK, MOVE, SHARING, Binding, Bindings
from game.model import plural
from game.saves import SavedGame
from game.scene import Host
from game.scenes.base import FormScene
from game.start import open_game
from game.theme import MUTED
from game.widgets import Button

RESULTS = {"red": "Red won", "yellow": "Yellow won", "draw": "Draw", "unfinished": "Unfinished"}


def describe(game: SavedGame) -> tuple[str, str]:
    """The two lines of a saved game in the list: the players, then date, board, result and length."""
    config, students = game.config, dict(game.students)
    players = " vs ".join(
        (f"{students[player.colour]} (as a person)" if player.colour in students else player.name)
        if player.is_human
        else player.agent_label
        for player in (config.red, config.yellow)
    )
    geometry = config.geometry
    size = f"{geometry.cols}×{geometry.rows}"
    detail = [when(game.date), size, RESULTS[game.result], plural(len(game.moves), "move")]
    return players, " · ".join(part for part in detail if part)


def when(date: str) -> str:
    """``22 Nov 2026 23:40`` from the file's ISO date (as written if it is not one)."""
    try:
        return f"{datetime.fromisoformat(date):%d %b %Y %H:%M}"
    except ValueError:
        return date[:20]


class SavedGames(FormScene):
    name = "saved_games"
    title = "Saved games"
    bindings = Bindings(
        MOVE,
        Binding("return", footer="Enter open"),
        Binding(
            "delete",
            "delete_focused",
            "Delete",
            "delete a saved game (Ctrl+Z undoes it)",
            SHARING,
            footer="Del delete",
            button="Del key",
            when="row_focused",
        ),
        Binding("ctrl+z", "undelete", footer="Ctrl+Z undo", button="Ctrl+Z"),
        BACK,
        ALL_KEYS,
    )

    def __init__(self, app: Host, folder: Path | None = None) -> None:
        super().__init__(app)
        self.folder = folder or saves.games_folder()
        self.subtitle = f"In {self.folder}"
        saves.purge_deleted(self.folder)  # left over from a run that ended before its undo was over
        saves.tidy(self.folder)  # and what saves killed half-way left behind
        self.deleted: list[tuple[Path, str]] = []  # (where the file went, its title), the last one last
        self.undo = Button("Undo delete", self.undelete, detail=self.bindings.hint("undelete"))
        self.back = Button("Back", self.dismiss)
        self.items: list[Button] = []
        self.removers: list[Button] = []  # each item's Delete button, beside it
        self.first = 0  # the first item shown
        self.rows = 1
        self._list = pygame.Rect(0, 0, 0, 0)
        self._load()

    def _load(self, focus: int | None = None) -> None:
        """Read the folder again and make a row for each game; ``focus`` the row to focus (if any)."""
        self.entries = saves.saved_games(self.folder)
        self.items, self.removers = [], []
        for path, game in self.entries:
            if isinstance(game, SavedGame):
                players, detail = describe(game)
                self.items.append(Button(players, partial(self.open, game), detail=detail))
            else:
                reason = game.removeprefix(f"{path.name}: ")
                damaged = Button(f"Damaged: {path.name}", partial(self.app.notify, game, error=True), detail=reason)
                self.items.append(damaged)
            title = players if isinstance(game, SavedGame) else path.name
            self.removers.append(
                Button("Delete", partial(self.delete, path, title), detail=self.bindings.hint("delete_focused"))
            )
        self.undo.visible = bool(self.deleted)
        rows = [widget for pair in zip(self.items, self.removers, strict=True) for widget in pair]
        self.form.set_widgets([*rows, self.undo, self.back])
        self.first = max(0, min(self.first, len(self.items) - self.rows))
        if self._list.width:
            self._place()
        if focus is not None and self.items:
            self.focus_item(min(focus, len(self.items) - 1))
        elif not self.items:
            self.form.focus_on(self.undo if self.undo.visible else self.back)

    def resume(self) -> None:
        """Back from a game opened here: read the folder again (that game may have been saved anew)."""
        self._load(focus=self._focused_row())

    def exit(self) -> None:
        saves.purge_deleted(self.folder)  # the undo ends with the screen

    def open(self, game: SavedGame) -> None:
        problem = open_game(self.app, game)
        if problem:
            self.app.notify(problem, error=True)

    def delete(self, path: Path, title: str) -> None:
        """Take a game (or a damaged file) out of the list; Ctrl+Z or Undo brings it back."""
        row = next((index for index, (entry, _) in enumerate(self.entries) if entry == path), 0)
        try:
            self.deleted.append((saves.delete(path), title))
        except OSError as exc:
            self.app.notify(f"Could not delete {path.name}: {exc.strerror or exc}", error=True)
            return
        self._load(focus=row)
        self.app.notify(f"Deleted {title} (Ctrl+Z brings it back)", seconds=3.0)

    def undelete(self) -> None:
        """Bring back the game deleted last."""
        if not self.deleted:
            return
        aside, title = self.deleted.pop()
        try:
            path = saves.undelete(aside)
        except OSError as exc:
            self.app.notify(f"Could not bring back {title}: {exc.strerror or exc}", error=True)
            self._load()
            return
        self._load()
        row = next((index for index, (entry, _) in enumerate(self.entries) if entry == path), 0)
        self.focus_item(row)
        self.app.notify(f"{title} is back", seconds=2.0)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL and self.items:
            self.first = max(0, min(self.first - event.y, len(self.items) - self.rows))
            self._place()
            row = self._focused_row()
            if row is not None and not self.items[row].visible:  # Enter or Delete never acts out of sight
                self.form.focus_on(self.items[min(max(row, self.first), self.first + self.rows - 1)])
            return
        if event.type == pygame.KEYDOWN:  # the focus moves by rows of the list (each a game and its Delete)
            row = self._focused_row()
            step = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -self.rows, pygame.K_PAGEDOWN: self.rows}
            if row is not None and event.key in step:
                self.focus_item(row + step[event.key])
                return
        super().handle_event(event)

    def row_focused(self, event: pygame.event.Event) -> bool:
        return self._focused_row() is not None

    def delete_focused(self) -> None:
        """Delete: the focused row's game (as its Delete button would)."""
        row = self._focused_row()
        if row is not None:
            self.removers[row].press()

    def _focused_row(self) -> int | None:
        """The row of the focused game or Delete button, if one has the focus."""
        focused = self.form.focused
        for row, pair in enumerate(zip(self.items, self.removers, strict=True)):
            if focused in pair:
                return row
        return None

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
        self.button_row([self.undo, self.back], area)
        self._place()

    def _place(self) -> None:
        px = self.theme.px
        remover_width = max(px(96), self.theme.font(17, True).size("Delete")[0] + px(24))
        for index, (item, remover) in enumerate(zip(self.items, self.removers, strict=True)):
            row = index - self.first
            item.visible = remover.visible = 0 <= row < self.rows
            y = self._list.y + row * px(68)
            item.rect = pygame.Rect(self._list.x, y, self._list.width - remover_width - px(10), px(60))
            remover.rect = pygame.Rect(item.rect.right + px(10), y, remover_width, px(60))

    def toast_area(self, size: tuple[int, int]) -> pygame.Rect:
        return super().toast_area(size).clip(pygame.Rect(0, 0, size[0], self.back.rect.top))

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
                wrap=self._list.width,
            )
        elif len(self.items) > self.rows:
            shown = f"{self.first + 1}–{min(len(self.items), self.first + self.rows)} of {len(self.items)}"
            theme.draw_text(surface, shown, 13, (self._list.right, self._list.bottom + px(8)), MUTED, anchor="topright")
