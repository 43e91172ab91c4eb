"""The game review: step through a finished game with every move labelled by the solver.

The review itself (:func:`engine.review.review_game`) runs on the analysis
thread from the moment the game ends and fills in from the last move
backwards; this screen shows what is known so far: the board after the
selected move, with the better move's column marked by an arrow where the
move was not best, the move's label and values, a summary per player and
the evaluation graph of the whole game. A mistake or a blunder says why in
one sentence (the checked reason the review finds for it), and Why? (Y) shows
the reason for the value of the position after the selected move on its board
(the Why screen, with Show me). ← → step, Home and End jump, a click on the
graph picks a move, E opens the opening explorer at the position shown (the
one before the last move when the game is over there), Esc goes back to the
match. Once the review is done, the people's mistakes become puzzles
(:mod:`game.lessons`), whichever of the match or this screen is open.
"""

from __future__ import annotations

import pygame

from engine.board import Board, Side
from engine.outcome import outcome
from engine.review import MoveReview, summary, summary_text
from game.animation import Animations
from game.bindings import BACK, EXPLORE, Binding, Bindings
from game.board_view import BoardView, Marks
from game.jobs import Lane
from game.lessons import Lessons
from game.match_model import MatchModel
from game.model import Colour
from game.panels.eval_graph import draw_graph, height_of, index_at
from game.scene import Host, Scene
from game.theme import ACCENT, DANGER, MUTED, PANEL, SUCCESS, TEXT, Paint
from game.widgets import Button, Form

LABEL_COLOURS: dict[str, Paint] = {
    "best": SUCCESS,
    "good": TEXT,
    "mistake": (255, 170, 60),
    "blunder": DANGER,
    "unknown": MUTED,
}


