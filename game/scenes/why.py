"""Why: the reason for a position's value in words and on the board, and "Show me", which plays it.

The reason comes from :mod:`engine.explain` (checked against every reply
before it is shown), computed in an analysis process of this screen's own,
so that the match's analysis and review go on meanwhile. Beside the board:
the reason in one line and in full; on it, the cells each rule claims, the
pairs it shares, the groups it refutes and the threats
(:mod:`game.panels.why`).

"Show me" (S) lets the player try to break the reason: the player takes the
side it is about, the program the other and answers by the reason, saying
which rule each answer follows. Esc goes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.board import Board, Side
from game.animation import Animations
from game.bindings import BACK, Binding, Bindings
from game.board_view import BoardView, Marks
from game.jobs import Kind, Lane, Runner
from game.model import Colour
from game.panels.why import KEY, draw_marks
from game.scene import Host, Scene
from game.theme import ACCENT, DANGER, MUTED, SUCCESS, TEXT
from game.widgets import Button, Form

if TYPE_CHECKING:
    from engine.explain.marks import Why

DIGITS = " ".join(f"{n} kp{n}" for n in range(1, 10))
#: The program's answers listed in Show me (the newest last).
SAID = 4
#: What each answer's rule is called in the line under the board.
RULE_WORDS = {
    "follow-up": "follow-up (on top, or in a column with an odd number of empty cells)",
    "answer": "the answer that keeps the reason",
    "win": "a win",
    "winning move": "the winning move",
    "odd-threat": "the threat: you had to play below it",
}


class WhyScene(Scene):
    """The reason for ``board``'s value; ``colours``: the first player's colour and the second's."""

    name = "why"
    bindings = Bindings(
        Binding("s", "show_me", "S", "Show me: play against the reason"),
        Binding(DIGITS, "drop_digit", "1 … 9", "play in that column (Show me)", with_event=True),
        BACK,
    )

    def __init__(self, app: Host, board: Board, colours: tuple[Colour, Colour], runner: Runner | None = None) -> None:
        super().__init__(app)
        self.board = board.copy()
        self.colours = colours
        self.names = (colours[0].label, colours[1].label)
        self._own: Any = None
        if runner is None:
            from game.analysis_process import AnalysisProcess

            runner = self._own = AnalysisProcess()
        self.explain: Lane[Why] = Lane(runner)
        self.answers: Lane[tuple[int, str]] = Lane(runner)
        self.explain.submit((self.board, {"names": list(self.names)}), kind=Kind.EXPLAIN)
        self.why: Why | None = None
        self.error = ""
        self.game: Board | None = None  # the Show me game, while it is played
        self.said: list[str] = []  # what the program's answers followed, the newest last
        self.view = BoardView(board.geometry)
        self._still = Animations()
        self.show_button = Button("Show me", self.show_me, primary=True, detail="S")
        self.back_button = Button(f"Back ({BACK.label})", self.dismiss)
        self.form = Form(app.theme, [self.show_button, self.back_button])
        self.side = pygame.Rect(0, 0, 0, 0)
        self.show_button.enabled = False

    def exit(self) -> None:
        self.explain.cancel()
        self.answers.cancel()
        if self._own is not None:
            self._own.close()

    # -- the reason and the game ------------------------------------------------------------------
    def update(self, dt: float) -> None:
        job = self.explain.poll()
        if job is not None:
            self.why = job.latest
            self.error = job.error or ("" if self.why is not None else "no answer")
            self.show_button.enabled = self.why is not None and self.why.strategist is not None
            self.app.invalidate()
        answer = self.answers.poll()
        if answer is not None and self.game is not None:
            if answer.latest is None:
                self.said.append(f"The program has no answer here: {answer.error or 'none came'}")
            else:
                column, rule = answer.latest
                self.game.play(column)
                who = self.names[(self.game.ply - 1) % 2]
                self.said.append(f"{who} plays column {column + 1}: {RULE_WORDS.get(rule, rule)}.")
                self._ask_if_its_turn()
            del self.said[:-SAID]
            self.app.invalidate()

    def animating(self) -> bool:
        return self.explain.current is not None or self.answers.current is not None

    def show_me(self) -> None:
        """Start (or start again) the game against the reason."""
        if self.why is None or self.why.strategist is None:
            return
        self.game = self.board.copy()
        player = self.names[1 - self.why.strategist]
        self.said = [f"You play {player}: try to break the reason."]
        self._ask_if_its_turn()
        self.show_button.text = "Again"
        self.app.invalidate()

    def _ask_if_its_turn(self) -> None:
        """The program's move, if it is its turn (the answer comes back in a later update)."""
        game, why = self.game, self.why
        if game is None or why is None or game.is_over or game.ply % 2 != why.strategist:
            return
        fields = {"names": list(self.names), "from": len(self.board.history)}
        self.answers.submit((game.copy(), fields), kind=Kind.ANSWER)

    def play(self, column: int) -> None:
        """The player's move in Show me (when it is the player's turn and the column has room)."""
        game, why = self.game, self.why
        if game is None or why is None or game.is_over or self.answers.current is not None:
            return
        if game.ply % 2 == why.strategist or not game.is_legal(column):
            return
        game.play(column)
        self._ask_if_its_turn()
        self.app.invalidate()

    def drop_digit(self, event: pygame.event.Event) -> None:
        key = pygame.key.name(event.key).removeprefix("[").removesuffix("]")
        if key.isdigit() and 1 <= int(key) <= self.board.geometry.cols:
            self.play(int(key) - 1)

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.bindings.dispatch(self, event) or self.form.handle_event(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.game is not None:
            column = self.view.column_at(event.pos)
            if column is not None:
                self.play(column)

    # -- layout and drawing -----------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        px = self.app.theme.px
        width, height = size
        top, bottom = px(70), height - px(76)
        board_width = width * 56 // 100
        self.view.layout(pygame.Rect(px(20), top, board_width - px(20), bottom - top))
        self.side = pygame.Rect(board_width + px(16), top, width - board_width - px(36), bottom - top)
        button_width, gap = min(px(190), (width - px(60)) // 2), px(12)
        x = (width - 2 * button_width - gap) // 2
        for button in (self.show_button, self.back_button):
            button.rect = pygame.Rect(x, height - px(62), button_width, px(46))
            x += button_width + gap

    def toast_floor(self, height: int) -> int:
        return height - self.app.theme.px(62)

    def draw(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        self.app.draw_background(surface)
        title = "Show me: play against the reason" if self.game is not None else "Why?"
        theme.draw_text(surface, title, 24, (surface.get_width() / 2, px(16)), TEXT, bold=True, anchor="midtop")
        shown = self.game if self.game is not None else self.board

        def owner(col: int, row: int) -> Colour | None:
            side = shown.cell(col, row)
            return None if side is None else self.colours[int(side)]

        last = None
        if shown.history:
            col = shown.history[-1]
            last = (col, shown.height(col) - 1)
        winning = shown.winning_cells()
        self.view.draw(surface, owner, self._still, Marks(last_move=last, winning=winning, pulse=1.0))
        if self.why is not None and not winning:
            why = self.why if self.game is None else _without_line(self.why)
            draw_marks(surface, theme, self.view, self.board if self.game is None else shown, why, self.colours)
        self._draw_side(surface)
        self.form.draw(surface)

    def _draw_side(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        x, y, width = self.side.x, self.side.y, self.side.width
        why = self.why
        if why is None:
            text = f"No reason: {self.error}" if self.error else "Looking for a checked reason…"
            theme.draw_text(surface, text, 16, (x, y), MUTED, wrap=width)
            return
        if self.game is not None:
            y = self._draw_game(surface, x, y, width)
        head = why.brief or "No short reason"
        y = theme.draw_text(surface, head, 17, (x, y), ACCENT if why.claim else MUTED, bold=True, wrap=width).bottom
        y += px(8)
        key = self._key_lines(why)
        line = theme.font(12).get_linesize()
        room = self.side.bottom - y - len(key) * line - px(10)
        size = 14 if theme.text(why.text, 14, TEXT, wrap=width).get_height() <= room else 12
        y = theme.draw_text(surface, why.text, size, (x, y), TEXT, wrap=width).bottom + px(10)
        for text in key:
            if y + line > self.side.bottom:
                break
            y = theme.draw_text(surface, theme.fit_text(text, 12, width), 12, (x, y), MUTED).bottom

    def _key_lines(self, why: Why) -> list[str]:
        """What the marks on the board mean, in the players' colours (none without marks)."""
        if not why.marks:
            return []
        defender, mover = self.names[why.defender], self.names[1 - why.defender]
        return [f"{shape}: {meaning.format(defender=defender, mover=mover)}" for shape, meaning in KEY]

    def _draw_game(self, surface: pygame.Surface, x: int, y: int, width: int) -> int:
        """The Show me game's state: whose turn, the last answer, the result."""
        theme, px = self.app.theme, self.app.theme.px
        game, why = self.game, self.why
        assert game is not None and why is not None
        player = self.names[1 - (why.strategist or 0)]
        if game.is_over:
            won = game.winner
            if won is None:
                text, ink = "A draw: the reason held.", SUCCESS
            elif int(won) == why.strategist:
                text, ink = f"{self.names[int(won)]} won: the reason held.", SUCCESS
            else:
                text, ink = "You won: the reason did not hold!", DANGER  # (never: every reason is checked)
        elif self.answers.current is not None:
            text, ink = "The program thinks…", MUTED
        else:
            text, ink = f"Your move ({player}): click a column or press its number.", TEXT
        y = theme.draw_text(surface, text, 16, (x, y), ink, bold=True, wrap=width).bottom + px(4)
        for line in self.said:
            y = theme.draw_text(surface, line, 14, (x, y), MUTED, wrap=width).bottom + px(2)
        return y + px(10)


def _without_line(why: Why) -> Why:
    """``why`` without the moves of its main line (the Show me game plays its own)."""
    from dataclasses import replace

    return replace(why, moves="")


def first_colours(board: Board, colour_of) -> tuple[Colour, Colour]:
    """The first player's colour and the second's, from a match's ``colour_of(Side)``."""
    return colour_of(Side.FIRST), colour_of(Side.SECOND)
