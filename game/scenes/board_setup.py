"""The board: columns, rows and how many in a row win, with a live preview; then start."""

from __future__ import annotations

from functools import partial

import pygame

from engine.errors import EngineError
from engine.geometry import MAX_COLS, MAX_CONNECT, MAX_ROWS, MIN_COLS, MIN_CONNECT, MIN_ROWS, Geometry
from game.animation import Animations
from game.bindings import SETUP
from game.board_view import BoardView, Marks
from game.inputs import Stepper
from game.model import Colour, Mode
from game.players import sentence, side_label
from game.scene import Host
from game.scenes.base import FormScene
from game.start import start_match
from game.theme import DANGER, MUTED
from game.widgets import Button, align_labels

SIZES = (("Classic", "7×6, four", (7, 6, 4)), ("Square", "8×8, four", (8, 8, 4)), ("Big", "9×9, five", (9, 9, 5)))


class BoardSetup(FormScene):
    name = "board_setup"
    title = "The board"
    subtitle = "Classic Connect Four is 7 columns by 6 rows, four in a row"
    bindings = SETUP

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        geometry = app.settings.geometry()
        self.cols = Stepper("Columns", geometry.cols, self._changed, low=MIN_COLS, high=MAX_COLS)
        self.rows = Stepper("Rows", geometry.rows, self._changed, low=MIN_ROWS, high=MAX_ROWS)
        self.connect = Stepper("In a row to win", geometry.connect, self._changed, low=MIN_CONNECT, high=MAX_CONNECT)
        self.sizes = [Button(name, partial(self._use, *size), detail=detail) for name, detail, size in SIZES]
        self.back = Button("Back", self.dismiss)
        self.start = Button("Start", self.go, primary=True)
        self.form.set_widgets(
            [self.cols, self.rows, self.connect, *self.sizes, self.back, self.start], focus=self.start
        )
        self.error = ""
        self._still = Animations()  # the preview has nothing in flight
        self.preview: BoardView | None = None
        self.preview_area = pygame.Rect(0, 0, 0, 0)
        self._changed()

    def _use(self, cols: int, rows: int, connect: int) -> None:
        self.cols.value, self.rows.value, self.connect.value = cols, rows, connect
        self._changed()

    def _changed(self, _value=None) -> None:
        try:
            geometry = Geometry(*(int(stepper.value or 0) for stepper in (self.cols, self.rows, self.connect)))
        except EngineError as exc:
            self.error = sentence(str(exc))
            self.start.enabled = False
            return
        self.error = ""
        self.start.enabled = True
        settings = self.app.settings
        settings.cols, settings.rows, settings.connect = geometry.cols, geometry.rows, geometry.connect
        self.preview = BoardView(geometry)
        if self.preview_area.width:
            self.preview.layout(self.preview_area)

    def choices_ready(self) -> bool:
        if self.error:  # a board that cannot be: a pasted move string would be read on another one
            self.app.notify(self.error, error=True)
        return not self.error

    def go(self) -> None:
        problem = start_match(self.app)
        if problem:
            self.error = problem

    def resize(self, size: tuple[int, int]) -> None:
        px, area = self.theme.px, self.content(size)
        self.button_row([self.back, self.start], area)
        width = area.width * 9 // 20
        y = area.y + px(10)
        for stepper in (self.cols, self.rows, self.connect):
            stepper.rect = pygame.Rect(area.x, y, width, px(46))
            y += px(60)
        align_labels([self.cols, self.rows, self.connect], self.theme)
        y += px(14)
        gap = px(10)
        button_width = (width - 2 * gap) // 3
        for index, button in enumerate(self.sizes):
            button.rect = pygame.Rect(area.x + index * (button_width + gap), y, button_width, px(56))
        self.preview_area = pygame.Rect(
            area.x + width + px(40), area.y, area.width - width - px(40), self.back.rect.top - area.y - px(24)
        )
        if self.preview is not None:
            self.preview.layout(self.preview_area)

    def draw_content(self, surface: pygame.Surface) -> None:
        theme, px = self.theme, self.theme.px
        if self.preview is not None and not self.error:
            self.preview.draw(surface, lambda col, row: None, self._still, Marks())
        y = self.sizes[0].rect.bottom + px(30)
        x = self.cols.rect.x
        if self.error:
            theme.draw_text(surface, self.error, 15, (x, y), DANGER, wrap=self.cols.rect.width)
        else:
            theme.draw_text(surface, self._describe(), 15, (x, y), MUTED, wrap=self.cols.rect.width)

    def _describe(self) -> str:
        settings, resolve = self.app.settings, self.app.catalog.resolve
        if settings.mode is not Mode.HOTSEAT and not self.app.catalog.ready:
            return "Loading the engine…"
        goal = f"Line up {int(self.connect.value or 0)} discs across, up or diagonally to win."
        if settings.mode is Mode.HOTSEAT:  # two people: by their names, if they gave them, else their colours
            red, yellow, first = (side_label(settings, c, resolve) for c in (*Colour, settings.first))
            who = f"{red} and {yellow}" if any(settings.name(colour) for colour in Colour) else "Two players"
            return "\n".join([f"{who} take turns; {first} moves first.", goal])
        geometry, catalog = settings.geometry(), self.app.catalog

        def guess(colour: Colour) -> str:  # a level perfect on 7x6 but not proven on this board says so
            spec = resolve(settings.agent(colour))
            return " (a best guess here)" if not settings.is_human(colour) and catalog.guesses(spec, geometry) else ""

        players = [
            f"{colour.label}: {side_label(settings, colour, resolve)}{guess(colour)}"
            + (", moves first" if colour is settings.first else "")
            for colour in Colour
        ]
        return "\n".join([*players, goal])
