"""The Puzzles screen (the menu's Puzzles): choose a board, a band and the set or "My puzzles", then play.

The set is the shipped one (``assets/puzzles.txt``, :mod:`engine.puzzles.store`),
read once per run; a damaged set is said in one message and leaves "My
puzzles" playable. "My puzzles" are the positions of the player's own
mistakes, made after each review (:mod:`game.lessons`). Next puzzle takes the
first of the chosen ones not tried yet, else the first not solved; the
rating and what was solved are kept with the records (:mod:`game.puzzle_progress`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import pygame

from game.bindings import FORM
from game.inputs import Choice
from game.model import plural
from game.puzzle_progress import Progress, path_for, progress_at
from game.scene import Host
from game.scenes.base import FormScene
from game.theme import DANGER, MUTED, TEXT, Paint
from game.widgets import Button, align_labels

if TYPE_CHECKING:
    from engine.puzzles.puzzle import Puzzle

ANY = 0
SET, MINE = "set", "mine"
BAND_NAMES = {ANY: "Any", 1: "1 easy", 2: "2", 3: "3", 4: "4", 5: "5 hard"}


@functools.cache
def shipped_set() -> tuple[tuple[Puzzle, ...], str]:
    """The shipped puzzles and a message ("" if the set was read); read once per run."""
    from engine.puzzles import store
    from engine.puzzles.puzzle import PuzzleError

    try:
        return store.load(store.DEFAULT_PATH).puzzles, ""
    except PuzzleError as exc:
        return (), f"The puzzle set cannot be used: {exc}"


def board_name(puzzle: Puzzle) -> str:
    g = puzzle.geometry
    return f"{g.cols}×{g.rows}" + ("" if g.connect == 4 else f", {g.connect} in a row")


class PuzzlesScene(FormScene):
    name = "puzzles"
    title = "Puzzles"
    bindings = FORM

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.progress, problem = progress_at(path_for(app.settings_path))
        puzzles, self.set_problem = shipped_set()
        self.set_puzzles = puzzles
        for message in (problem, self.set_problem):
            if message:
                app.notify(message, error=True)
        boards = list(dict.fromkeys(board_name(p) for p in [*puzzles, *self.progress.mine])) or ["7×6"]
        self.source = Choice("Puzzles", [(SET, "The set"), (MINE, "My puzzles")], SET, self._changed)
        self.board = Choice("Board", [(name, name) for name in boards], boards[0], self._changed)
        self.band = Choice("Band", list(BAND_NAMES.items()), ANY, self._changed)
        self.back = Button("Back", self.dismiss)
        self.next = Button("Next puzzle", self.play_next, primary=True)
        self.form.set_widgets([self.source, self.board, self.band, self.back, self.next], focus=self.next)
        self.lines: list[tuple[str, Paint]] = []
        self._changed()

    # -- what is chosen -------------------------------------------------------------------------
    def chosen(self) -> list[Puzzle]:
        """The puzzles of the chosen source, board and band, in their order."""
        pool = self.progress.mine if self.source.value == MINE else list(self.set_puzzles)
        return [
            p
            for p in pool
            if board_name(p) == self.board.value and (self.band.value == ANY or p.band == self.band.value)
        ]

    def pick(self, after: str | None = None) -> Puzzle | None:
        """The first chosen puzzle not tried yet (after ``after``, an id), else the first not solved."""
        chosen = self.chosen()
        ids = [p.id for p in chosen]
        start = ids.index(after) + 1 if after in ids else 0
        ordered = chosen[start:] + chosen[:start]
        attempts = self.progress.attempts
        untried = [p for p in ordered if p.id not in attempts]
        unsolved = [p for p in ordered if p.id in attempts and not attempts[p.id].solved]
        return next(iter(untried or unsolved), None)

    def _changed(self, _value: object = None) -> None:
        chosen = self.chosen()
        solved = self.progress.solved([p.id for p in chosen])
        self.subtitle = f"Your puzzle rating: {self.progress.rating:,.0f}"
        self.lines = []
        if self.source.value == SET and self.set_problem:
            self.lines.append((self.set_problem, DANGER))
        elif not chosen:
            empty = "No puzzles of your own yet: each mistake of yours in a reviewed game becomes one."
            self.lines.append((empty if self.source.value == MINE else "No puzzle of this board and band.", MUTED))
        else:
            self.lines.append((f"{plural(len(chosen), 'puzzle')}, {solved:,} solved.", TEXT))
        self.lines.append(
            ("Find the one move that wins (and every move after it) or the only move that does not lose.", MUTED)
        )
        self.next.enabled = bool(chosen)
        self.app.invalidate()

    # -- playing --------------------------------------------------------------------------------
    def play_next(self, after: str | None = None) -> None:
        puzzle = self.pick(after)
        if puzzle is None:
            self.app.notify("Every puzzle here is solved: choose another band or board.")
            return
        self.app.open("puzzle", puzzle, self.progress, self.following, callback=self._closed)

    def following(self, puzzle: Puzzle) -> Puzzle | None:
        """The puzzle after ``puzzle`` (the puzzle screen's Next)."""
        return self.pick(puzzle.id)

    def _closed(self, _result: object) -> None:
        self._changed()

    # -- layout -------------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        theme, px = self.theme, self.theme.px
        self.area = area = self.content(size)
        self.button_row([self.back, self.next], area)
        row = max(px(44), theme.font_px(16) + px(16))
        width = min(area.width, px(560) + round(px(160) * (theme.text_scale - 1)))
        y = area.y
        for choice in (self.source, self.board, self.band):
            choice.rect = pygame.Rect(area.x, y, width, row)
            y += row + px(12)
        align_labels([self.source, self.board, self.band], theme)
        self.text_top = y + px(8)

    def draw_content(self, surface: pygame.Surface) -> None:
        theme, px = self.theme, self.theme.px
        y = self.text_top
        for text, ink in self.lines:
            if y > self.back.rect.top - theme.font(15).get_linesize():
                break  # (a very small window at the largest text: the buttons stay clear)
            y = theme.draw_text(surface, text, 15, (self.area.x, y), ink, wrap=self.area.width).bottom + px(6)


def progress_of(app: Host) -> Progress:
    return progress_at(path_for(app.settings_path))[0]
