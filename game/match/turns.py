"""The turn controller: who moves, when the computer is asked and what its answer means, the game's end.

A :class:`TurnController` runs one match without drawing anything (it
imports no pygame): it holds the :class:`~game.match_model.MatchModel`, the
falling discs (:class:`~game.animation.Animations`, in rows), the computer's
side (:class:`~game.match.computer.ComputerTurn`: its players and the one lane
of their moves and hints) and, for two computers, the
:class:`~game.match.spectating.Spectator`'s say; it advances in
:meth:`TurnController.update` with the screen's fixed time step. People move
with :meth:`drop`, and only when it is their turn: input during the
computer's turn is ignored, not queued. A move made while a disc is still
falling first lands that disc, so two discs never fall at once.

The screen that shows it hears of every :class:`Change` through
``on_change(change)``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any

from engine.match import one_based
from game.animation import HAND_ROW, Animations
from game.jobs import Job, Kind
from game.match.computer import ComputerTurn
from game.match.keeping import KeptGame
from game.match.spectating import Spectator
from game.match_model import MatchModel
from game.model import Mode
from game.players import MatchConfig, spec_label
from game.records import Counted

if TYPE_CHECKING:
    from engine.agents.base import Agent, SearchResult
    from game.match.services import Services

#: Shortest time a computer move takes on screen, so fast agents stay watchable (seconds).
MIN_MOVE_TIME = {Mode.SPECTATOR: 0.7, Mode.HUMAN_VS_AI: 0.35, Mode.HOTSEAT: 0.0}
RESULT_DELAY = 0.8  # seconds between the last disc landing and the result panel
EXIT_DELAY = 1.5  # with --exit-after-game: how long the result stays up
FLASH_SECONDS = 2.0
PULSE_SECONDS = 4.0  # a hint arrow or a winning line breathes this long, then rests (a still screen idles)


class Change(Enum):
    """What the turn controller tells its screen changed."""

    STATE = "state"  # redraw what depends on the match's state (buttons, panels, the move list)
    FLASH = "flash"  # a short message in the headline
    PREPARING = "preparing"  # the computer to move starts or stops waiting for its kernels
    BOARD = "board"  # a disc moved
    WHOLE = "whole"  # redraw everything
    PLAYED = "played"  # a move was played
    RESET = "reset"  # what was asked of the computer is forgotten
    NEW_GAME = "new game"
    OVER = "over"  # the last disc of a finished game landed
    RESULT = "result"  # time to show the result


class TurnController:
    """One match in progress: whose turn it is, what the computer was asked, and what the screen should say."""

    def __init__(
        self, config: MatchConfig, services: Services, on_change: Callable[[Change], Any] | None = None
    ) -> None:
        self.services = services
        self.on_change: Callable[[Change], Any] = lambda change: None  # told from the end of the set-up on
        self.config = config
        self.mode = config.mode
        self.model = MatchModel(config)
        self.animations = Animations(services.settings.animation.factor)
        self.computer = ComputerTurn(services)
        self.spectator = Spectator(services, self, self.computer)
        self.time = 0.0
        self.result = Counted(services.tally, services.settings_path, services.notify, self.model.board.is_over)
        self._preparing_said = False  # the screen was told the computer to move is being prepared
        self.keeping = KeptGame(services, config)  # the unfinished game, kept after every change
        self._reset_turn_state()
        self.on_change = on_change or self.on_change

    def _reset_turn_state(self) -> None:
        self.computer.forget()  # a move or hint asked for: no longer wanted
        self.error: str | None = None
        self.hint: int | None = None
        self.hint_text = ""
        self.flashing = ("", 0.0)  # a short message in the headline, and until when
        self.pulse_since = 0.0  # when the latest breathing mark (hint, winning line) appeared
        self.over_since: float | None = None
        self.result_shown = False
        self.on_change(Change.RESET)  # a search that was stopped is no longer shown

    # -- life cycle ----------------------------------------------------------------------------
    def enter(self) -> None:
        """The match opens: its computer players are made (a failure is shown; the screen stays usable)."""
        self.services.tally.follow(self.config)
        self.services.catalog.hold_loading(True)  # other levels load after the match: it makes frames late
        self.computer.make(self.config)
        self.on_change(Change.STATE)

    def exit(self) -> None:
        """The match closes: the search stops, and the agents are closed on the worker thread. An
        unfinished game is kept: the menu offers to resume it."""
        self.keeping.close()
        self.services.catalog.hold_loading(False)
        self.computer.close()

    def restart(self, config: MatchConfig | None = None) -> None:
        """A new game (``config``: a rematch); any search still running is stopped and forgotten."""
        self.computer.forget()
        self.config = config or self.config
        self.services.tally.follow(self.config)
        self.model = MatchModel(self.config)
        self.animations.clear()
        self.spectator.resume()
        self.result = Counted(self.services.tally, self.services.settings_path, self.services.notify)
        self._reset_turn_state()
        self.on_change(Change.NEW_GAME)
        self._keep()
        self.computer.new_game()
        self.on_change(Change.STATE)

    def rematch(self) -> None:
        """The same players, the other colour first (a finished series ends here)."""
        if self.spectator.series is not None and self.spectator.series.finished:
            self.spectator.series = None
        self.restart(self.config.rematch())

    # -- what the screen shows -----------------------------------------------------------------
    @property
    def failure(self) -> str | None:
        """What went wrong with a computer player, if anything."""
        return self.computer.setup_error or self.error

    @property
    def thinking(self) -> bool:
        """A computer is choosing a move (or its move waits to be shown); never while paused."""
        return self.spectator.lets_move and (self.computer.moving or self.computer.ready is not None)

    @property
    def preparing(self) -> bool:
        """The computer to move waits for its kernels to be compiled (the first start of a version)."""
        return self.thinking and self.computer.preparing

    @property
    def thinker(self) -> Agent | None:
        """The agent searching for the move right now, if any (the thinking view follows its search)."""
        return self.computer.agents.get(self.model.colour_to_move) if self.computer.moving else None

    @property
    def flash(self) -> str:
        """The message the headline shows now ("" for none)."""
        text, until = self.flashing
        return text if self.time < until else ""

    @property
    def pulsing(self) -> bool:
        """A hint arrow or a winning line still breathes."""
        return self.time - self.pulse_since < PULSE_SECONDS

    # -- a person's actions -----------------------------------------------------------------------
    def drop(self, col: int) -> None:
        """A person's move; ignored unless a person is to move."""
        if not self.model.human_to_move:
            return
        reason = self.model.board.legality(col)
        if reason is not None:
            self.say(reason[0].upper() + reason[1:])
            self.services.sounds.play("illegal")
            return
        if self.computer.hinting:  # the hint is no longer wanted
            self.computer.forget()
        self._play(col)

    def undo(self) -> None:
        if self.mode is Mode.SPECTATOR:
            return
        if self.model.undo_count() == 0:
            self.say("Nothing to undo")
            return
        self.computer.forget()
        self.animations.cancel(self.model.undo())
        self._position_changed()

    def redo(self) -> None:
        """Replay the moves last taken back (as many as an undo took)."""
        if self.mode is Mode.SPECTATOR:
            return
        if self.model.redo_count() == 0:
            self.say("Nothing to redo")
            return
        self.computer.forget()
        for col, row, colour in self.model.redo():
            self.animations.drop(col, row, colour, self.config.geometry.rows + HAND_ROW)
        self._position_changed()

    def go_to(self, moves: int) -> None:
        """Show the game as it was after ``moves`` moves (a click in the move list); not for spectators."""
        if self.mode is Mode.SPECTATOR or moves == self.model.moves_played:
            return
        self.computer.forget()
        emptied, _ = self.model.go_to(moves)
        self.animations.cancel(emptied)
        self.animations.clear()  # a jump shows the position at once
        self._position_changed()

    def _position_changed(self) -> None:
        """After moves were taken back or replayed: a game no longer over leaves the tally again."""
        if not self.model.board.is_over:
            self.result.take_back(self.config)
        self._reset_turn_state()
        self._keep()
        self.on_change(Change.STATE)

    def _keep(self) -> None:
        """The game as it is now, kept for resuming (or no longer, once over); a failure is said."""
        problem = self.keeping.keep(self.config, self.model)
        if problem is not None:
            self.say(problem)

    def ask_hint(self) -> None:
        """Ask the strongest preset for the move it would play here (shown as an arrow)."""
        if not self.model.human_to_move or self.computer.lane.current is not None:
            return
        problem = self.computer.ask_hint(self.model.board, self.time)
        if problem is not None:
            self.say(problem)
            return
        self.hint, self.hint_text = None, "Looking for a good move…"
        self.on_change(Change.STATE)

    def retry(self) -> None:
        """After an agent failed: ask it again."""
        self.error = None
        self.on_change(Change.STATE)

    def say(self, text: str) -> None:
        """A short message in the headline (a move that is not allowed, a failed save)."""
        self.flashing = (text, self.time + FLASH_SECONDS)
        self.on_change(Change.FLASH)

    # -- what the spectator's actions need (game.match.spectating.Match) -------------------------------
    @property
    def over(self) -> bool:
        return self.model.board.is_over

    def change_players(self, config: MatchConfig) -> None:
        """New players (or sides) from this position on: the game goes on, nothing asked of the computer."""
        self.config = self.model.config = config
        self.services.tally.follow(self.config)
        self._reset_turn_state()

    def tell(self, text: str | None = None) -> None:
        """Redraw what depends on the match's state, with ``text`` under the board (None: the line stays)."""
        if text is not None:
            self.hint_text = text
        self.on_change(Change.STATE)

    # -- the turn loop ---------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds: discs fall, answers are taken, the computer to move is asked."""
        self.time += dt
        moving = not self.animations.idle
        for disc in self.animations.update(dt):
            self.services.sounds.play("land", disc.row)
        if moving:  # a landing disc lets the disc in hand and the search's line show again
            self.on_change(Change.BOARD)
        self._take_answer()
        if self.model.board.is_over:
            self._count_result()
            self._game_over()
        elif not self.failure and self.spectator.lets_move and not self.model.player_to_move.is_human:
            self._computer_turn()
            if self.preparing != self._preparing_said:
                self._preparing_said = self.preparing
                self.on_change(Change.PREPARING)

    def _computer_turn(self) -> None:
        colour, computer = self.model.colour_to_move, self.computer
        if computer.lane.current is None and computer.ready is None and colour in computer.agents:
            computer.ask_move(colour, self.model.board, self.model.player_to_move.spec or "", self.time)
        pacing = self.spectator.speed.move_time if self.mode is Mode.SPECTATOR else MIN_MOVE_TIME[self.mode]
        ready = computer.ready
        if ready is not None and self.animations.idle and self.time - computer.asked_at >= pacing:
            self._play(ready.column, ready)

    def _take_answer(self) -> None:
        job = self.computer.answer()  # only ever the newest job's answer
        if job is None:
            return
        if job.kind == Kind.HINT:
            self._take_hint(job)
        else:
            self._take_move(job)
        self.on_change(Change.STATE)

    def _take_hint(self, job: Job[str]) -> None:
        if job.error is not None:
            self.hint_text = ""
            self.say(f"The hint failed: {job.error}")
            return
        result: SearchResult = job.value
        if self.model.board.legality(result.column) is None:
            self.hint, self.pulse_since = result.column, self.time
            catalog = self.services.catalog
            hinter = spec_label(catalog.hint_spec())
            if catalog.guesses(catalog.hint_spec(), self.model.board.geometry):  # not proven on this board
                hinter = f"{hinter}'s best guess"
            self.hint_text = f"Hint: column {result.column + 1} (from {hinter})"
        else:
            self.hint_text = ""

    def _take_move(self, job: Job[str]) -> None:
        player = self.model.player_to_move
        if job.error is not None:
            agent = self.computer.agents.get(self.model.colour_to_move)
            said, spec = job.error, agent.spec if agent is not None else ""
            if spec and said.startswith(spec + " "):  # a student's forfeit names its agent: the panel does that
                self.error = f"{player.name} ({player.agent_label}) {said.removeprefix(spec + ' ')}"
            else:
                self.error = f"{player.name} ({player.agent_label}) failed: {said}"
            return
        result: SearchResult = job.value
        reason = self.model.board.legality(result.column)
        if reason is not None:
            self.error = f"{player.name} ({player.agent_label}) chose {one_based(result.column)}: {reason}"
        else:
            self.computer.ready = result

    def _play(self, col: int, result: SearchResult | None = None) -> None:
        colour, row = self.model.colour_to_move, self.model.board.height(col)
        self.animations.finish()  # the disc still falling lands first: never two in the air
        self.model.play(col, result)
        if not (self.mode is Mode.SPECTATOR and self.spectator.speed.instant):
            self.animations.drop(col, row, colour, self.config.geometry.rows + HAND_ROW)
        self.services.sounds.play("drop")
        self.hint, self.hint_text, self.computer.ready = None, "", None
        self.spectator.moved()
        self._keep()
        self.on_change(Change.PLAYED)
        self.on_change(Change.STATE)

    def _count_result(self) -> None:
        """A game just ended: it goes into the score and the records (once)."""
        if self.result.count(self.config, self.model.winner):
            self.on_change(Change.WHOLE)

    def _game_over(self) -> None:
        if not self.animations.idle:
            return
        if self.over_since is None:
            self.over_since = self.pulse_since = self.time
            self.on_change(Change.OVER)  # the review starts, in the background, ready when the player asks for it
            self.services.sounds.play("draw" if self.model.winner is None else "win")
            self.on_change(Change.WHOLE)
        waited = self.time - self.over_since
        series = self.spectator.series
        if series is not None and not series.finished:
            if waited >= RESULT_DELAY * self.spectator.speed.pause_factor:
                series.game += 1
                self.restart(self.config.rematch())
            return
        if not self.result_shown and waited >= RESULT_DELAY:
            self.result_shown = True
            self.on_change(Change.RESULT)
        if self.services.options.exit_after_game and waited >= RESULT_DELAY + EXIT_DELAY:
            self.services.quit()
