"""The analysis panel: above each column, that move's value for the side to move.

Values come from :class:`engine.analysis.Analyst`, run in the analysis
process (:mod:`game.analysis_process`, below the players' priority): the
book's answers at once, then a short search's estimates ("≈ +0.3", with a
bar), then exact values ("Win in 7", "Draw", "Loss in 12") as the solver
finishes each column. A position change stops the run under way at once and
starts a new one. While a column takes long, the caption says which one and
for how long. The solve stage is bounded (an early 8x8 position would keep a
core busy for hours): then the caption says "Not solved" and the estimates
stay. On a narrow column an estimate drops its "≈" and then its leading zero
("-.2"): the chip's plain fill and its bar still say it is an estimate.
"""

from __future__ import annotations

import pygame

from engine.analysis import PositionAnalysis, Stage
from engine.board import Board
from engine.outcome import outcome, score_words
from engine.score import Score
from game import drawing
from game.board_view import BoardView
from game.jobs import Job, Kind, Lane, Runner
from game.theme import DANGER, FAINT, MUTED, PANEL, PANEL_LIGHT, SUCCESS, TEXT, Theme

#: How often the caption's clock is redrawn while a column is being solved (seconds).
CLOCK_STEP = 0.1
#: The key to the short value forms, a line each, shown beside the board while the chips use them.
KEY = (("W7", "win in 7 moves"), ("D", "draw"), ("L7", "loss in 7 moves"))
KEY_SIZE = 12


class AnalysisPanel:
    """The values above the columns; :meth:`follow` the position each update, :meth:`draw` reads."""

    def __init__(self, service: Runner) -> None:
        self.lane: Lane[PositionAnalysis] = Lane(service)  # the analysis process's jobs for this panel
        self.strip = pygame.Rect(0, 0, 0, 0)  # where the values go: set by the match screen's layout
        self.key = pygame.Rect(0, 0, 0, 0)  # where the key to the short forms goes: likewise
        self.label = pygame.Rect(0, 0, 0, 0)  # where the caption goes, left of the values: likewise
        # What the panel shows: the run as follow() last saw it (the process's reader thread fills the
        # job at any moment; drawing what an update saw keeps each frame what the match asked for).
        self.snapshot: PositionAnalysis | None = None
        self._caption = ""
        self._seen: tuple[object, int, int, str | None] | None = None  # (run, snapshots, clock tenths, error)

    # -- state -------------------------------------------------------------------------
    def follow(self, board: Board) -> bool:
        """Analyze ``board`` (a new position restarts, the same one goes on); True if the picture changed."""
        if board.is_over:
            self.stop()
            return False
        key = (board.geometry, tuple(board.history))
        job = self.lane.keep(key, board, kind=Kind.ANALYZE)  # a new position stops the old run; the same goes on
        count = len(job.items)  # items arrive meanwhile: everything below is about the first ``count``
        latest = job.items[count - 1] if count else None
        ticking = not job.finished and latest is not None and latest.stage is Stage.SOLVE
        seen = (job, count, int(job.seconds / CLOCK_STEP) if ticking else 0, job.error)
        if seen == self._seen:
            return False
        self._seen, self.snapshot, self._caption = seen, latest, caption(job, latest)
        return True

    def stop(self) -> None:
        self.lane.cancel()
        self._seen, self.snapshot, self._caption = None, None, ""

    def caption(self) -> str:
        """One line on how far the analysis got (when :meth:`follow` last looked)."""
        return self._caption

    # -- drawing -------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, theme: Theme, view: BoardView, ply: int) -> None:
        """A chip above each column with its value; the best move(s) outlined."""
        px = theme.px
        snapshot = self.snapshot
        caption = self.caption()
        if caption:
            caption, size, wrap = caption_layout(theme, caption, max(self.label.width, px(60)), self.label.height)
            theme.draw_text(surface, caption, size, self.label.midright, MUTED, anchor="midright", wrap=wrap)
        if snapshot is None:
            return
        best = set(snapshot.best_columns) if snapshot.stage is not Stage.BOOK or _all_exact(snapshot) else set()
        width, height = view.cell - px(6), min(self.strip.height, px(30))
        # Words where every value fits its chip ("Win in 7"), else the short form everywhere ("W7").
        outcomes = {
            col: outcome(int(value.value), ply, view.geometry)
            for col, value in enumerate(snapshot.values)
            if value is not None and value.is_exact
        }
        font = theme.font(12, True)
        short = any(font.size(result.words)[0] > width - px(6) for result in outcomes.values())
        for col, value in enumerate(snapshot.values):
            if value is None:
                continue  # a full column stays blank
            x, _ = view.cell_centre(col, 0)
            rect = pygame.Rect(0, 0, width, height)
            rect.center = (round(x), self.strip.centery)
            result = outcomes.get(col)
            if result is None:  # an estimate: "≈ +0.3", or shorter where that does not fit
                words = estimate_words(value, ply, view, font, width - px(6))
            else:
                words = result.short if short else result.words
            self._draw_chip(surface, theme, rect, value, snapshot, col, words, col in best)
        if short and outcomes:
            self._draw_key(surface, theme)

    @staticmethod
    def key_height(theme: Theme) -> int:
        """The height :meth:`draw` needs for the key (a line per short form)."""
        return len(KEY) * theme.font(KEY_SIZE).get_linesize()

    def _draw_key(self, surface: pygame.Surface, theme: Theme) -> None:
        """The short forms explained, one a line: the code in bold, its meaning beside it."""
        line = theme.font(KEY_SIZE).get_linesize()
        codes = max(theme.font(KEY_SIZE, True).size(code)[0] for code, _ in KEY) + theme.px(8)
        for index, (code, meaning) in enumerate(KEY):
            y = self.key.y + index * line
            theme.draw_text(surface, code, KEY_SIZE, (self.key.x, y), MUTED, bold=True)
            room = self.key.width - codes
            if theme.font(KEY_SIZE).size(meaning)[0] > room:  # "win in 7" says it too, where "moves" does not fit
                meaning = meaning.removesuffix(" moves")
            text = theme.fit_text(meaning, KEY_SIZE, room)
            theme.draw_text(surface, text, KEY_SIZE, (self.key.x + codes, y), MUTED)

    def _draw_chip(self, surface, theme: Theme, rect, value: Score, snapshot, col, words, best) -> None:
        px = theme.px
        waiting = not value.is_exact and (snapshot.stage is Stage.BOOK or snapshot.solving == col)
        if value.is_exact:
            kind = "draw" if value.value == 0 else "win" if value.value > 0 else "loss"
            fill = {"win": SUCCESS, "draw": PANEL_LIGHT, "loss": DANGER}[kind]
            colour = (12, 20, 36) if kind != "draw" else TEXT
        else:
            fill, colour, words = PANEL, FAINT if waiting else MUTED, "…" if waiting else words
        drawing.panel(surface, rect, px(8), fill, TEXT if best else None, 3 if best else 1, raised=False)
        if not value.is_exact and not waiting:  # an estimate: a bar from the middle, right for good, left for bad
            half = (rect.width - px(10)) / 2
            length = round(half * max(-1.0, min(1.0, float(value.value))))
            bar = pygame.Rect(0, 0, abs(length), px(3))
            bar.bottom = rect.bottom - px(4)
            bar.left = rect.centerx if length >= 0 else rect.centerx + length
            pygame.draw.rect(surface, SUCCESS if length >= 0 else DANGER, bar)
        theme.draw_text(
            surface,
            theme.fit_text(words, 12, rect.width - px(4), bold=True),
            12,
            (rect.centerx, rect.centery - (px(2) if not value.is_exact else 0)),
            colour,
            bold=True,
            anchor="center",
        )