class ReviewScene(Scene):
    """Reviews a finished game (``model``), its moves labelled as the review's job (on ``review``) fills in."""

    name = "review"
    #: The arrows step through the game here, not between the buttons.
    bindings = Bindings(
        Binding("left", "previous", repeat=True),
        Binding("right", "next", repeat=True),
        Binding("home", "first"),
        Binding("end", "last"),
        EXPLORE,
        Binding("y", "show_why", "Y", "why: the reason for the value after the selected move"),
        BACK,
    )

    def __init__(
        self,
        app: Host,
        model: MatchModel,
        review: Lane[MoveReview],
        moves: int | None = None,
        lessons: Lessons | None = None,
    ) -> None:
        super().__init__(app)
        self.model, self.review, self.lessons = model, review, lessons
        self.root = self.model.board.root()  # the empty board, or the grid the game began at
        self.history = list(self.model.board.history)
        self.selected = len(self.history)  # moves shown on the board: the final position first
        self.view = BoardView(self.model.config.geometry)
        self._still = Animations()  # nothing falls here: every disc is drawn where it lies
        self.prev_button = Button("◀ Previous", self.previous)
        self.next_button = Button("Next ▶", self.next)
        self.explore_button = Button("Explore (E)", self.explore)
        self.why_button = Button("Why?", self.show_why, detail="Y")
        self.back_button = Button(f"Back ({BACK.label})", self.dismiss)
        self.buttons = [self.prev_button, self.next_button, self.explore_button, self.why_button, self.back_button]
        self.form = Form(app.theme, self.buttons)
        self.graph = pygame.Rect(0, 0, 0, 0)
        self.side = pygame.Rect(0, 0, 0, 0)
        self._board = self._board_at(self.selected)
        self._known = -1
        if moves is not None:
            self.go(moves)

    # -- what is known ------------------------------------------------------------------
    @property
    def reviews(self) -> dict[int, MoveReview]:
        """The reviewed moves so far, by ply (1-based)."""
        job = self.review.current
        return {} if job is None else {item.ply: item for item in job.items}

    @property
    def finished(self) -> bool:
        job = self.review.current
        return job is not None and job.finished

    def mover(self, ply: int) -> Colour:
        """The colour that made move ``ply`` (1-based)."""
        return self.model.colour_of(Side((self.root.ply + ply - 1) % 2))

    def red_values(self, reviews: dict[int, MoveReview]) -> list[float | None]:
        """The graph's heights after 0..n moves, for Red."""
        geometry = self.model.config.geometry
        values: list[float | None] = []
        for moves in range(len(self.history) + 1):
            if moves == 0:
                first = reviews.get(1)
                score, ply = (None, 1) if first is None else (first.before, 1)
            else:
                item = reviews.get(moves)
                score, ply = (None, moves) if item is None else (item.after, moves)
            if score is None:
                values.append(None)
                continue
            red = score if self.mover(ply) is Colour.RED else -score
            values.append(height_of(red, geometry))
        return values

    # -- input -----------------------------------------------------------------------------
    def go(self, moves: int) -> None:
        moves = max(0, min(len(self.history), moves))
        if moves != self.selected:
            self.selected = moves
            self._board = self._board_at(moves)
            self.app.invalidate()

    def previous(self) -> None:
        self.go(self.selected - 1)

    def next(self) -> None:
        self.go(self.selected + 1)

    def first(self) -> None:
        self.go(0)

    def last(self) -> None:
        self.go(len(self.history))

    def explore(self) -> None:
        """The explorer at the position shown (the one before the last move, where the game is over)."""
        board = self._board if not self._board.is_over else self._board_at(max(0, self.selected - 1))
        self.app.open("explorer", board)

    def show_why(self) -> None:
        """The reason for the value of the position on the board (after the selected move)."""
        colours = (self.model.colour_of(Side.FIRST), self.model.colour_of(Side.SECOND))
        self.app.open("why", self._board, colours)

    def _board_at(self, moves: int) -> Board:
        board = self.root.copy()
        for col in self.history[:moves]:
            board.play(col)
        return board

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.bindings.dispatch(self, event) or self.form.handle_event(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            moves = index_at(self.graph, self.app.theme, event.pos, len(self.history))
            if moves is not None:
                self.go(moves)

    def update(self, dt: float) -> None:
        if self.lessons is not None:
            self.lessons.follow(self.review, self.model, self.app.settings_path, self.app.notify)
        known = len(self.reviews)
        if known != self._known:
            self._known = known
            self.app.invalidate()

    def animating(self) -> bool:
        return not self.finished  # the progress line's clock runs

    # -- layout and drawing -------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        px = self.app.theme.px
        width, height = size
        self.graph = pygame.Rect(px(20), height - px(76) - px(130), width - px(40), px(124))
        top = px(78)
        board_width = width * 58 // 100
        self.view.layout(pygame.Rect(px(20), top, board_width - px(20), self.graph.top - px(8) - top))
        self.side = pygame.Rect(board_width + px(10), top + px(10), width - board_width - px(30), self.graph.top - top)
        count = len(self.buttons)
        button_width, gap = min(px(170), (width - px(80)) // count), px(12)
        x = (width - count * button_width - (count - 1) * gap) // 2
        for button in self.buttons:
            button.rect = pygame.Rect(x, height - px(62), button_width, px(46))
            x += button_width + gap

    def draw(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        self.app.draw_background(surface)
        reviews = self.reviews
        theme.draw_text(surface, "Game review", 24, (surface.get_width() / 2, px(16)), TEXT, bold=True, anchor="midtop")
        theme.draw_text(surface, self._progress(reviews), 14, (surface.get_width() / 2, px(50)), MUTED, anchor="midtop")
        self._draw_board(surface, reviews.get(self.selected))
        self._draw_side(surface, reviews)
        labels: list[str | None] = [None]  # nothing before the first move
        labels += [reviews[ply].label if ply in reviews else None for ply in range(1, len(self.history) + 1)]
        draw_graph(surface, theme, self.graph, self.red_values(reviews), labels, self.selected)
        self.form.draw(surface)

    def _progress(self, reviews: dict[int, MoveReview]) -> str:
        box = self.review.current
        total = len(self.history)
        if box is None:
            return ""
        if box.error:
            return f"The review failed: {box.error}"
        if not box.finished:  # a move may come back unknown first, and labelled by the second pass
            solved = sum(item.label != "unknown" for item in reviews.values())
            return f"Reviewing… {solved} of {total} moves solved ({box.seconds:.0f} s)"
        unknown = sum(item.label == "unknown" for item in reviews.values())
        missing = total - len(reviews)
        text = f"All {total} moves reviewed by the solver"
        if unknown or missing:
            text = f"{total - unknown - missing} of {total} moves reviewed; {unknown + missing} not solved in time"
        return text + " · ← → Home End to step"

    def _draw_board(self, surface: pygame.Surface, item: MoveReview | None) -> None:
        board = self._board
        last = None
        if self.selected:
            col = self.history[self.selected - 1]
            last = (col, board.height(col) - 1)

        def owner(col: int, row: int) -> Colour | None:
            side = board.cell(col, row)
            return None if side is None else self.model.colour_of(side)

        hint = item.better if item is not None else None
        self.view.draw(surface, owner, self._still, Marks(hint=hint, last_move=last, pulse=1.0))

    def _draw_side(self, surface: pygame.Surface, reviews: dict[int, MoveReview]) -> None:
        theme, px = self.app.theme, self.app.theme.px
        rect, geometry = self.side, self.model.config.geometry
        x, y, width = rect.x, rect.y, rect.width
        if self.selected == 0:
            theme.draw_text(surface, "The start of the game", 18, (x, y), TEXT, bold=True)
            y += px(30)
            first = reviews.get(1)
            if first is not None and first.before is not None:
                words = outcome(first.before, 0, geometry).words
                line = f"{self.mover(1).label} to move: {words}"
                y = theme.draw_text(surface, line, 15, (x, y), MUTED, wrap=width).bottom + px(6)
        else:
            ply = self.selected
            col = self.history[ply - 1]
            item = reviews.get(ply)
            title = f"Move {ply}: {self.mover(ply).label} plays column {col + 1}"
            y = theme.draw_text(surface, title, 18, (x, y), TEXT, bold=True, wrap=width).bottom + px(8)
            if item is None:
                y = theme.draw_text(surface, "Not reviewed yet…", 16, (x, y), MUTED).bottom + px(6)
            else:
                ink = LABEL_COLOURS[item.label]
                y = theme.draw_text(surface, item.label.capitalize(), 20, (x, y), ink, bold=True).bottom + px(6)
                for line in _value_lines(item, geometry):
                    y = theme.draw_text(surface, line, 15, (x, y), MUTED, wrap=width).bottom + px(4)
                if item.better is not None:
                    line = f"Better: column {item.better + 1} (the arrow)"
                    y = theme.draw_text(surface, line, 15, (x, y), ACCENT, bold=True).bottom + px(4)
                if item.why:
                    line = f"Why: {item.why}."
                    y = theme.draw_text(surface, line, 14, (x, y), TEXT, wrap=width).bottom + px(4)
                elif item.label in ("mistake", "blunder") and not self.finished:
                    y = theme.draw_text(surface, "Why: looking for a reason…", 14, (x, y), MUTED).bottom + px(4)
        y += px(16)
        pygame.draw.line(surface, PANEL, (x, y), (x + width, y), 2)
        y += px(10)
        opener = self.model.colour_of(Side.FIRST)
        counts = summary(list(reviews.values()), opener.label, opener.other.label)
        for player in (Colour.RED, Colour.YELLOW):
            line = f"{player.label}: {summary_text(counts[player.label])}"
            y = theme.draw_text(surface, line, 14, (x, y), TEXT, wrap=width).bottom + px(4)


def _value_lines(item: MoveReview, geometry) -> list[str]:
    """``Before: Win in 4`` / ``After: Draw`` in the mover's own moves."""
    lines = []
    for name, score in (("Before the move", item.before), ("After it", item.after)):
        if score is not None:
            result = outcome(score, item.mover_ply, geometry)
            won = name == "After it" and result.kind == "win" and result.moves == 1  # this move itself won
            lines.append(f"{name}: {'the game is won' if won else result.words}")
    return lines
