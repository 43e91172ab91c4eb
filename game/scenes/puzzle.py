"""One puzzle on the board: play the answer by mouse or keys, get told why a try was wrong, ask for a hint.

The play itself is :class:`game.puzzle_session.PuzzleSession`; this screen
draws it and feeds it: the program's defence after a pause, and the values of
the position's columns from the engine's explorer (:mod:`game.exploring`, on
the worker thread) to say why a wrong try fails. The attempt goes into the
player's progress and rating (:mod:`game.puzzle_progress`) when it is solved,
or when the player leaves it after trying. N takes the next puzzle of the
Puzzles screen's choice, E opens the explorer at the position on the board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from engine.board import Side
from game.animation import Animations
from game.bindings import BACK, EXPLORE, PLAYING, Binding, Bindings
from game.board_view import BoardView, Marks
from game.jobs import Lane
from game.model import Colour
from game.puzzle_progress import Progress
from game.puzzle_session import PuzzleSession, State
from game.scene import Host, Scene
from game.theme import ACCENT, DANGER, FAINT, MUTED, SUCCESS, TEXT
from game.widgets import Button, Form

if TYPE_CHECKING:
    from engine.explore import Exploration
    from engine.puzzles.puzzle import Puzzle

DROP = "return kp_enter space down"
DIGITS = " ".join(f"{n} kp{n}" for n in range(1, 10))
#: Seconds before the program's defence lands, so that the player sees their own move first.
REPLY_PAUSE = 0.6
#: (The arrows, Enter and the digits play as in a game: the card lists them once, with the match's keys.)
BINDINGS = Bindings(
    Binding("left", "cursor_left", repeat=True),
    Binding("right", "cursor_right", repeat=True),
    Binding(DROP, "drop_at_cursor", footer="Enter drop"),
    Binding(DIGITS, "drop_in_column", with_event=True),
    Binding("h", "hint", "H", "in a puzzle: a hint (what to look for, then the column)", PLAYING, footer="H hint"),
    Binding("r", "start_over", "R", "in a puzzle: start it over", PLAYING, footer="R start over"),
    Binding("n", "next_puzzle", "N", "in a puzzle: the next one", PLAYING, footer="N next"),
    EXPLORE,
    BACK,
)


def colour_of(side: Side) -> Colour:
    """Puzzles are shown with Red as the first player."""
    return Colour.RED if side is Side.FIRST else Colour.YELLOW


class PuzzleScene(Scene):
    """Plays ``puzzle``; ``following(puzzle)`` gives the next one (N), ``progress`` keeps the result."""

    name = "puzzle"
    bindings = BINDINGS

    def __init__(
        self, app: Host, puzzle: Puzzle, progress: Progress, following: Callable[[Puzzle], Puzzle | None]
    ) -> None:
        super().__init__(app)
        self.progress, self.following = progress, following
        self.explained: Lane[Exploration] = Lane(app.worker)
        self.buttons = {
            action: Button(text, getattr(self, action), detail=BINDINGS.hint(action))
            for action, text in (("hint", "Hint"), ("start_over", "Start over"), ("explore", "Explore"))
        }
        self.buttons["next_puzzle"] = Button(
            "Next", self.next_puzzle, primary=True, detail=BINDINGS.hint("next_puzzle")
        )
        self.buttons["dismiss"] = Button("Back", self.dismiss, detail=BACK.label)
        self.form = Form(app.theme, list(self.buttons.values()))
        self.view = BoardView(puzzle.geometry)
        self._still = Animations()
        self.info = pygame.Rect(0, 0, 0, 0)
        self._load(puzzle)

    def _load(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.session = PuzzleSession(puzzle, colour_of(puzzle.board.turn))
        self.cursor = puzzle.geometry.cols // 2
        self.arrow: int | None = None
        self.counted = False
        self.change = 0.0
        self.wait = 0.0
        self.explained.cancel()
        if self.view.geometry != puzzle.geometry:
            self.view = BoardView(puzzle.geometry)
            self.resize(self.app.screen.get_size())
        self.app.invalidate()

    # -- play ---------------------------------------------------------------------------------
    def drop_in_column(self, event: pygame.event.Event) -> None:
        digit = int(pygame.key.name(event.key).strip("[]")[-1])
        if 1 <= digit <= self.puzzle.geometry.cols:
            self.cursor = digit - 1
            self.drop_at_cursor()

    def drop_at_cursor(self) -> None:
        from game.exploring import exploration

        session = self.session
        if session.state is not State.PLAYING:
            return
        if session.play(self.cursor):
            self.arrow = None
            self.wait = REPLY_PAUSE
            if session.state is State.SOLVED:
                self._count(solved=True)
        elif session.pending is not None:  # a wrong try: the engine says why (the position's values)
            self.explained.keep(session.board.key(), exploration(session.board))
        self.app.invalidate()

    def cursor_left(self) -> None:
        self.cursor = max(0, self.cursor - 1)
        self.app.invalidate()

    def cursor_right(self) -> None:
        self.cursor = min(self.puzzle.geometry.cols - 1, self.cursor + 1)
        self.app.invalidate()

    def hint(self) -> None:
        column = self.session.hint()
        if column is not None:
            self.arrow = self.cursor = column
        self.app.invalidate()

    def start_over(self) -> None:
        tried = self.session.wrong + self.session.hints
        counted = self.counted
        self._load(self.puzzle)
        self.session.wrong, self.counted = tried, counted  # (a fresh start is no first try)

    def next_puzzle(self) -> None:
        self._leave()
        following = self.following(self.puzzle)
        if following is None:
            self.app.notify("Every puzzle of this choice is solved.")
            return
        self._load(following)

    def explore(self) -> None:
        self.app.open("explorer", self.session.board)

    def dismiss(self, result: object = None) -> None:
        self._leave()
        super().dismiss(result)

    def exit(self) -> None:
        self.explained.cancel()

    def _leave(self) -> None:
        """Leaving a puzzle tried and not solved counts as not solved (once)."""
        if self.session.state is not State.SOLVED and (self.session.wrong or self.session.hints):
            self._count(solved=False)

    def _count(self, solved: bool) -> None:
        if not self.counted:
            self.counted = True
            self.change = self.progress.finish(self.puzzle, self.session.first_try, solved)
        elif solved:
            self.progress.finish(self.puzzle, False, True)

    # -- background -----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        playing, hint = self.session.state is State.PLAYING, self.buttons["hint"]
        if hint.enabled != playing:  # a solved (or given-up) puzzle has nothing left to hint at
            hint.enabled = playing
            if not playing and self.form.focused is hint:
                self.form.focus_on(self.buttons["next_puzzle"])
            self.app.invalidate()
        if self.wait > 0:
            self.wait -= dt
            if self.wait <= 0 and self.session.reply() is not None:
                self.app.invalidate()
        job = self.explained.poll()
        if job is not None and job.value is not None and isinstance(job.key, int):
            scores = [value.score for value in job.value.columns]
            self.session.explain(job.key, scores)
            self.app.invalidate()

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
                self.cursor = column
                self.drop_at_cursor()

    # -- layout and drawing -------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        theme, px = self.app.theme, self.app.theme.px
        width, height = size
        buttons = list(self.buttons.values())
        button_height = max(px(46), theme.font_px(15) + theme.font_px(11) + px(14))
        gap = px(10)
        each = min(px(160), (width - px(40) - gap * (len(buttons) - 1)) // len(buttons))
        x = (width - len(buttons) * each - (len(buttons) - 1) * gap) // 2
        for button in buttons:
            button.rect = pygame.Rect(x, height - button_height - px(16), each, button_height)
            x += each + gap
        top = px(24) + theme.font(22, True).get_linesize() + theme.font(15).get_linesize() + px(12)
        bottom = height - button_height - px(28)
        board_width = width * 60 // 100
        self.view.layout(pygame.Rect(px(20), top, board_width - px(30), bottom - top))
        self.info = pygame.Rect(board_width, top + px(8), width - board_width - px(20), bottom - top)

    def toast_floor(self, height: int) -> int:
        return min(button.rect.top for button in self.buttons.values())

    def draw(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        self.app.draw_background(surface)
        session, puzzle = self.session, self.puzzle
        g = puzzle.geometry
        size = f"{g.cols}×{g.rows}" + ("" if g.connect == 4 else f", {g.connect} in a row")
        title = f"Puzzle · {size} · band {puzzle.band}" + (" · yours" if puzzle.id.startswith("mine-") else "")
        centre = surface.get_width() / 2
        theme.draw_text(surface, title, 22, (centre, px(14)), TEXT, bold=True, anchor="midtop")
        task_top = px(18) + theme.font(22, True).get_linesize()
        theme.draw_text(surface, session.task(), 15, (centre, task_top), MUTED, anchor="midtop")
        board = session.board

        def owner(col: int, row: int) -> Colour | None:
            side = board.cell(col, row)
            return None if side is None else colour_of(side)

        playing = session.state is State.PLAYING
        ghost = (self.cursor, session.colour) if playing else None
        winning = board.winning_cells()
        self.view.draw(surface, owner, self._still, Marks(ghost=ghost, hint=self.arrow, winning=winning, pulse=1.0))
        self._draw_info(surface)
        self.form.draw(surface)
        footer = BINDINGS.footer()
        theme.draw_text(surface, footer, 12, (centre, surface.get_height() - px(2)), FAINT, anchor="midbottom")

    def _draw_info(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        rect, session = self.info, self.session
        said = session.said
        ink = SUCCESS if said.good else DANGER if said.good is False else TEXT
        y = theme.draw_text(surface, said.text, 17, rect.topleft, ink, bold=True, wrap=rect.width).bottom + px(12)
        if session.state is State.SOLVED:
            motifs = ", ".join(m.replace("-", " ") for m in self.puzzle.motifs) or "none"
            y = theme.draw_text(surface, f"Motifs: {motifs}", 14, (rect.x, y), MUTED, wrap=rect.width).bottom + px(6)
        rating = f"Your puzzle rating: {self.progress.rating:,.0f}"
        if self.counted and round(self.change):
            rating += f" ({self.change:+.0f})"
        y = theme.draw_text(surface, rating, 14, (rect.x, y), ACCENT, wrap=rect.width).bottom + px(6)
        if session.wrong:
            tries = f"Wrong tries: {session.wrong}" + (f" · hints: {session.hints}" if session.hints else "")
            theme.draw_text(surface, tries, 13, (rect.x, y), MUTED, wrap=rect.width)