def caption_layout(theme: Theme, caption: str, width: int, height: int) -> tuple[str, float, int]:
    """The caption as it fits ``width`` x ``height`` pixels, ``(text, size, wrap width)``: on one line, or
    smaller on two in a narrow column, else shortened at the smaller size."""
    if theme.font(13).size(caption)[0] <= width:
        return caption, 13, 0
    if theme.text(caption, 12, MUTED, wrap=width).get_height() <= height:
        return caption, 12, width
    return theme.fit_text(caption, 12, width), 12, 0


def estimate_words(value: Score, ply: int, view: BoardView, font: pygame.font.Font, room: int) -> str:
    """The longest form of an estimate that fits ``room`` pixels: "≈ -0.2", "-0.2", then "-.2" (a value that
    rounds to zero has no sign: "≈ 0.0", never "-0.0")."""
    words = score_words(value, ply, view.geometry)
    if words in ("≈ -0.0", "≈ +0.0"):
        words = "≈ 0.0"
    bare = words.removeprefix("≈ ")
    shortest = "0" if bare == "0.0" else bare.replace("0.", ".", 1)
    return next((form for form in (words, bare) if font.size(form)[0] <= room), shortest)


def caption(job: Job[PositionAnalysis], latest: PositionAnalysis | None) -> str:
    """One line on how far a run got, ``latest`` being its latest snapshot."""
    if job.error:
        return f"Analysis failed: {job.error}"
    if latest is None:
        return "Analysis: starting…"
    if latest.finished:
        return f"Analysis: exact ({latest.seconds:.1f} s) · E explores"
    if latest.stage is Stage.UNSOLVED:  # the solve stage's time ran out: the estimates stay
        known = "estimates only" if not latest.exact_count else f"{latest.exact_count} of {latest.playable} exact"
        return f"Not solved in time: {known}"  # (its seconds would count a first start's kernel loading too)
    if latest.solving is not None:
        return f"Solving column {latest.solving + 1}… {job.seconds:.0f} s"
    return "Analysis: estimating…"


def _all_exact(snapshot: PositionAnalysis) -> bool:
    return all(value is None or value.is_exact for value in snapshot.values)
