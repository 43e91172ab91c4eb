"""The match: the board, the players, the turn loop and the computer thinking in the background.

The turn loop runs in :meth:`MatchScene.update`. When a computer is to move
the screen asks its lane of computer jobs (:mod:`game.jobs`, run by the
:class:`~game.worker.Worker` thread) for a move on a copy of the board, and
polls the lane every step; meanwhile the window keeps drawing and reacting.
Only the lane's newest job is ever answered, so after a new game, an undo or
leaving the screen (all of which cancel the search) a late answer is simply
dropped. People move with the mouse or the
keyboard, and only when it is their turn: input during the computer's turn
is ignored, not queued. A move made while a disc is still falling first
lands that disc, so two discs never fall at once.

The buttons along the bottom are made once; which of them show, and where,
is worked out again only when the match's state or the window changes
(:meth:`MatchScene._changed`, :meth:`MatchScene.resize`), never while drawing.

A change without input (a move played, news from the search or the analysis)
redraws only what it touches: the panels, the headline, the move list, the
buttons whose looks changed and the board's cells whose picture differs from
what the window shows (:meth:`MatchScene._board_changes`); showing the whole
window costs a real display several times more.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from engine.agents.base import Agent, SearchResult
from game import drawing, pictures
from game.animation import Animations
from game.bindings import BACK, PLAYING, SHARING, TWO_COMPUTERS, Binding, Bindings
from game.board_view import BoardView, Marks, Picture
from game.jobs import PREPARING, SEARCHING, Job, Lane
from game.labels import agent_words, fit_agent, fit_headline
from game.match_model import MatchModel
from game.model import Colour, Mode
from game.panels.analysis import AnalysisPanel
from game.panels.move_list import MoveList, move_entries
from game.panels.thinking import ThinkingPanel, compact
from game.players import MatchConfig, sentence, spec_label
from game.scene import Host, Scene
from game.settings import remember
from game.spectator import SPEEDS, Series
from game.theme import ACCENT, DANGER, FAINT, MUTED, PANEL, PANEL_LIGHT, SUCCESS, TEXT, Paint
from game.widgets import Button, Form, paste_text

if TYPE_CHECKING:
    from engine.review import MoveReview

#: Shortest time a computer move takes on screen, so fast agents stay watchable (seconds).
MIN_MOVE_TIME = {Mode.SPECTATOR: 0.7, Mode.HUMAN_VS_AI: 0.35, Mode.HOTSEAT: 0.0}
RESULT_DELAY = 0.8  # seconds between the last disc landing and the result panel
EXIT_DELAY = 1.5  # with --exit-after-game: how long the result stays up
SERIES_GAMES = 10  # the length of a spectator's series
HINT_SECONDS = 2.0  # time limit of a hint search
FLASH_SECONDS = 2.0
PULSE_SECONDS = 4.0  # a hint arrow or a winning line breathes this long, then rests (a still screen idles)
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
    Binding("left", "cursor_left", "← →", "choose a column", PLAYING, repeat=True),
    Binding("right", "cursor_right", repeat=True),
    # two computers: before the keys of play that share a key (Space)
    Binding("space", "toggle_pause", "Space", "pause, or resume", TWO_COMPUTERS, when="spectating"),
    Binding("s", "step", "S", "one move, while paused", TWO_COMPUTERS, when="spectating"),
    Binding("f", "next_speed", "F", SPEEDS_TEXT, TWO_COMPUTERS, button="F: speed", when="spectating"),
    Binding("x", "swap_players", "X", "the computers swap sides", TWO_COMPUTERS, when="spectating"),
    Binding(
        "p", "choose_players", "P", "change either computer", TWO_COMPUTERS, button="P · X swaps", when="spectating"
    ),
    Binding("g", "start_series", "G", SERIES_TEXT, TWO_COMPUTERS, when="spectating"),
    # Enter, Space and Down: ask a failed computer again, else the result of a finished game, else drop
    Binding(DROP, "retry", when="waiting_for_retry"),
    Binding(DROP, "drop_at_cursor", "Enter, Space, ↓", "drop the disc there", PLAYING),
    Binding(DIGITS, "drop_in_column", "1 … 9", "drop straight into that column", PLAYING, with_event=True),
    Binding("u ctrl+z backspace", "undo", "U, Ctrl+Z", "undo your last move", PLAYING),
    Binding("shift+u ctrl+y", "redo", "Shift+U, Ctrl+Y", "redo what undo took back", PLAYING),
    Binding("h", "ask_hint", "H", "ask the computer for a hint", PLAYING),
    Binding("n", "restart", "N", "new game", PLAYING),
    Binding("r", "rematch", "R", "rematch, when a game is over", PLAYING, when="over"),
    Binding(DROP, "show_result", "Enter", "the result again, when a game is over", PLAYING, when="over_and_still"),
    Binding("a", "toggle_analysis", "A", "every column's value (analysis)", PLAYING),
    Binding("v", "show_review", "V", "review the game, once over", PLAYING, when="over"),
    Binding("ctrl+s", "save_game", "Ctrl+S", "save the game", SHARING),
    Binding("ctrl+c", "copy_position", "Ctrl+C", "copy the position as a move string", SHARING, rank=1),
    Binding("ctrl+v", "paste_position", "Ctrl+V", "play from a pasted move string or grid", SHARING, rank=1),
    BACK,
)


class MatchScene(Scene):
    name = "match"
    bindings = BINDINGS

    def __init__(self, app: Host, config: MatchConfig) -> None:
        super().__init__(app)
        self.config = config
        self.mode = config.mode
        self.model = MatchModel(config)
        self.view = BoardView(config.geometry)
        self.animations = Animations(app.settings.animation.factor)
        self.form = Form(app.theme)
        self.agents: dict[Colour, Agent] = {}
        self.setup_error: str | None = None  # an agent that could not be built: the match cannot go on
        self.time = 0.0
        self.cursor = config.geometry.cols // 2
        self.paused = False
        self.steps = 0  # moves still to play while paused (the spectator's "step")
        self.series: Series | None = None  # a run of games between two computers
        self.move_list = MoveList(app.theme)
        self._pointer = (0, 0)  # where the mouse was last seen (the wheel scrolls what is under it)
        self._counted = False  # the finished game on the board is in the tally
        self._listed: tuple[MatchModel, int] | None = None  # the model and version the move list shows
        self._hint_agent: Agent | None = None
        self._preparing_shown = False  # the window says the computer to move is being prepared
        self._size = app.screen.get_size()
        self._board_shown: Picture | None = None  # what the window shows of the board (None: unknown)
        self._failure_shown: str | None = None  # the failure whose box the window shows
        # Each button names its keys on a second line (those of the binding that does the same).
        keys = self.bindings.hint
        self.retry_button = Button("Retry", self.retry, primary=True)
        self.pause_button = Button("Pause", self.toggle_pause, detail=keys("toggle_pause"))
        self.step_button = Button("Step", self.step, detail=keys("step"))
        self.speed_button = Button("Normal", self.next_speed, detail=keys("next_speed"))
        self.players_button = Button("Players", self.choose_players, detail=keys("choose_players"))
        self.series_button = Button(f"{SERIES_GAMES} games", self.start_series, detail=keys("start_series"))
        self.undo_button = Button("Undo", self.undo, detail=keys("undo"))
        self.redo_button = Button("Redo", self.redo, detail=keys("redo"))
        self.hint_button = Button("Hint", self.ask_hint, detail=keys("ask_hint"))
        self.new_button = Button("New game", self.restart, detail=keys("restart"))
        self.rematch_button = Button("Rematch", self.rematch, primary=True, detail=keys("rematch"))
        self.result_button = Button("Result", self.show_result, detail=keys("show_result"))
        self.back_button = Button("Back", self.dismiss, detail=keys("dismiss"))
        self.analysis_button = Button("Analysis", self.toggle_analysis, detail=keys("toggle_analysis"))
        self.review_button = Button("Review", self.show_review, detail=keys("show_review"))
        # The live analysis, the thinking view and the game review (see game.panels).
        self.analysis = AnalysisPanel(app.analysis_process)
        self.thinking_view = ThinkingPanel()
        self.review: Lane[MoveReview] = Lane(app.analysis_process)
        self.computer: Lane[str] = Lane(app.worker)  # the computer's moves and the hints
        self._reset_turn_state()

    def _reset_turn_state(self) -> None:
        self.computer.cancel()  # a move or hint asked for: no longer wanted
        self._asked_at = 0.0
        self._ready: SearchResult | None = None  # a computer move waiting for the previous disc to land
        self.error: str | None = None
        self.hint: int | None = None
        self.hint_text = ""
        self._flash = ("", 0.0)
        self._pulse_since = 0.0  # when the latest breathing mark (hint, winning line) appeared
        self._over_since: float | None = None
        self._result_shown = False
        self.thinking_view.reset()  # a search that was stopped is no longer shown

    # -- life cycle ----------------------------------------------------------------------------
    def enter(self) -> None:
        self.app.tally.follow(self.config)
        self.app.catalog.hold_loading(True)  # other levels load after the match: their loading makes frames late
        for colour in Colour:
            spec = self.config.player(colour).spec
            if spec is None:
                continue
            try:
                self.agents[colour] = self.app.make_agent(spec)
            except Exception as exc:  # shown on the board; the screen stays usable (back)
                self.setup_error = f"Cannot create the {colour.value} player ({spec}): {exc}"
        self._changed()

    def resume(self) -> None:
        self.animations.speed = self.app.settings.animation.factor  # the settings screen may have changed it

    def exit(self) -> None:
        self.app.catalog.hold_loading(False)
        self.computer.cancel()
        self.analysis.stop()
        self.review.cancel()
        for agent in [*self.agents.values(), self._hint_agent]:
            if agent is not None:
                self.app.worker.run_later(agent.close)
        self.agents.clear()

    def restart(self, config: MatchConfig | None = None) -> None:
        """A new game (``config``: a rematch); any search still running is stopped and forgotten."""
        self.computer.cancel()
        if config is not None and config.geometry != self.config.geometry:
            self.view = BoardView(config.geometry)
            self.cursor = min(self.cursor, config.geometry.cols - 1)
            self.resize(self.app.screen.get_size())
        self.config = config or self.config
        self.app.tally.follow(self.config)
        self.model = MatchModel(self.config)
        self.animations.clear()
        self.paused, self.steps, self._counted = False, 0, False
        self._reset_turn_state()
        self.review.cancel()
        for agent in self.agents.values():
            self.app.worker.run_later(agent.new_game)
        self._changed()

    def rematch(self) -> None:
        """The same players, the other colour first (a finished series ends here)."""
        if self.series is not None and self.series.finished:
            self.series = None
        self.restart(self.config.rematch())

    # -- input ------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.WINDOWLEAVE:
            self._pointer = (-1, -1)  # over nothing: no tip
        elif event.type == pygame.MOUSEMOTION:
            self._pointer = event.pos
            self.form.handle_event(event)
            column = self.view.column_at(event.pos)
            if column is not None:
                self.cursor = column
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not self.form.handle_event(event):
                column = self.view.column_at(event.pos)
                entry = self.move_list.entry_at(event.pos)
                if column is not None:
                    self.cursor = column
                    self.drop(column)
                elif entry is not None and self.model.board.is_over:
                    self.show_review(moves=entry + 1)  # a finished game is studied in the review
                elif entry is not None:
                    self.go_to(entry + 1 - len(self.model.start.history))
        elif event.type == pygame.MOUSEWHEEL and self.move_list.rect.collidepoint(self._pointer):
            self.move_list.scroll(-event.y)
            self.app.invalidate()
        else:
            self.bindings.dispatch(self, event)

    # the conditions of some keys (see BINDINGS)
    def spectating(self, event: pygame.event.Event) -> bool:
        return self.mode is Mode.SPECTATOR

    def waiting_for_retry(self, event: pygame.event.Event) -> bool:
        """A computer failed: Enter asks it again."""
        return bool(self.error) and not self.model.human_to_move

    def over_and_still(self, event: pygame.event.Event) -> bool:
        return self.model.board.is_over and self.animations.idle

    def over(self, event: pygame.event.Event) -> bool:
        return self.model.board.is_over

    def cursor_left(self) -> None:
        self.cursor = max(0, self.cursor - 1)

    def cursor_right(self) -> None:
        self.cursor = min(self.config.geometry.cols - 1, self.cursor + 1)

    def drop_at_cursor(self) -> None:
        self.drop(self.cursor)

    def drop_in_column(self, event: pygame.event.Event) -> None:
        """A digit: the disc straight into that column (if the board has it)."""
        column = DIGIT_KEYS[event.key]
        if column < self.config.geometry.cols:
            self.cursor = column
            self.drop(column)

    # -- actions -----------------------------------------------------------------------------------
    def drop(self, col: int) -> None:
        """A person's move; ignored unless a person is to move."""
        if not self.model.human_to_move:
            return
        reason = self.model.board.legality(col)
        if reason is not None:
            self.flash(reason[0].upper() + reason[1:])
            self.app.sounds.play("illegal")
            return
        if self.computer.kind == "hint":  # the hint is no longer wanted
            self.computer.cancel()
        self._play(col)

    def undo(self) -> None:
        if self.mode is Mode.SPECTATOR:
            return
        if self.model.undo_count() == 0:
            self.flash("Nothing to undo")
            return
        self.computer.cancel()
        self.animations.cancel(self.model.undo())
        self._position_changed()

    def redo(self) -> None:
        """Replay the moves last taken back (as many as an undo took)."""
        if self.mode is Mode.SPECTATOR:
            return
        if self.model.redo_count() == 0:
            self.flash("Nothing to redo")
            return
        self.computer.cancel()
        for col, row, colour in self.model.redo():
            self.animations.drop(col, row, colour, self.view.hand_row)
        self._position_changed()

    def go_to(self, moves: int) -> None:
        """Show the game as it was after ``moves`` moves (a click in the move list); not for spectators."""
        if self.mode is Mode.SPECTATOR or moves == self.model.moves_played:
            return
        self.computer.cancel()
        emptied, _ = self.model.go_to(moves)
        self.animations.cancel(emptied)
        self.animations.clear()  # a jump shows the position at once
        self._position_changed()

    def _position_changed(self) -> None:
        """After moves were taken back or replayed: a game no longer over leaves the tally again."""
        if self._counted and not self.model.board.is_over:
            self.app.tally.record(self._counted_winner, -1)
            self._counted = False
        self._reset_turn_state()
        self._changed()
        self._changed()

    # -- sharing -------------------------------------------------------------------------------------
    def copy_position(self) -> None:
        """Ctrl+C: the position as a move string (a grid if the game began from one) on the clipboard."""
        from game.saves import position_text

        text = position_text(self.model.board)
        try:
            pygame.scrap.put_text(text)
        except pygame.error as exc:
            self.flash(f"Could not copy: {exc}")
            return
        shown = text if "\n" not in text else "the position as a grid"
        self.app.notify(f"Copied {shown or 'the empty board'}", seconds=2.5)

    def paste_position(self) -> bool:
        """Ctrl+V: start again from a pasted move string or text grid, with the same players; False if
        the text is not a position to play from (a message says why)."""
        from game.saves import SaveFileError, pasted_position

        try:
            config = pasted_position(paste_text(), self.config)
        except SaveFileError as exc:
            self.app.notify(sentence(str(exc)), error=True)  # a toast: the whole sentence, over any banner
            return False
        self.series = None
        self.restart(config)
        self.hint_text = "Started from the pasted position"
        return True

    def save_game(self) -> None:
        """Ctrl+S: the game so far, to a new file in the saved-games folder."""
        from game import saves

        game = saves.SavedGame(self.config, self.model.played_moves)
        try:
            path = saves.save(game)
        except OSError as exc:
            self.flash(f"Could not save the game: {exc.strerror or exc}")
            return
        self.app.notify(f"Saved as {path.name} in {path.parent}", seconds=4.0)

    # -- spectator controls ------------------------------------------------------------------------------
    def step(self) -> None:
        """While paused: let the computer to move play one move."""
        if self.paused and not self.model.board.is_over:
            self.steps = 1
            self._changed()

    def next_speed(self) -> None:
        """The next pace, remembered at once (also in a match started from the command line)."""
        names, settings = list(SPEEDS), self.app.settings
        current = names.index(settings.spectator_speed) if settings.spectator_speed in SPEEDS else 1
        settings.spectator_speed = names[(current + 1) % len(names)]
        problem = remember(self.app.settings_path, spectator_speed=settings.spectator_speed)
        if problem:
            self.app.notify(problem, error=True)
        self._changed()

    def swap_players(self) -> None:
        """The two computers change sides from this position on."""
        if self.mode is not Mode.SPECTATOR:
            return
        self.computer.cancel()
        self.config = self.model.config = self.config.swapped()
        self.agents = {colour.other: agent for colour, agent in self.agents.items()}
        for agent in self.agents.values():
            self.app.worker.run_later(agent.new_game)  # a kept search tree belongs to the other side
        self.app.tally.follow(self.config)
        self._reset_turn_state()
        self.hint_text = "The computers have swapped sides"
        self._changed()

    def replace_player(self, colour: Colour, spec: str) -> None:
        """A computer player gives way to ``spec`` from this position on."""
        from dataclasses import replace

        player = self.config.player(colour)
        if player.is_human or spec == player.spec:
            return
        try:
            agent = self.app.make_agent(spec)
        except Exception as exc:
            self.flash(f"Cannot use {spec}: {exc}")
            return
        self.computer.cancel()
        old = self.agents.pop(colour, None)
        if old is not None:
            self.app.worker.run_later(old.close)
        self.agents[colour] = agent
        updated = replace(player, spec=spec)
        self.config = self.model.config = replace(self.config, **{colour.value: updated})  # type: ignore[arg-type]
        self.app.tally.follow(self.config)
        self.setup_error = None
        self._reset_turn_state()
        self.hint_text = f"{colour.title} is now played by {updated.agent_label}"
        self._changed()

    def choose_players(self) -> None:
        if self.mode is Mode.SPECTATOR:
            self.app.open("players", self)

    def start_series(self, games: int = SERIES_GAMES) -> None:
        """Play ``games`` games in a row, alternating who starts, with a fresh tally; again: stop the series.

        The game on the board is the first one, unless it is over (then a rematch is).
        """
        if self.mode is not Mode.SPECTATOR:
            return
        if self.series is not None and not self.series.finished:
            self.series = None
            self.hint_text = "Series stopped"
            self._changed()
            return
        if self.model.board.is_over:
            self.rematch()
        self.app.tally.clear()
        self.series = Series(games)
        self.paused = False
        self._changed()

    def ask_hint(self) -> None:
        """Ask the strongest preset for the move it would play here (shown as an arrow)."""
        if not self.model.human_to_move or self.computer.current is not None:
            return
        if self._hint_agent is None:
            try:
                self._hint_agent = self.app.make_agent(self.app.catalog.hint_spec())
            except Exception as exc:
                self.flash(f"No hint: {exc}")
                return
        agent, board, catalog = self._hint_agent, self.model.board.copy(), self.app.catalog
        spec = catalog.hint_spec()

        def hint(job: Job[str]) -> SearchResult:
            assert job.stop is not None  # the worker gives every job its stop flag
            catalog.wait_until_prepared(spec, board, job.stop)
            with job.stop.deadline(HINT_SECONDS) as limit:
                return agent.choose(board, limit)

        self._submit(hint, "hint")
        self.hint, self.hint_text = None, "Looking for a good move…"
        self._changed()

    def retry(self) -> None:
        """After an agent failed: ask it again."""
        self.error = None
        self._changed()

    def toggle_pause(self) -> None:
        """Pause or resume two computers; a pause stops the search under way (it starts again on resume)."""
        if self.mode is not Mode.SPECTATOR or self.model.board.is_over:
            return
        self.paused, self.steps = not self.paused, 0
        if self.paused and self.computer.kind == "move":
            self.computer.cancel()
        self._changed()

    def flash(self, text: str) -> None:
        self._flash = (text, self.time + FLASH_SECONDS)
        self.app.invalidate([self._headline_area])

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
            self.analysis.stop()
        self.resize(self._size)
        self._changed()

    def start_review(self) -> None:
        """Review the game in the analysis process (it fills in as positions are solved); idempotent."""
        self.review.keep(tuple(self.model.board.history), self.model.board, kind="review")

    def show_review(self, moves: int | None = None) -> None:
        """Open the review of the finished game, at its end or just after move number ``moves``."""
        if self.model.board.is_over:
            self.start_review()
            self.app.open("review", self, moves)

    def show_result(self) -> None:
        self._result_shown = True
        self.app.open("result", self, callback=self._after_result)

    def _after_result(self, choice: object) -> None:
        """What the result banner closed with: a rematch, the review, or a key of this screen's."""
        if choice == "rematch":
            self.rematch()
        elif choice == "review":
            self.show_review()
        elif isinstance(choice, pygame.event.Event):
            self.handle_event(choice)

    def _submit(self, work, kind: str, items: tuple[str, ...] = ()) -> None:
        self.computer.submit(work, kind=kind, items=items)
        self._asked_at = self.time

    def _play(self, col: int, result: SearchResult | None = None) -> None:
        self.thinking_view.reset()
        colour, row = self.model.colour_to_move, self.model.board.height(col)
        self.animations.finish()  # the disc still falling lands first: never two in the air
        self.model.play(col, result)
        if not (self.mode is Mode.SPECTATOR and self.speed.instant):
            self.animations.drop(col, row, colour, self.view.hand_row)
        self.app.sounds.play("drop")
        self.hint, self.hint_text, self._ready = None, "", None
        self.steps = max(0, self.steps - 1)
        self._changed()

    @property
    def speed(self):
        """The spectator's pace (slow, normal, fast, instant), a remembered setting."""
        return SPEEDS.get(self.app.settings.spectator_speed, SPEEDS["normal"])

    def _changed(self) -> None:
        """The match's state changed: show the buttons that fit it now and the moves, and redraw what
        that touches in the next frame."""
        parts = [*self.panels.values(), self._headline_area, self.analysis.strip, self.analysis.label]
        if self._listed != (self.model, self.model.version):  # the list is rebuilt only after a change
            self._listed = (self.model, self.model.version)
            parts += self.move_list.update(*move_entries(self.model))
        before = self._button_looks()
        self._arrange_buttons()
        after = self._button_looks()
        for looks, other in ((before, after), (after, before)):  # where a button changed, before and after
            parts += [bounds for button, (look, bounds) in looks.items() if other.get(button, ((),))[0] != look]
        if self.show_analysis:
            parts.append(self.analysis.key)
        whole = self.failure is not None or self._failure_shown is not None  # its box lies over several parts
        self.app.invalidate(None if whole else parts + self._board_changes())

    def _button_looks(self) -> dict[Button, tuple[tuple[object, ...], pygame.Rect]]:
        """Each button's looks and where it draws."""
        buttons = [widget for widget in self.form.widgets if isinstance(widget, Button)]
        return {button: (button.looks(), button.bounds(self.app.theme)) for button in buttons}

    def _board_changes(self) -> list[pygame.Rect]:
        """The parts of the board whose picture differs from what the window shows."""
        picture, shown = self._board_picture(), self._board_shown
        if picture is None or shown is None:
            return [self._board_area]
        return [self.view.part_area(part) for part, look in picture.items() if shown.get(part) != look]

    def _board_picture(self) -> Picture | None:
        line = self.thinking_view.line(self.model.board, self.model.colour_to_move) if self._search_shown else []
        extra = {(col, row): (colour, number) for col, row, colour, number in line}
        return self.view.picture(self.model.owner, self.animations, self.marks(), extra)

    @property
    def _search_shown(self) -> bool:
        """The thinking view draws the search on the board (once the last disc has landed)."""
        return self.thinking and self.animations.idle

    def shown(self, area: list[pygame.Rect] | None) -> None:
        """Remember what the window now shows of the board (a part only partly shown: unknown)."""
        if area is None:
            self._failure_shown = self.failure
        elif self._board_area.collidelist(area) == -1:
            return  # none of the board was shown
        picture = self._board_picture()
        if area is None or picture is None or any(rect.contains(self._board_area) for rect in area):
            self._board_shown = picture
            return
        if self._board_shown is None:
            return  # unknown until it is shown whole
        for part, look in picture.items():
            if self._board_shown.get(part) == look:
                continue  # what is shown of it is the same either way
            rect = self.view.part_area(part)
            if any(shown.contains(rect) for shown in area):
                self._board_shown[part] = look
            elif rect.collidelist(area) != -1:
                self._board_shown.pop(part, None)

    # -- the turn loop -------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.time += dt
        moving = not self.animations.idle
        for disc in self.animations.update(dt):
            self.app.sounds.play("land", disc.row)
        if moving:  # a landing disc lets the disc in hand and the search's line show again
            self.app.invalidate(self._board_changes())
        self._poll_worker()
        if self.model.board.is_over:
            self._count_result()
            self._update_game_over()
        elif not self.failure and (not self.paused or self.steps) and not self.model.player_to_move.is_human:
            self._computer_turn()
            self._check_preparing()
        self._update_panels()

    def _update_panels(self) -> None:
        """Follow the position with the analysis, and the thinking computer's search with the thinking view."""
        if self.show_analysis and self.analysis.follow(self.model.board):
            self.app.invalidate([self.analysis.strip, self.analysis.label, self.analysis.key])
        thinker = self.agents.get(self.model.colour_to_move) if self.computer.kind == "move" else None
        if self.thinking_view.update(self.time, thinker):  # its line on the board, its shares, its summary
            self.app.invalidate([self._headline_area, self.analysis.strip, *self._board_changes()])

    def animating(self) -> bool:
        return bool(self.animated_area())

    def animated_area(self) -> list[pygame.Rect]:
        """The board while a disc falls or a mark breathes, the panel of a thinking computer (its clock),
        the headline while a message flashes."""
        area = []
        pulsing = (self.hint is not None or self._over_since is not None) and self._pulsing
        if pulsing:
            area.append(self._board_area)
        else:  # only the columns of the falling discs: showing a narrow strip costs a fraction of the board
            area += [self._column_area(disc.col) for disc in self.animations.falling]
        if self.thinking:
            area.append(self.panels[self.model.colour_to_move])
        if self.time < self._flash[1]:
            area.append(self._headline_area)
        return area

    def _column_area(self, col: int) -> pygame.Rect:
        """One column of the board's animated area: where a disc falling in it (and bouncing) is drawn."""
        x = round(self.view.cell_centre(col, 0)[0] - self.view.cell / 2)
        strip = pygame.Rect(x, self._board_area.y, self.view.cell, self._board_area.height)
        return strip.inflate(self.app.theme.px(4), 0)

    @property
    def _pulsing(self) -> bool:
        return self.time - self._pulse_since < PULSE_SECONDS

    def _count_result(self) -> None:
        """A game just ended: it goes into the tally (once)."""
        if not self._counted:
            self._counted, self._counted_winner = True, self.model.winner
            self.app.tally.record(self._counted_winner)
            self.app.invalidate()

    def _computer_turn(self) -> None:
        colour = self.model.colour_to_move
        if self.computer.current is None and self._ready is None and colour in self.agents:
            agent, board, catalog = self.agents[colour], self.model.board.copy(), self.app.catalog
            spec = self.model.player_to_move.spec or ""

            def move(job: Job[str]) -> SearchResult:
                assert job.stop is not None  # the worker gives every job its stop flag
                catalog.wait_until_prepared(spec, board, job.stop)  # a first start: compiled elsewhere, first
                job.report(SEARCHING)
                return agent.choose(board, job.stop)

            # A first start: the move says it waits for its player's kernels until the worker says it searches.
            self._submit(move, "move", (PREPARING,) if catalog.waits_for(spec, board) else ())
        pacing = self.speed.move_time if self.mode is Mode.SPECTATOR else MIN_MOVE_TIME[self.mode]
        if self._ready is not None and self.animations.idle and self.time - self._asked_at >= pacing:
            self._play(self._ready.column, self._ready)

    def _poll_worker(self) -> None:
        reply = self.computer.poll()  # only ever the newest job's answer
        if reply is None:
            return
        if reply.kind == "hint":
            self._take_hint(reply)
        else:
            self._take_move(reply)
        self._changed()

    def _take_hint(self, reply: Job[str]) -> None:
        if reply.error is not None:
            self.hint_text = ""
            self.flash(f"The hint failed: {reply.error}")
            return
        result: SearchResult = reply.value
        if self.model.board.legality(result.column) is None:
            self.hint, self._pulse_since = result.column, self.time
            self.hint_text = f"Hint: column {result.column + 1} (from {spec_label(self.app.catalog.hint_spec())})"
        else:
            self.hint_text = ""

    def _take_move(self, reply: Job[str]) -> None:
        player = self.model.player_to_move
        if reply.error is not None:
            self.error = f"{player.name} ({player.agent_label}) failed: {reply.error}"
            return
        result: SearchResult = reply.value
        reason = self.model.board.legality(result.column)
        if reason is not None:
            self.error = f"{player.name} ({player.agent_label}) chose column {result.column + 1}: {reason}"
        else:
            self._ready = result

    def _update_game_over(self) -> None:
        if not self.animations.idle:
            return
        if self._over_since is None:
            self._over_since = self._pulse_since = self.time
            self.start_review()  # in the background, ready when the player asks for it
            self.app.sounds.play("draw" if self.model.winner is None else "win")
            self.app.invalidate()
        waited = self.time - self._over_since
        if self.series is not None and not self.series.finished:
            if waited >= RESULT_DELAY * self.speed.pause_factor:
                self.series.game += 1
                self.restart(self.config.rematch())
            return
        if not self._result_shown and waited >= RESULT_DELAY:
            self.show_result()
        if self.app.options.exit_after_game and waited >= RESULT_DELAY + EXIT_DELAY:
            self.app.quit()

    # -- the buttons along the bottom --------------------------------------------------------------------
    def _arrange_buttons(self) -> None:
        """Choose the buttons that fit the state of the match, and lay them out in a row."""
        over = self.model.board.is_over
        buttons = []
        if self.error and not over:
            buttons.append(self.retry_button)
        if self.mode is Mode.SPECTATOR:
            if not over:
                self.pause_button.text = "Resume" if self.paused else "Pause"
                self.step_button.enabled = self.paused
                buttons += [self.pause_button, self.step_button]
            self.speed_button.text = self.speed.label
            running = self.series is not None and not self.series.finished
            self.series_button.text = "Stop series" if running else f"{SERIES_GAMES} games"
            buttons += [self.speed_button, self.players_button, self.series_button]
        else:
            self.undo_button.enabled = self.model.undo_count() > 0
            self.redo_button.enabled = self.model.redo_count() > 0
            buttons += [self.undo_button, self.redo_button]
            if not over:
                self.hint_button.enabled = self.model.human_to_move
                buttons.append(self.hint_button)
        buttons += [self.rematch_button, self.review_button, self.result_button] if over else [self.new_button]
        self.analysis_button.text = "Hide analysis" if self.show_analysis else "Analysis"
        buttons += [self.analysis_button, self.back_button]
        px, (width, height) = self.app.theme.px, self._size
        button_width, gap = min(px(170), (width - px(40)) // len(buttons) - px(10)), px(12)
        x = (width - len(buttons) * button_width - (len(buttons) - 1) * gap) // 2
        for button in buttons:
            button.rect = pygame.Rect(x, height - px(62), button_width, px(46))
            x += button_width + gap
        if buttons != self.form.widgets:
            self.form.set_widgets(buttons)
        self.form.focus = None  # the keyboard plays the board here; the buttons have their own keys

    def toast_floor(self, height: int) -> int:
        return height - self.app.theme.px(62)

    # -- layout and drawing --------------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        px = self.app.theme.px
        width, height = size
        panel_width = min(px(330), width * 32 // 100)
        self.panels = {
            Colour.RED: pygame.Rect(px(18), px(16), panel_width, px(96)),
            Colour.YELLOW: pygame.Rect(width - px(18) - panel_width, px(16), panel_width, px(96)),
        }
        top = px(16) + px(96) + px(6)
        # The move list takes a strip on the right; the board keeps the same margin on the left,
        # so it stays centred (that strip is free for other panels).
        side = min(px(170), width * 17 // 100)
        bottom = height - px(76)
        # With the analysis on, the key to its short forms goes under the move list, in the same column.
        key = AnalysisPanel.key_height(self.app.theme) if self.show_analysis else 0
        gap = px(10) if key else 0
        moves = pygame.Rect(width - px(18) - side, top + px(8), side, bottom - top - px(8) - key - gap)
        self.move_list.layout(moves)
        self.analysis.key = pygame.Rect(moves.x + px(4), moves.bottom + gap, side - px(4), key)
        if self.show_analysis or any(player.spec for player in (self.config.red, self.config.yellow)):
            # A strip above the board for the analysis values and the visit-share bars of the thinking view.
            strip = px(36)
            self.analysis.strip = pygame.Rect(px(20) + side, top, width - px(40) - 2 * side, strip)
            top += strip
        self.view.layout(pygame.Rect(px(20) + side, top, width - px(40) - 2 * side, bottom - top))
        values = self.analysis.strip  # their caption: from the window's margin to the board
        self.analysis.label = pygame.Rect(px(18), values.y, self.view.frame.x - px(30), values.height)
        # What animated frames redraw (see animated_area): the board with the space above it, the headline.
        frame, hand_y = self.view.frame, self.view.cell_centre(0, self.view.hand_row)[1]
        moving = pygame.Rect(frame.x, hand_y - self.view.cell, frame.width, frame.bottom - hand_y + self.view.cell)
        self._board_area = moving.inflate(px(12), px(12))
        if self.analysis.strip.height:
            self._board_area.union_ip(self.analysis.strip)
        left, right = self.panels[Colour.RED], self.panels[Colour.YELLOW]
        self._headline_area = pygame.Rect(left.right, 0, right.left - left.right, left.bottom + px(6))
        self._size = size
        self._arrange_buttons()

    def draw(self, surface: pygame.Surface) -> None:
        self.app.draw_background(surface)
        self.view.draw(surface, self.model.owner, self.animations, self.marks())
        self.move_list.draw(surface)
        if self._search_shown:
            theme, board = self.app.theme, self.model.board
            self.thinking_view.draw_line(surface, theme, self.view, board, self.model.colour_to_move)
            self.thinking_view.draw_shares(surface, theme, self.view, self.analysis.strip)
        if self.show_analysis:
            self.analysis.draw(surface, self.app.theme, self.view, self.model.board.ply)
        for colour in Colour:
            self._draw_player(surface, colour)
        self._draw_status(surface)
        if self.failure:
            self._draw_error(surface)
        self.form.draw(surface)
        self._draw_spec_tip(surface)

    # the pieces of the picture
    def marks(self) -> Marks:
        """What the board shows besides the discs: the disc in hand, a hint, the last move, the winning line."""
        over = self.model.board.is_over and self.animations.idle
        winning = self.model.winning_cells() if over else []
        return Marks(
            ghost=(self.cursor, self.model.colour_to_move) if self.model.human_to_move else None,
            hint=self.hint,
            last_move=self.model.last_move if not winning else None,
            winning=winning,
            pulse=self.animations.pulse() if self._pulsing else 1.0,
        )

    @property
    def failure(self) -> str | None:
        """What went wrong with a computer player, if anything."""
        return self.setup_error or self.error

    @property
    def preparing(self) -> bool:
        """The computer to move waits for its kernels to be compiled (the first start of a version)."""
        job = self.computer.current
        return self.thinking and job is not None and job.kind == "move" and job.latest == PREPARING

    def _check_preparing(self) -> None:
        """Redraw the thinking computer's panel and the headline when its move starts or stops waiting for
        its kernels (the move's job says so)."""
        if self.preparing != self._preparing_shown:
            self._preparing_shown = self.preparing
            self.app.invalidate([self.panels[self.model.colour_to_move], self._headline_area])

    @property
    def thinking(self) -> bool:
        """A computer is choosing a move (or its move waits to be shown); never while paused."""
        return (not self.paused or self.steps > 0) and (self.computer.kind == "move" or self._ready is not None)

    def _draw_player(self, surface: pygame.Surface, colour: Colour) -> None:
        theme, px = self.app.theme, self.app.theme.px
        rect, player = self.panels[colour], self.config.player(colour)
        active = not self.model.board.is_over and self.model.colour_to_move is colour
        winner = self.model.board.is_over and self.model.winner is colour and self.animations.idle
        border = SUCCESS if winner else ACCENT if active else None
        drawing.panel(surface, rect, px(14), PANEL_LIGHT if active or winner else PANEL, border, 3 if border else 1)
        radius = px(26)
        pictures.badge(surface, (rect.x + px(16) + radius, rect.centery), radius, colour, player.is_human)
        x = rect.x + px(28) + 2 * radius
        width = rect.right - px(12) - x
        tally = self.app.tally
        if tally.games:  # the score so far: this player's wins, at the right end of the panel
            centre = (rect.right - px(30), rect.y + px(38))
            theme.draw_text(surface, str(tally.wins(colour)), 28, centre, TEXT, bold=True, anchor="center")
            theme.draw_text(surface, "wins", 12, (centre[0], centre[1] + px(18)), MUTED, anchor="midtop")
            width -= px(52)
        theme.draw_text(
            surface, theme.fit_text(player.name, 18, width, bold=True), 18, (x, rect.y + px(12)), TEXT, bold=True
        )
        label = fit_agent(theme, player.spec, 14, width, "moves first" if colour is self.config.first else "")
        theme.draw_text(surface, label, 14, (x, rect.y + px(38)), MUTED)

        line_y = rect.y + px(62)
        if active and self.thinking:
            self._draw_thinking(surface, (x, line_y), x + width)
        elif active and self.paused:
            theme.draw_text(surface, "Paused", 14, (x, line_y), ACCENT, bold=True)
        elif active and player.is_human:
            theme.draw_text(
                surface, "Your move" if self.mode is Mode.HUMAN_VS_AI else "To move", 14, (x, line_y), ACCENT, bold=True
            )
        else:
            result = self.model.last_result(colour)
            if result is not None:
                theme.draw_text(surface, theme.fit_text(describe_result(result), 13, width), 13, (x, line_y), FAINT)

    def _draw_spec_tip(self, surface: pygame.Surface) -> None:
        """The whole spec of the computer whose panel the pointer is over, under that panel."""
        colour = next((colour for colour, rect in self.panels.items() if rect.collidepoint(self._pointer)), None)
        if colour is None or self.app.scene is not self:
            return
        spec = self.config.player(colour).spec
        if spec is None or not agent_words(spec)[1]:
            return  # a person, or an engine without settings: the panel shows all there is
        theme, px, panel = self.app.theme, self.app.theme.px, self.panels[colour]
        text = theme.text(spec.replace(",", ", "), 14, TEXT, wrap=max(panel.width, px(320)) - px(24))
        tip = text.get_rect().inflate(px(24), px(16))
        tip.topleft = (panel.x, panel.bottom + px(6))
        tip.right = min(tip.right, surface.get_width() - px(8))
        drawing.panel(surface, tip, px(8), PANEL_LIGHT, ACCENT, 1)
        surface.blit(text, text.get_rect(center=tip.center))

    def _draw_thinking(self, surface: pygame.Surface, pos: tuple[int, int], right: int) -> None:
        """The clock and the dots, within the panel (whose area is all an animated frame redraws)."""
        theme, px = self.app.theme, self.app.theme.px
        elapsed = self.time - self._asked_at
        snapshot = self.thinking_view.snapshot
        doing = "Preparing" if self.preparing else "Solving exactly" if snapshot and snapshot.exact else "Thinking"
        text = theme.fit_text(f"{doing}  {elapsed:4.1f} s", 14, right - pos[0], bold=True)
        label = theme.draw_text(surface, text, 14, pos, ACCENT, bold=True)
        for index in range(3):  # three dots taking turns to swell, like a chat "typing" sign
            phase = 0.5 + 0.5 * math.sin(self.time * 6.0 - index * 0.9)
            centre = (label.right + px(12) + index * px(13), label.centery)
            if centre[0] + px(5) > right:
                break  # a narrow panel: the clock alone
            colour = tuple(round(f + (a - f) * phase) for f, a in zip(FAINT, ACCENT, strict=True))
            pygame.draw.circle(surface, colour, centre, px(2.5) + phase * px(2))

    def _draw_status(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        centre_x = surface.get_width() / 2
        title, colour = self.status()
        left, right = self.panels[Colour.RED].right + px(12), self.panels[Colour.YELLOW].left - px(12)
        size = next((size for size in (24, 21, 18) if theme.font(size, True).size(title)[0] <= right - left), 16)
        theme.draw_text(
            surface,
            fit_headline(theme, title, size, right - left),
            size,
            (centre_x, px(28) + (px(24) - theme.px(size)) // 2),
            colour,
            bold=True,
            anchor="midtop",
        )
        flash, until = self._flash
        if flash and self.time < until:
            detail, detail_colour = flash, DANGER
        elif self.hint_text:
            detail, detail_colour = self.hint_text, ACCENT
        elif self.preparing:
            detail = f"First start: preparing {self.model.player_to_move.agent_label}, once only"
            detail_colour = ACCENT
        elif self.thinking and self.thinking_view.summary():
            detail = f"{self.model.colour_to_move.title}: {self.thinking_view.summary()}"
            detail_colour = ACCENT
        else:
            geometry, ply = self.config.geometry, self.model.board.ply
            if self.model.board.is_over:
                detail = f"Game over after {plural(ply, 'move')}"
            else:
                detail = f"Move {ply + 1} · {geometry.cols}×{geometry.rows}, {geometry.connect} in a row"
            if self.series is not None:
                detail = f"{self.series.describe()} · {detail}"
            detail_colour = MUTED

        theme.draw_text(
            surface, theme.fit_text(detail, 15, right - left), 15, (centre_x, px(68)), detail_colour, anchor="midtop"
        )

    def status(self) -> tuple[str, Paint]:
        """The headline: whose turn, who won, or what went wrong."""
        board = self.model.board
        if board.is_over and self.animations.idle:
            winner = self.model.winner
            if winner is None:
                return "Draw: the board is full", TEXT
            if self.mode is Mode.HUMAN_VS_AI:
                you = self.config.player(winner).is_human
                return ("You win!", SUCCESS) if you else ("The computer wins", DANGER)
            return f"{self.config.player(winner).title} wins!", SUCCESS
        if board.is_over:
            return "…", TEXT
        if self.failure:
            return "The computer failed", DANGER
        player = self.model.player_to_move
        if self.paused:
            return "Paused", TEXT
        if player.is_human:
            return ("Your turn", TEXT) if self.mode is Mode.HUMAN_VS_AI else (f"{player.colour.title} to play", TEXT)
        thinker = "The computer" if self.mode is Mode.HUMAN_VS_AI else player.colour.title
        return f"{thinker} is {'getting ready' if self.preparing else 'thinking'}…", TEXT

    def _draw_error(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        width = min(px(760), surface.get_width() - px(40))
        text = theme.text(self.failure or "", 15, TEXT, wrap=width - px(40))
        rect = pygame.Rect(0, 0, width, text.get_height() + px(24))
        rect.midtop = (surface.get_width() // 2, px(122))  # over the space above the board, free meanwhile
        drawing.panel(surface, rect, px(10), (90, 30, 40), DANGER, 2)
        surface.blit(text, text.get_rect(center=rect.center))


def describe_result(result: SearchResult) -> str:
    """A computer move's statistics in a few words: column, exact or estimate, depth, positions searched, time."""
    parts = [f"col {result.column + 1}"]
    if result.exact is not None:
        parts.append("exact" if result.exact else "estimate")
    if result.depth is not None:
        parts.append(f"depth {result.depth}")
    if result.nodes > 1:
        parts.append(f"{compact(result.nodes)} nodes")
    parts.append(f"{result.seconds:.1f} s")

    return " · ".join(parts)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
