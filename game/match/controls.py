"""The match's controls: its keys (one table), the buttons along the bottom, and the disc in hand.

:data:`BINDINGS` is the match screen's key table (see :mod:`game.bindings`):
it handles the keys, puts them on the shortcuts card and gives each button
its key hint. Its actions are the screen's methods or those of its parts
(``turns.undo``: the turn controller's). The buttons are made once, each
doing what the binding of the same action does; which of them show, and
where, is worked out again only when the match's state or the window
changes (:meth:`MatchControls.arrange`), never while drawing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.bindings import EXPLORE, PLAYING, SHARING, TWO_COMPUTERS, Binding, Bindings, find
from game.match.spectating import SERIES_GAMES
from game.match.turns import TurnController
from game.model import Mode
from game.widgets import Button, Form

if TYPE_CHECKING:
    from game.theme import Theme

DIGIT_KEYS = {getattr(pygame, f"K_{n}"): n - 1 for n in range(1, 10)} | {
    getattr(pygame, f"K_KP{n}"): n - 1 for n in range(1, 10)
}
DROP = "return kp_enter space down"
DIGITS = " ".join(f"{n} kp{n}" for n in range(1, 10))
SPEEDS_TEXT = "speed: slow, normal, fast, instant"
SERIES_TEXT = f"a series of {SERIES_GAMES} games, or stop it"

#: The match's keys. Held down, only the arrows repeat (a held Down must not drop disc after disc).
BINDINGS = Bindings(
    Binding("", label="Mouse", does="point at a column and click to drop", group=PLAYING),
    Binding("left", "controls.cursor_left", "← →", "choose a column", PLAYING, repeat=True),
    Binding("right", "controls.cursor_right", repeat=True),
    # two computers: before the keys of play that share a key (Space)
    Binding(
        "space",
        "turns.spectator.toggle_pause",
        "Space",
        "pause, resume; once over, the next game",
        TWO_COMPUTERS,
        when="controls.spectating",
    ),
    Binding("s", "turns.spectator.step", "S", "one move, while paused", TWO_COMPUTERS, when="controls.spectating"),
    Binding(
        "f",
        "turns.spectator.next_speed",
        "F",
        SPEEDS_TEXT,
        TWO_COMPUTERS,
        button="F: speed",
        when="controls.spectating",
    ),
    Binding(
        "x",
        "turns.spectator.swap_players",
        "X",
        "the computers swap sides (once over: in a new game)",
        TWO_COMPUTERS,
        when="controls.spectating",
    ),
    Binding(
        "p",
        "choose_players",
        "P",
        "change either computer",
        TWO_COMPUTERS,
        button="P · X swaps",
        when="controls.spectating",
    ),
    Binding("g", "turns.spectator.start_series", "G", SERIES_TEXT, TWO_COMPUTERS, when="controls.spectating"),
    # Enter, Space and Down: ask a failed computer again, else the result of a finished game, else drop
    Binding(DROP, "turns.retry", when="controls.waiting_for_retry"),
    Binding(DROP, "controls.drop_at_cursor", "Enter, Space, ↓", "drop the disc there", PLAYING),
    Binding(DIGITS, "controls.drop_in_column", "1 … 9", "drop straight into that column", PLAYING, with_event=True),
    Binding("u ctrl+z backspace", "turns.undo", "U, Ctrl+Z", "undo your last move", PLAYING),
    Binding("shift+u ctrl+y", "turns.redo", "Shift+U, Ctrl+Y", "redo what undo took back", PLAYING),
    Binding("h", "turns.ask_hint", "H", "ask the computer for a hint", PLAYING),
    Binding("n", "new_game", "N", "new game (asks first if this one is unfinished)", PLAYING),
    Binding("r", "turns.rematch", "R", "rematch, when a game is over", PLAYING, when="controls.over"),
    Binding(DROP, "show_result", "Enter", "the result again, when a game is over", PLAYING, when="controls.landed"),
    Binding("a", "toggle_analysis", "A", "every column's value (analysis)", PLAYING),
    EXPLORE,
    Binding("y", "show_why", "Y", "why: the reason for the position's value, on the board", PLAYING),
    Binding("v", "show_review", "V", "review the game, once over", PLAYING, when="controls.over"),
    Binding("ctrl+s", "save_game", "Ctrl+S", "save the game", SHARING),
    Binding("ctrl+c", "copy_position", "Ctrl+C", "copy the position as a move string", SHARING, rank=1),
    Binding("ctrl+v", "paste_position", "Ctrl+V", "play from a pasted move string or grid", SHARING, rank=1),
    Binding("escape", "leave", "Esc", "back; once a game is over, the main menu", PLAYING, footer="Esc back"),
)


class MatchControls:
    """The buttons of the match screen ``screen`` and where its disc in hand is."""

    def __init__(self, screen: Any, turns: TurnController, theme: Theme) -> None:
        self.turns, self.theme = turns, theme
        self.form = Form(theme)
        self.cursor = turns.config.geometry.cols // 2  # the column of the disc in hand
        self.pointer = (0, 0)  # where the mouse was last seen (the wheel scrolls what is under it)

        def button(text: str, action: str, primary: bool = False) -> Button:
            """A button that does what the binding of ``action`` does, and names its keys on a second line."""
            return Button(text, find(screen, action), primary=primary, detail=BINDINGS.hint(action))

        self.retry_button = button("Retry", "turns.retry", primary=True)
        self.pause_button = button("Pause", "turns.spectator.toggle_pause")
        self.step_button = button("Step", "turns.spectator.step")
        self.speed_button = button("Normal", "turns.spectator.next_speed")
        self.players_button = button("Players", "choose_players")
        self.series_button = button(f"{SERIES_GAMES} games", "turns.spectator.start_series")
        self.undo_button = button("Undo", "turns.undo")
        self.redo_button = button("Redo", "turns.redo")
        self.hint_button = button("Hint", "turns.ask_hint")
        self.new_button = button("New game", "new_game")
        self.rematch_button = button("Rematch", "turns.rematch", primary=True)
        self.result_button = button("Result", "show_result")
        self.back_button = button("Back", "leave")
        self.analysis_button = button("Analysis", "toggle_analysis")
        self.review_button = button("Review", "show_review")
        self.why_button = button("Why?", "show_why")

    # -- the conditions of some keys (see BINDINGS) --------------------------------------------------
    def spectating(self, event: pygame.event.Event) -> bool:
        return self.turns.mode is Mode.SPECTATOR

    def waiting_for_retry(self, event: pygame.event.Event) -> bool:
        """A computer failed: Enter asks it again."""
        return bool(self.turns.error) and not self.turns.model.human_to_move

    def landed(self, event: pygame.event.Event) -> bool:
        """The game is over and its last disc has landed."""
        return self.turns.model.board.is_over and self.turns.animations.idle

    def over(self, event: pygame.event.Event) -> bool:
        return self.turns.model.board.is_over

    # -- the disc in hand -------------------------------------------------------------------------------
    def cursor_left(self) -> None:
        self.cursor = max(0, self.cursor - 1)

    def cursor_right(self) -> None:
        self.cursor = min(self.turns.config.geometry.cols - 1, self.cursor + 1)

    def drop_at_cursor(self) -> None:
        self.turns.drop(self.cursor)

    def drop_in_column(self, event: pygame.event.Event) -> None:
        """A digit: the disc straight into that column (if the board has it)."""
        column = DIGIT_KEYS[event.key]
        if column < self.turns.config.geometry.cols:
            self.cursor = column
            self.turns.drop(column)

    def new_board(self) -> None:
        """A board of another size: the disc in hand stays on it."""
        self.cursor = min(self.cursor, self.turns.config.geometry.cols - 1)

    # -- the buttons along the bottom -------------------------------------------------------------------
    def arrange(self, size: tuple[int, int], show_analysis: bool, why: pygame.Rect | None = None) -> None:
        """Choose the buttons that fit the state of the match, and lay them out in a row (``why``: where the
        Why? button goes, beside the analysis, while it is shown)."""
        turns = self.turns
        over = turns.model.board.is_over
        buttons = []
        if turns.error and not over:
            buttons.append(self.retry_button)
        if turns.mode is Mode.SPECTATOR:
            if not over:
                self.pause_button.text = "Resume" if turns.spectator.paused else "Pause"
                self.step_button.enabled = turns.spectator.paused
                buttons += [self.pause_button, self.step_button]
            self.speed_button.text = turns.spectator.speed.label
            running = turns.spectator.in_series
            self.series_button.text = "Stop series" if running else f"{SERIES_GAMES} games"
            buttons += [self.speed_button, self.players_button, self.series_button]
        else:
            self.undo_button.enabled = turns.model.undo_count() > 0
            self.redo_button.enabled = turns.model.redo_count() > 0
            buttons += [self.undo_button, self.redo_button]
            if not over:
                self.hint_button.enabled = turns.model.human_to_move
                buttons.append(self.hint_button)
        buttons += [self.rematch_button, self.review_button, self.result_button] if over else [self.new_button]
        self.analysis_button.text = "Hide analysis" if show_analysis else "Analysis"
        buttons += [self.analysis_button, self.back_button]
        px, (width, height) = self.theme.px, size
        button_width, gap = min(px(170), (width - px(40)) // len(buttons) - px(10)), px(12)
        x = (width - len(buttons) * button_width - (len(buttons) - 1) * gap) // 2
        for button in buttons:
            button.rect = pygame.Rect(x, height - px(62), button_width, px(46))
            x += button_width + gap
        if show_analysis and why is not None and not over and why.width >= px(60):
            self.why_button.rect = why
            buttons.append(self.why_button)
        if buttons != self.form.widgets:
            self.form.set_widgets(buttons)
        self.form.focus = None  # the keyboard plays the board here; the buttons have their own keys

    def looks(self) -> dict[Button, tuple[tuple[object, ...], pygame.Rect]]:
        """Each button's looks and where it draws (a change redraws only the buttons whose looks changed)."""
        buttons = [widget for widget in self.form.widgets if isinstance(widget, Button)]
        return {button: (button.looks(), button.bounds(self.theme)) for button in buttons}

    def top(self, height: int) -> int:
        """Where the row of buttons begins (messages over the screen stay above it)."""
        return height - self.theme.px(62)
