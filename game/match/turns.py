"""The turn controller: who moves, the computer's requests, the preparing wait, the spectator's pace.

A :class:`TurnController` runs one match without drawing anything (it
imports no pygame): it holds the :class:`~game.match_model.MatchModel`, the
falling discs (:class:`~game.animation.Animations`, in rows), the computer
players and the lane of their jobs (:mod:`game.jobs`), and advances in
:meth:`TurnController.update` with the screen's fixed time step. When a
computer is to move it asks the lane for a move on a copy of the board and
polls the lane every step; only the lane's newest job is ever answered, so
after a new game, an undo or leaving the screen (all of which cancel the
search) a late answer is simply dropped. People move with :meth:`drop`, and
only when it is their turn: input during the computer's turn is ignored, not
queued. A move made while a disc is still falling first lands that disc, so
two discs never fall at once.

The screen that shows it hears of every change through ``on_change(what)``: ``"state"`` (redraw
what depends on it), ``"flash"`` (a message in the headline), ``"preparing"`` (the computer to move
starts or stops waiting for its kernels), ``"board"`` (a disc moved), ``"whole"`` (redraw everything),
``"played"`` (a move), ``"reset"`` (what was asked of the computer is forgotten), ``"new game"``,
``"over"`` (the last disc of a finished game landed) and ``"result"`` (time to show the result).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from typing import TYPE_CHECKING, Any

from engine.match import one_based
from game import autosave
from game.animation import HAND_ROW, Animations
from game.jobs import PREPARING, SEARCHING, Job, Kind, Lane
from game.match.spectating import Spectating
from game.match_model import MatchModel
from game.model import Colour, Mode
from game.players import MatchConfig, spec_label
from game.records import Counted
from game.spectator import SPEEDS, Series, Speed

if TYPE_CHECKING:
    from engine.agents.base import Agent, SearchResult
    from game.match.services import Services

#: Shortest time a computer move takes on screen, so fast agents stay watchable (seconds).
MIN_MOVE_TIME = {Mode.SPECTATOR: 0.7, Mode.HUMAN_VS_AI: 0.35, Mode.HOTSEAT: 0.0}
RESULT_DELAY = 0.8  # seconds between the last disc landing and the result panel
EXIT_DELAY = 1.5  # with --exit-after-game: how long the result stays up
HINT_SECONDS = 2.0  # time limit of a hint search
FLASH_SECONDS = 2.0
PULSE_SECONDS = 4.0  # a hint arrow or a winning line breathes this long, then rests (a still screen idles)


class TurnController(Spectating):
    """One match in progress: whose turn it is, what the computer was asked, and what the screen should say."""

    def __init__(self, config: MatchConfig, services: Services, on_change: Callable[[str], Any] | None = None) -> None:
        self.services = services
        self.on_change: Callable[[str], Any] = lambda what: None  # told from the end of the set-up on
        self.config = config
        self.mode = config.mode
        self.model = MatchModel(config)
        self.animations = Animations(services.settings.animation.factor)
        self.agents: dict[Colour, Agent] = {}
        self.setup_error: str | None = None  # an agent that could not be built: the match cannot go on
        self.time = 0.0
        self.paused = False
        self.steps = 0  # moves still to play while paused (the spectator's "step")
        self.series: Series | None = None  # a run of games between two computers
        self.computer: Lane[str] = Lane(services.worker)  # the computer's moves and the hints
        self.result = Counted(services.tally, services.settings_path, services.notify, self.model.board.is_over)
        self._hint_agent: Agent | None = None
        self._preparing_said = False  # the screen was told the computer to move is being prepared
        # the unfinished game is kept after every change (game.autosave); two computers' games are not
        self._keeping = autosave.path_for(services.settings_path) if self.mode is not Mode.SPECTATOR else None
        self._kept = autosave.holds(self._keeping, config)  # the file holds this match's game (resumed)
        self._reset_turn_state()
        self.on_change = on_change or self.on_change

    def _reset_turn_state(self) -> None:
        self.computer.cancel()  # a move or hint asked for: no longer wanted
        self.asked_at = 0.0
        self._ready: SearchResult | None = None  # a computer move waiting for the previous disc to land
        self.error: str | None = None
        self.hint: int | None = None
        self.hint_text = ""
        self.flashing = ("", 0.0)  # a short message in the headline, and until when
        self.pulse_since = 0.0  # when the latest breathing mark (hint, winning line) appeared
        self.over_since: float | None = None
        self.result_shown = False
        self.on_change("reset")  # a search that was stopped is no longer shown

    # -- life cycle ----------------------------------------------------------------------------
    def enter(self) -> None:
        """The match opens: its computer players are made (a failure is shown; the screen stays usable)."""
        self.services.tally.follow(self.config)
        self.services.catalog.hold_loading(True)  # other levels load after the match: it makes frames late
        for colour in Colour:
            spec = self.config.player(colour).spec
            if spec is None:
                continue
            try:
                self.agents[colour] = self.services.make_agent(spec)
            except Exception as exc:
                self.setup_error = f"Cannot create the {colour.value} player ({spec}): {exc}"
        self.on_change("state")

    def exit(self) -> None:
        """The match closes: the search stops, and the agents are closed on the worker thread. An
        unfinished game is kept: the menu offers to resume it."""
        autosave.say_kept(self._kept, self.services.notify)  # (after the kept game and the records reach the disk)
        self.services.catalog.hold_loading(False)
        self.computer.cancel()
        for agent in [*self.agents.values(), self._hint_agent]:
            if agent is not None:
                self.services.worker.run_later(agent.close)
        self.agents.clear()

    def restart(self, config: MatchConfig | None = None) -> None:
        """A new game (``config``: a rematch); any search still running is stopped and forgotten."""
        self.computer.cancel()
        self.config = config or self.config
        self.services.tally.follow(self.config)
        self.model = MatchModel(self.config)
        self.animations.clear()
        self.paused, self.steps = False, 0
        self.result = Counted(self.services.tally, self.services.settings_path, self.services.notify)
        self._reset_turn_state()
        self.on_change("new game")
        self._keep()
        for agent in self.agents.values():
            self.services.worker.run_later(agent.new_game)
        self.on_change("state")

    def rematch(self) -> None:
        """The same players, the other colour first (a finished series ends here)."""
        if self.series is not None and self.series.finished:
            self.series = None
        self.restart(self.config.rematch())

    # -- what the screen shows -----------------------------------------------------------------
    @property
    def failure(self) -> str | None:
        """What went wrong with a computer player, if anything."""
        return self.setup_error or self.error

    @property
    def thinking(self) -> bool:
        """A computer is choosing a move (or its move waits to be shown); never while paused."""
        return (not self.paused or self.steps > 0) and (self.computer.kind == Kind.MOVE or self._ready is not None)

    @property
    def preparing(self) -> bool:
        """The computer to move waits for its kernels to be compiled (the first start of a version)."""
        job = self.computer.current
        return self.thinking and job is not None and job.kind == Kind.MOVE and job.latest == PREPARING

    @property
    def thinker(self) -> Agent | None:
        """The agent searching for the move right now, if any (the thinking view follows its search)."""
        return self.agents.get(self.model.colour_to_move) if self.computer.kind == Kind.MOVE else None

    @property
    def flash(self) -> str:
        """The message the headline shows now ("" for none)."""
        text, until = self.flashing
        return text if self.time < until else ""

    @property
    def pulsing(self) -> bool:
        """A hint arrow or a winning line still breathes."""
        return self.time - self.pulse_since < PULSE_SECONDS

    @property
    def speed(self) -> Speed:
        """The spectator's pace (slow, normal, fast, instant), a remembered setting."""
        return SPEEDS.get(self.services.settings.spectator_speed, SPEEDS["normal"])

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
        if self.computer.kind == Kind.HINT:  # the hint is no longer wanted
            self.computer.cancel()
        self._play(col)

    def undo(self) -> None:
        if self.mode is Mode.SPECTATOR:
            return
        if self.model.undo_count() == 0:
            self.say("Nothing to undo")
            return
        self.computer.cancel()
        self.animations.cancel(self.model.undo())
        self._position_changed()

    def redo(self) -> None:
        """Replay the moves last taken back (as many as an undo took)."""
        if self.mode is Mode.SPECTATOR:
            return
        if self.model.redo_count() == 0:
            self.say("Nothing to redo")
            return
        self.computer.cancel()
        for col, row, colour in self.model.redo():
            self.animations.drop(col, row, colour, self.config.geometry.rows + HAND_ROW)
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
        if not self.model.board.is_over:
            self.result.take_back(self.config)
        self._reset_turn_state()
        self._keep()
        self.on_change("state")

    def _keep(self) -> None:
        """The game as it is now, kept for resuming (or no longer, once over); a failure is said once."""
        model = self.model
        path, new = self._keeping, not self._kept and model.played_moves and not model.board.is_over
        if path is not None and new and not autosave.set_aside(path, self.services.notify):  # (once a game)
            self._keeping = None
        self._kept = autosave.keep(self._keeping, self.config, model.played_moves, model.board.is_over, self._kept)
        if autosave.KEEPER.problem and self._kept:
            self.say(autosave.KEEPER.problem)

    @property
    def kept(self) -> bool:
        return self._kept  # this match's unfinished game should be on disk for resuming

    def ask_hint(self) -> None:
        """Ask the strongest preset for the move it would play here (shown as an arrow)."""
        if not self.model.human_to_move or self.computer.current is not None:
            return
        catalog = self.services.catalog
        if self._hint_agent is None:
            try:
                self._hint_agent = self.services.make_agent(catalog.hint_spec())
            except Exception as exc:
                self.say(f"No hint: {exc}")
                return
        agent, board, spec = self._hint_agent, self.model.board.copy(), catalog.hint_spec()

        def hint(job: Job[str]) -> SearchResult:
            assert job.stop is not None  # the worker gives every job its stop flag
            catalog.wait_until_prepared(spec, board, job.stop)
            with job.stop.deadline(HINT_SECONDS) as limit, closing(agent):  # (its tables go until the next hint)
                return agent.choose(board, limit)

        self._ask(hint, Kind.HINT)
        self.hint, self.hint_text = None, "Looking for a good move…"
        self.on_change("state")

    def retry(self) -> None:
        """After an agent failed: ask it again."""
        self.error = None
        self.on_change("state")

    def say(self, text: str) -> None:
        """A short message in the headline (a move that is not allowed, a failed save)."""
        self.flashing = (text, self.time + FLASH_SECONDS)
        self.on_change("flash")

    # -- the turn loop ---------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds: discs fall, answers are taken, the computer to move is asked."""
        self.time += dt
        moving = not self.animations.idle
        for disc in self.animations.update(dt):
            self.services.sounds.play("land", disc.row)
        if moving:  # a landing disc lets the disc in hand and the search's line show again
            self.on_change("board")
        self._take_answer()
        if self.model.board.is_over:
            self._count_result()
            self._game_over()
        elif not self.failure and (not self.paused or self.steps) and not self.model.player_to_move.is_human:
            self._computer_turn()
            if self.preparing != self._preparing_said:
                self._preparing_said = self.preparing
                self.on_change("preparing")

    def _ask(self, work: Callable[[Job[str]], SearchResult], kind: Kind, items: tuple[str, ...] = ()) -> None:
        self.computer.submit(work, kind=kind, items=items)
        self.asked_at = self.time

    def _computer_turn(self) -> None:
        colour = self.model.colour_to_move
        if self.computer.current is None and self._ready is None and colour in self.agents:
            agent, board, catalog = self.agents[colour], self.model.board.copy(), self.services.catalog
            spec = self.model.player_to_move.spec or ""

            def move(job: Job[str]) -> SearchResult:
                assert job.stop is not None  # the worker gives every job its stop flag
                catalog.wait_until_prepared(spec, board, job.stop)  # a first start: compiled elsewhere, first
                job.report(SEARCHING)
                return agent.choose(board, job.stop)

            # A first start: the move says it waits for its player's kernels until the worker says it searches.
            self._ask(move, Kind.MOVE, (PREPARING,) if catalog.waits_for(spec, board) else ())
        pacing = self.speed.move_time if self.mode is Mode.SPECTATOR else MIN_MOVE_TIME[self.mode]
        if self._ready is not None and self.animations.idle and self.time - self.asked_at >= pacing:
            self._play(self._ready.column, self._ready)

    def _take_answer(self) -> None:
        job = self.computer.poll()  # only ever the newest job's answer
        if job is None:
            return
        if job.kind == Kind.HINT:
            self._take_hint(job)
        else:
            self._take_move(job)
        self.on_change("state")

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
            agent = self.agents.get(self.model.colour_to_move)
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
            self._ready = result

    def _play(self, col: int, result: SearchResult | None = None) -> None:
        colour, row = self.model.colour_to_move, self.model.board.height(col)
        self.animations.finish()  # the disc still falling lands first: never two in the air
        self.model.play(col, result)
        if not (self.mode is Mode.SPECTATOR and self.speed.instant):
            self.animations.drop(col, row, colour, self.config.geometry.rows + HAND_ROW)
        self.services.sounds.play("drop")
        self.hint, self.hint_text, self._ready = None, "", None
        self.steps = max(0, self.steps - 1)
        self._keep()
        self.on_change("played")
        self.on_change("state")

    def _count_result(self) -> None:
        """A game just ended: it goes into the score and the records (once)."""
        if self.result.count(self.config, self.model.winner):
            self.on_change("whole")

    def _game_over(self) -> None:
        if not self.animations.idle:
            return
        if self.over_since is None:
            self.over_since = self.pulse_since = self.time
            self.on_change("over")  # the review starts, in the background, ready when the player asks for it
            self.services.sounds.play("draw" if self.model.winner is None else "win")
            self.on_change("whole")
        waited = self.time - self.over_since
        if self.series is not None and not self.series.finished:
            if waited >= RESULT_DELAY * self.speed.pause_factor:
                self.series.game += 1
                self.restart(self.config.rematch())
            return
        if not self.result_shown and waited >= RESULT_DELAY:
            self.result_shown = True
            self.on_change("result")
        if self.services.options.exit_after_game and waited >= RESULT_DELAY + EXIT_DELAY:
            self.services.quit()
