"""The match screen: the board, the players, the computer thinking in the background.

The screen puts together the parts of :mod:`game.match`, each owning one kind
of state: the turn controller (:attr:`MatchScene.turns`: who moves, the
computer's requests, the spectator's pace; it draws nothing), the panels'
feeds (the analysis, the thinking view, the review), the controls (the keys
and the buttons) and the view (the layout and the drawing). It passes on the
input, runs the turn controller and the feeds with the app's fixed step,
and redraws what the controller says changed. It opens the screens about
the match by name (the result, the review, the players) and takes what the
result banner closes with.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game import autosave, heap
from game.match import sharing
from game.match.controls import BINDINGS, MatchControls
from game.match.feeds import Feeds
from game.match.turns import Change, TurnController
from game.match.view import MatchView
from game.model import Mode
from game.scene import Host, Scene
from game.settings import remember
from game.start import say_sandbox

if TYPE_CHECKING:
    from game.players import MatchConfig


class MatchScene(Scene):
    """A match between two players, people or computers."""

    name = "match"
    bindings = BINDINGS

    def __init__(self, app: Host, config: MatchConfig) -> None:
        super().__init__(app)
        self.feeds = Feeds(app.analysis_process)
        self.turns = TurnController(config, app, self._turns_changed)
        self.controls = MatchControls(self, self.turns, app.theme)
        self.view = MatchView(app, self.turns, self.feeds, self.controls)
        self._unkept_said = False  # leaving was refused once because the unfinished game could not be written

    # -- life cycle ----------------------------------------------------------------------------
    def enter(self) -> None:
        self.turns.enter()
        players = (self.turns.model.config.red, self.turns.model.config.yellow)
        say_sandbox(self.app, [player.spec for player in players if player.spec])

    def resume(self) -> None:
        self.turns.animations.speed = self.app.settings.animation.factor  # the settings screen may have changed it

    def dismiss(self, result: object = None) -> None:
        """Leave the match, unless its unfinished game could not be written: then it stays open once, saying why."""
        why = autosave.unkept(self.turns.keeping.kept)
        if why and not self._unkept_said:
            self._unkept_said = True
            text = (
                f"Your unfinished game could not be kept ({why}): the match stays open; Back again leaves without it."
            )
            self.app.notify(text, error=True, seconds=8.0)
            return
        super().dismiss(result)

    def exit(self) -> None:
        self.turns.exit()  # (its agents are closed on the worker thread...)
        self.feeds.stop()
        self.app.worker.run_later(heap.give_back)  # (...then the memory they held goes back to the system)

    def _turns_changed(self, what: Change) -> None:
        """What the turn controller says changed, as the screen shows it."""
        if what is Change.STATE:
            self._changed()
        elif what is Change.FLASH:
            self.app.invalidate([self.view.headline])
        elif what is Change.PREPARING:
            self.app.invalidate([self.view.panels[self.turns.model.colour_to_move], self.view.headline])
        elif what is Change.BOARD:
            self.app.invalidate(self.view.board_changes())
        elif what is Change.WHOLE:
            self.app.invalidate()
        elif what in (Change.PLAYED, Change.RESET):
            self.feeds.thinking.reset()  # a search that ended or was stopped is no longer shown
        elif what is Change.NEW_GAME:
            self.feeds.review.cancel()
            if self.view.board.geometry != self.turns.config.geometry:
                self.view.new_board()
                self.controls.new_board()
                self.resize(self.app.screen.get_size())
        elif what is Change.OVER:
            self.feeds.start_review(self.turns.model.board, self._names())  # in the background, ready when asked for
        elif what is Change.RESULT:
            self.show_result()

    # -- input ------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        controls, board, turns = self.controls, self.view.board, self.turns
        if event.type == pygame.WINDOWLEAVE:
            controls.pointer = (-1, -1)  # over nothing: no tip
        elif event.type == pygame.MOUSEMOTION:
            controls.pointer = event.pos
            controls.form.handle_event(event)
            column = board.column_at(event.pos)
            if column is not None:
                controls.cursor = column
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not controls.form.handle_event(event):
                column = board.column_at(event.pos)
                entry = self.view.move_list.entry_at(event.pos)
                if column is not None:
                    controls.cursor = column
                    turns.drop(column)
                elif entry is not None and turns.model.board.is_over:
                    self.show_review(moves=entry + 1)  # a finished game is studied in the review
                elif entry is not None:
                    turns.go_to(entry + 1 - len(turns.model.start.history))
        elif event.type == pygame.MOUSEWHEEL and self.view.move_list.rect.collidepoint(controls.pointer):
            self.view.move_list.scroll(-event.y)
            self.app.invalidate()
        else:
            self.bindings.dispatch(self, event)

    # -- what the screen's keys and buttons do besides playing (see game.match.controls) -------------------
    @property
    def show_analysis(self) -> bool:
        return self.app.settings.show_analysis

    def toggle_analysis(self) -> None:
        """Show or hide the analysis panel; the choice is remembered."""
        self.app.settings.show_analysis = not self.show_analysis
        problem = remember(self.app.settings_path, show_analysis=self.show_analysis)
        if problem:
            self.app.notify(problem, error=True)
        if not self.show_analysis:
            self.feeds.analysis.stop()
        self.resize(self.view.size)
        self._changed()

    def new_game(self) -> None:
        """N or New game: a new game at once, unless a person's unfinished game would be lost: then ask."""
        self._unless_a_game_is_lost("Start a new game?", "New game", self.turns.restart)

    def _unless_a_game_is_lost(self, question: str, action: str, then: Callable[[], object]) -> None:
        """Do ``then`` at once, or after a yes to ``question`` when it would end a person's unfinished game."""
        turns, model = self.turns, self.turns.model
        if turns.mode is Mode.SPECTATOR or model.board.is_over or not model.played_moves:
            then()
            return
        moves = len(model.played_moves)
        detail = f"This game is not finished ({moves} move{'s' if moves != 1 else ''}): it will be lost."
        self.app.open("confirm", question, detail, action, callback=lambda yes: then() if yes is True else None)

    def leave(self) -> None:
        """Esc or Back: one screen back (the set-up, to change something), but once the game is over, the
        main menu: the set-up screens were for the game that ended."""
        if self.turns.model.board.is_over:
            self.app.reset("menu")
        else:
            self.dismiss()

    def copy_position(self) -> None:
        sharing.copy_position(self.app, self.turns)

    def paste_position(self) -> None:
        """Ctrl+V: play from a pasted position; asked first, as N is, when it would end an unfinished game
        (text that is no position only gets its message)."""
        from game.pasting import pasted_position
        from game.saves import SaveFileError
        from game.widgets import paste_text

        try:
            pasted_position(paste_text(), self.turns.config)
        except SaveFileError:
            sharing.paste_position(self.app, self.turns)  # says what is wrong; the game goes on
            return
        paste = partial(sharing.paste_position, self.app, self.turns)  # the clipboard is read again when answered
        self._unless_a_game_is_lost("Play from the pasted position?", "Paste", paste)

    def save_game(self) -> None:
        sharing.save_game(self.app, self.turns)

    def choose_players(self) -> None:
        if self.turns.mode is Mode.SPECTATOR:
            self.app.open("players", self.turns)

    def show_review(self, moves: int | None = None) -> None:
        """Open the review of the finished game, at its end or just after move number ``moves``."""
        if self.turns.model.board.is_over:
            self.feeds.start_review(self.turns.model.board, self._names())
            self.app.open("review", self.turns.model, self.feeds.review, moves, lessons=self.feeds.lessons)

    def explore(self) -> None:
        """E: the opening explorer at the position on the board."""
        self.app.open("explorer", self.turns.model.board)

    def _names(self) -> tuple[str, str]:
        """The colours' names, the first player's first (what the engine's words call the players)."""
        from engine.board import Side

        model = self.turns.model
        return model.colour_of(Side.FIRST).label, model.colour_of(Side.SECOND).label

    def show_why(self) -> None:
        """The reason for the position's value, on the board, and Show me (the Why screen)."""
        from engine.board import Side

        model = self.turns.model
        colours = (model.colour_of(Side.FIRST), model.colour_of(Side.SECOND))
        self.app.open("why", model.board, colours)

    def show_result(self) -> None:
        self.turns.result_shown = True
        self.app.open("result", self.turns, callback=self._after_result)

    def _after_result(self, choice: object) -> None:
        """What the result banner closed with: a rematch, the review, or a key of this screen's."""
        if choice == "rematch":
            self.turns.rematch()
        elif choice == "review":
            self.show_review()
        elif isinstance(choice, pygame.event.Event):
            self.handle_event(choice)

    # -- the frame ---------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.turns.update(dt)
        self.feeds.lessons.follow(self.feeds.review, self.turns.model, self.app.settings_path, self.app.notify)
        analysis, thinking = self.feeds.follow(self.turns, self.show_analysis)
        if analysis:
            strip = self.feeds.analysis
            self.app.invalidate([strip.strip, strip.label, strip.key])
        if thinking:  # its line on the board, its shares, its summary
            self.app.invalidate([self.view.headline, self.feeds.analysis.strip, *self.view.board_changes()])

    def _changed(self) -> None:
        """The match's state changed: show the buttons that fit it now and the moves, and redraw what
        that touches in the next frame."""
        before = self.controls.looks()
        self.controls.arrange(self.view.size, self.show_analysis, self.view.why)
        self.app.invalidate(self.view.changes(before, self.controls.looks(), self.show_analysis))

    def resize(self, size: tuple[int, int]) -> None:
        self.view.layout(size, self.show_analysis)
        self.controls.arrange(size, self.show_analysis, self.view.why)

    def toast_area(self, size: tuple[int, int]) -> pygame.Rect:
        return self.view.toast_area(self.controls.top(size[1]))

    def animating(self) -> bool:
        return bool(self.view.animated_area())

    def animated_area(self) -> list[pygame.Rect]:
        return self.view.animated_area()

    def shown(self, area: list[pygame.Rect] | None) -> None:
        self.view.shown(area)

    def draw(self, surface: pygame.Surface) -> None:
        self.view.draw(surface, self.show_analysis, on_top=self.app.scene is self)
