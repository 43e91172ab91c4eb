"""The opening explorer: every column's exact value above the board; play a column to walk the tree.

Opened on a position (from the match's analysis, the review, a puzzle, or
the menu's empty board): above each column its value for the side to move
("W18" a win in 18 of their moves, "D" a draw, "L15" a loss), the best column
marked, and beside the board the values in words and the best line. A click
or Enter on a column plays it and explores the new position; Backspace takes
a move back, Home goes back to where the explorer was opened. The values
come from the engine's explorer on the worker thread (:mod:`game.exploring`):
the opening book's positions at once, others by the solver, each kept once
found so that walking back is instant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from engine.board import Board, Side
from engine.outcome import outcome
from game import drawing
from game.animation import Animations
from game.bindings import BACK, PLAYING, Binding, Bindings
from game.board_view import BoardView, Marks
from game.jobs import Lane
from game.model import Colour
from game.scene import Host, Scene
from game.theme import ACCENT, DANGER, FAINT, MUTED, PANEL_LIGHT, SUCCESS, TEXT
from game.widgets import Button, Form

if TYPE_CHECKING:
    from engine.explore import Exploration

#: The text on a win's or a loss's chip (dark on the bright fill, as the analysis panel's chips).
CHIP_TEXT = (12, 20, 36)
DROP = "return kp_enter space down"
DIGITS = " ".join(f"{n} kp{n}" for n in range(1, 10))
#: (The arrows, Enter and the digits play as in a game: the card lists them once, with the match's keys.)
BINDINGS = Bindings(
    Binding("left", "cursor_left", repeat=True),
    Binding("right", "cursor_right", repeat=True),
    Binding(DROP, "play_cursor", footer="Enter play"),
    Binding(DIGITS, "play_column", with_event=True),
    Binding("backspace u", "take_back", "Backspace, U", "explorer: a move back", PLAYING, footer="Backspace back"),
    Binding("home", "to_start", "Home", "explorer: back where it opened", PLAYING, footer="Home start"),
    BACK,
)


def colour_of(side: Side) -> Colour:
    return Colour.RED if side is Side.FIRST else Colour.YELLOW


class ExplorerScene(Scene):
    """Explores from ``board`` (its moves can be taken back down to it, no further)."""

    name = "explorer"
    bindings = BINDINGS

    def __init__(self, app: Host, board: Board) -> None:
        super().__init__(app)
        self.start = board.copy()
        self.board = board.copy()
        self.found: dict[tuple[int, ...], Exploration] = {}  # by the moves since the start
        self.lane: Lane[Exploration] = Lane(app.worker)
        self.problem = ""
        self.cursor = board.geometry.cols // 2
        self.view = BoardView(board.geometry)
        self._still = Animations()
        self.back_button = Button("One back", self.take_back, detail=BINDINGS.hint("take_back"))
        self.start_button = Button("To start", self.to_start, detail=BINDINGS.hint("to_start"))
        self.close_button = Button("Close", self.dismiss, primary=True, detail=BACK.label)
        self.form = Form(app.theme, [self.back_button, self.start_button, self.close_button])
        self.strip = pygame.Rect(0, 0, 0, 0)
        self.side = pygame.Rect(0, 0, 0, 0)
        self._ask()

    # -- the position ----------------------------------------------------------------------------
    @property
    def moves(self) -> tuple[int, ...]:
        return self.board.history[len(self.start.history) :]

    @property
    def current(self) -> Exploration | None:
        return self.found.get(self.moves)

    def _ask(self) -> None:
        """Explore the position on the board unless it is known or over."""
        from game.exploring import exploration

        self.problem = ""
        if self.board.is_over or self.moves in self.found:
            self.lane.cancel()
        else:
            self.lane.keep(self.moves, exploration(self.board))
        self.app.invalidate()

    def play(self, col: int) -> None:
        if self.board.is_over or not self.board.is_legal(col):
            return
        self.board.play(col)
        self.cursor = col
        self._ask()

    def play_cursor(self) -> None:
        self.play(self.cursor)

    def play_column(self, event: pygame.event.Event) -> None:
        digit = int(pygame.key.name(event.key).strip("[]")[-1])
        if 1 <= digit <= self.board.geometry.cols:
            self.play(digit - 1)

    def take_back(self) -> None:
        if self.moves:
            self.board.undo()
            self._ask()

    def to_start(self) -> None:
        self.board = self.start.copy()
        self._ask()

    def cursor_left(self) -> None:
        self.cursor = max(0, self.cursor - 1)
        self.app.invalidate()

    def cursor_right(self) -> None:
        self.cursor = min(self.board.geometry.cols - 1, self.cursor + 1)
        self.app.invalidate()

    def exit(self) -> None:
        self.lane.cancel()

    def update(self, dt: float) -> None:
        job = self.lane.poll()
        if job is not None:
            if job.value is not None and isinstance(job.key, tuple):
                self.found[job.key] = job.value
            elif job.error:
                self.problem = job.error
            self.app.invalidate()

    def animating(self) -> bool:
        return self.lane.current is not None  # the "Exploring…" clock

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.bindings.dispatch(self, event) or self.form.handle_event(event):
            return
        if event.type == pygame.MOUSEMOTION:
            column = self.view.column_at(event.pos)
            if column is not None and column != self.cursor:
                self.cursor = column
                self.app.invalidate()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            column = self.view.column_at(event.pos)
            if column is not None:
                self.play(column)

    # -- layout and drawing ----------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        theme, px = self.app.theme, self.app.theme.px
        width, height = size
        buttons = [self.back_button, self.start_button, self.close_button]
        button_height = max(px(46), theme.font_px(15) + theme.font_px(11) + px(14))
        each, gap = min(px(170), (width - px(60)) // 3), px(12)
        x = (width - 3 * each - 2 * gap) // 2
        for button in buttons:
            button.rect = pygame.Rect(x, height - button_height - px(16), each, button_height)
            x += each + gap
        top = px(20) + theme.font(22, True).get_linesize() + theme.font(14).get_linesize()
        strip_height = theme.font(13, True).get_linesize() + px(10)
        bottom = height - button_height - px(30)
        board_width = width * 60 // 100
        self.view.layout(pygame.Rect(px(20), top + strip_height, board_width - px(30), bottom - top - strip_height))
        # The values sit just above the disc in hand (the board leaves a row's room above its frame for it).
        view = self.view
        hand_top = round(view.cell_centre(0, view.hand_row)[1] - view.cell * 0.45)
        strip_top = max(top, hand_top - strip_height - px(2))
        self.strip = pygame.Rect(view.frame.x, strip_top, view.frame.width, strip_height)
        self.side = pygame.Rect(board_width, top + px(4), width - board_width - px(20), bottom - top)

    def toast_floor(self, height: int) -> int:
        return self.close_button.rect.top

    def draw(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        self.app.draw_background(surface)
        centre = surface.get_width() / 2
        theme.draw_text(surface, "Opening explorer", 22, (centre, px(12)), TEXT, bold=True, anchor="midtop")
        moves = self.board.move_string
        named = "a set-up position" if moves is None else moves or "the empty board"
        where = f"Position: {named}" + (f" · {len(self.moves)} explored" if self.moves else "")
        where = theme.fit_text(where, 14, surface.get_width() - px(40))
        theme.draw_text(
            surface, where, 14, (centre, px(14) + theme.font(22, True).get_linesize()), MUTED, anchor="midtop"
        )
        board = self.board
        found = self.current

        def owner(col: int, row: int) -> Colour | None:
            side = board.cell(col, row)
            return None if side is None else colour_of(side)

        ghost = None if board.is_over else (self.cursor, colour_of(board.turn))
        best = None if found is None else found.best
        last = None
        if self.moves:
            col = self.moves[-1]
            last = (col, board.height(col) - 1)
        self.view.draw(surface, owner, self._still, Marks(ghost=ghost, hint=best, last_move=last, pulse=1.0))
        self._draw_strip(surface, found)
        self._draw_side(surface, found)
        self.form.draw(surface)
        theme.draw_text(
            surface, BINDINGS.footer(), 12, (centre, surface.get_height() - px(2)), FAINT, anchor="midbottom"
        )

    def _draw_strip(self, surface: pygame.Surface, found: Exploration | None) -> None:
        """Above each column its short value (W18, D, L15), coloured by result."""
        if found is None:
            return
        theme, board, px = self.app.theme, self.board, self.app.theme.px
        for value in found.columns:
            if value.score is None:
                continue
            result = outcome(value.score, board.ply, board.geometry)
            fill = {"win": SUCCESS, "draw": PANEL_LIGHT, "loss": DANGER}[result.kind]
            x, _ = self.view.cell_centre(value.column, 0)
            chip = pygame.Rect(0, 0, self.view.cell - px(8), self.strip.height)
            chip.center = (round(x), self.strip.centery)
            best = value.column == found.best
            drawing.panel(surface, chip, px(7), fill, TEXT if best else None, 3 if best else 1, raised=False)
            ink = TEXT if result.kind == "draw" else CHIP_TEXT
            words = theme.fit_text(result.short, 13, chip.width - px(4), bold=True)
            theme.draw_text(surface, words, 13, chip.center, ink, bold=True, anchor="center")

    def _draw_side(self, surface: pygame.Surface, found: Exploration | None) -> None:
        theme, px = self.app.theme, self.app.theme.px
        rect, board = self.side, self.board
        x, y, width = rect.x, rect.y, rect.width
        if board.is_over:
            text = "The game is over here." if board.winner is None else f"{colour_of(board.winner).label} has won."
            theme.draw_text(surface, text + " Backspace takes the move back.", 16, (x, y), TEXT, wrap=width)
            return
        mover = colour_of(board.turn).label
        y = theme.draw_text(surface, f"{mover} to move", 18, (x, y), TEXT, bold=True).bottom + px(8)
        if found is None:
            text = f"Could not explore: {self.problem}" if self.problem else "Exploring…"
            theme.draw_text(surface, text, 15, (x, y), DANGER if self.problem else MUTED, wrap=width)
            return
        for value in found.columns:
            if value.full:
                continue
            line = f"Column {value.column + 1}: {value.words(board)}"
            ink = ACCENT if value.column == found.best else TEXT
            y = theme.draw_text(surface, line, 15, (x, y), ink, bold=value.column == found.best).bottom + px(3)
        line = " ".join(str(col + 1) for col in found.line)
        y += px(8)
        theme.draw_text(surface, f"Best line: {line}", 14, (x, y), MUTED, wrap=width)
