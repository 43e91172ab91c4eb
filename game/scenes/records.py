"""The records screen (Records in the menu): won, drawn and lost against every opponent, and the series.

One row per pair of players that met on a board, the most recently played
first, read from ``records.json`` (:mod:`game.records`) when the screen
opens. A row reads from its first player's side: ``You vs Medium  7×6  3  1
2  You won the last 2``. A list longer than the screen scrolls with the arrows, Page Up and
Down, and the wheel. "Clear records" forgets them all, after a yes.
"""

from __future__ import annotations

import pygame

from game.bindings import ALL_KEYS, BACK, Binding, Bindings
from game.records import Record, name_of, path_for, records_at
from game.scene import Host
from game.scenes.base import FormScene
from game.theme import MUTED, PANEL_BORDER, TEXT
from game.widgets import Button

COLUMNS = ("Won", "Drawn", "Lost")


class RecordsScene(FormScene):
    name = "records"
    title = "Records"
    subtitle = "Won, drawn and lost against each opponent on each board, kept between runs."
    bindings = Bindings(
        Binding("up", "scroll_by", "↑ ↓", "scroll the records", repeat=True, footer="↑ ↓ scroll", with_event=True),
        Binding("down pageup pagedown", "scroll_by", repeat=True, with_event=True),
        BACK,
        ALL_KEYS,
    )

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        records, problem = records_at(path_for(app.settings_path))
        if problem:
            app.notify(problem, error=True)
        self.rows: list[Record] = list(records.entries)
        self.back = Button("Back", self.dismiss, primary=True)
        self.clear = Button("Clear records", self.ask_to_clear)
        self.clear.enabled = bool(self.rows)
        self.form.set_widgets([self.clear, self.back], focus=self.back)
        self.table = pygame.Rect(0, 0, 0, 0)
        self.row_height = 1
        self.first = 0  # the first row shown

    def ask_to_clear(self) -> None:
        """Clear every record after a yes: the player's own history, so never at one key press."""
        pairs = len(self.rows)
        detail = f"The results of {pairs} pair{'s' if pairs != 1 else ''} of players are removed for good."
        self.app.open("confirm", "Clear all records?", detail, "Clear", stay="Keep them", callback=self._clear_now)

    def _clear_now(self, yes: object) -> None:
        if yes is not True:
            return
        records_at(path_for(self.app.settings_path))[0].clear()
        self.rows, self.first, self.clear.enabled = [], 0, False
        self.form.set_widgets([self.clear, self.back], focus=self.back)
        self.app.notify("Records cleared.")

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL:
            self.scroll(-event.y)
        elif not self.bindings.dispatch(self, event):
            self.form.handle_event(event)

    def scroll_by(self, event: pygame.event.Event) -> None:
        page = max(1, self.visible - 1)
        step = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -page, pygame.K_PAGEDOWN: page}
        self.scroll(step.get(event.key, 0))

    def scroll(self, rows: int) -> None:
        self.first = max(0, min(self.first + rows, len(self.rows) - self.visible))

    @property
    def visible(self) -> int:
        """How many rows fit under the header."""
        return max(1, (self.table.height - self.row_height) // self.row_height)

    def resize(self, size: tuple[int, int]) -> None:
        area = self.content(size)
        self.button_row([self.clear, self.back], area)
        self.table = pygame.Rect(area.x, area.y, area.width, self.back.rect.top - self.theme.px(16) - area.y)
        self.row_height = self.theme.font(16).get_linesize() + self.theme.px(12)
        self.scroll(0)

    def _columns(self) -> tuple[int, int, int, int]:
        """The width of a number column, where the boards, the numbers and the series start."""
        theme, table = self.theme, self.table
        number = max(theme.font(15, True).size(word)[0] for word in COLUMNS) + theme.px(18)
        series = table.width * 3 // 10
        boards = [theme.font(15, True).size("Board")[0], *(theme.font(14).size(r.board_text())[0] for r in self.rows)]
        numbers_x = table.right - series - 3 * number
        return number, numbers_x - max(boards) - theme.px(24), numbers_x, table.right - series

    def draw_content(self, surface: pygame.Surface) -> None:
        theme, px, table = self.theme, self.theme.px, self.table
        if not self.rows:
            note = "No games yet: finish a game, and its result shows here."
            theme.draw_text(surface, note, 16, (table.centerx, table.y + px(30)), MUTED, anchor="midtop")
            return
        number, board_x, numbers_x, series_x = self._columns()
        y = table.y
        heads = [("Player vs opponent", table.x), ("Board", board_x)]
        heads += [(word, numbers_x + i * number) for i, word in enumerate(COLUMNS)]
        for word, x in [*heads, ("Series", series_x + px(12))]:
            theme.draw_text(surface, word, 15, (x, y + self.row_height // 2), MUTED, bold=True, anchor="midleft")
        y += self.row_height
        pygame.draw.line(surface, PANEL_BORDER, (table.x, y - px(3)), (table.right, y - px(3)))
        for record in self.rows[self.first : self.first + self.visible]:
            middle = y + self.row_height // 2
            pair = f"{name_of(record.players[0])} vs {name_of(record.players[1])}"
            pair = theme.fit_text(pair, 16, board_x - table.x - px(12))
            theme.draw_text(surface, pair, 16, (table.x, middle), TEXT, anchor="midleft")
            theme.draw_text(surface, record.board_text(), 14, (board_x, middle), MUTED, anchor="midleft")
            counts = (record.wins[0], record.draws, record.wins[1])
            for index, count in enumerate(counts):
                x = numbers_x + index * number + theme.font(15, True).size(COLUMNS[index])[0] // 2
                theme.draw_text(surface, str(count), 16, (x, middle), TEXT, bold=True, anchor="center")
            series = theme.fit_text(record.series_text(), 14, table.right - series_x - px(12))
            theme.draw_text(surface, series, 14, (series_x + px(12), middle), MUTED, anchor="midleft")
            y += self.row_height
        if len(self.rows) > self.visible:
            shown = f"{self.first + 1}-{min(len(self.rows), self.first + self.visible)} of {len(self.rows)}"
            theme.draw_text(surface, shown, 13, (table.right, table.bottom + px(2)), MUTED, anchor="topright")
