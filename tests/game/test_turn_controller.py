"""The match's turn controller on its own, without a window: who moves, the computer's requests (stale answers
dropped), the preparing wait and the spectator's pace, driven by hand with the screen's fixed step."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import pytest

from engine.agents.base import Agent, SearchResult
from engine.board import Board
from engine.geometry import DEFAULT, Geometry
from engine.stop import StopFlag
from game.match.turns import MIN_MOVE_TIME, RESULT_DELAY, Change, TurnController
from game.model import Colour, Mode
from game.options import Options
from game.players import MatchConfig, player_for
from game.settings import Settings
from game.tally import Tally
from game.worker import Worker
from tests.game.conftest import FailingAgent, SlowAgent, WrongColumnAgent
from tests.waiting import wait_until

STEP = 1 / 120  # the app's fixed step


@dataclass
class ColumnAgent(Agent):
    """Plays the first of its columns that is legal, at once."""

    columns: tuple[int, ...] = (3,)

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        column = next((col for col in self.columns if board.legality(col) is None), board.legal_columns()[0])
        return SearchResult(column=column, nodes=1)


@dataclass
class Catalog:
    """The catalog's part a match uses; ``ready`` is set when the player's kernels are compiled."""

    ready: threading.Event = field(default_factory=threading.Event)
    held: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ready.set()

    def hold_loading(self, hold: bool) -> None:
        self.held.append(hold)

    def waits_for(self, spec: str, board: Board) -> bool:
        return not self.ready.is_set()

    def wait_until_prepared(self, spec: str, board: Board, stop: StopFlag) -> None:
        while not self.ready.is_set() and not stop.is_set():
            time.sleep(0.002)

    def hint_spec(self) -> str:
        return "hinter"

    def guesses(self, spec: str, geometry: Geometry) -> bool:
        return False


class Sounds:
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str, row: int = 0) -> None:
        self.played.append(name)


class Services:
    """What the match needs of the app: a real worker thread, the rest small and watched."""

    def __init__(self, agents: dict[str, Agent], tmp_path) -> None:
        self.settings = Settings()
        self.settings_path = tmp_path / "settings.json"
        self.options = Options()
        self.worker = Worker()
        self.catalog = Catalog()
        self.tally = Tally()
        self.sounds = Sounds()
        self.agents = agents
        self.messages: list[str] = []
        self.quitting = False

    def make_agent(self, spec: str) -> Agent:
        return self.agents[spec]

    def notify(self, text: str, *, error: bool = False, seconds: float = 5.0) -> None:
        self.messages.append(text)

    def quit(self) -> None:
        self.quitting = True


@pytest.fixture
def services(tmp_path):
    made: list[Services] = []

    def make(**agents: Agent) -> Services:
        made.append(Services({"hinter": ColumnAgent(columns=(2,)), **agents}, tmp_path))
        return made[-1]

    yield make
    for each in made:
        each.worker.close()


def controller(services: Services, red: str | None, yellow: str | None, moves: str = "") -> TurnController:
    mode = MatchConfig.mode_of(red is None, yellow is None)
    config = MatchConfig(player_for(Colour.RED, red, mode), player_for(Colour.YELLOW, yellow, mode), DEFAULT)
    turns = TurnController(MatchConfig(config.red, config.yellow, DEFAULT, start_moves=moves), services)
    turns.said = []  # type: ignore[attr-defined]  # what the controller told its screen, in order
    turns.on_change = turns.said.append  # type: ignore[attr-defined]
    turns.enter()
    return turns


def run(turns: TurnController, seconds: float) -> None:
    """Game time passes, in the app's steps (the worker thread gets the processor between them)."""
    for _ in range(round(seconds / STEP)):
        turns.update(STEP)
        time.sleep(0.0005)


def run_until(turns: TurnController, condition, timeout: float = 10.0, what: str = "condition") -> None:
    wait_until(condition, timeout, what, every=0.001, step=lambda: turns.update(STEP))


def test_a_person_moves_then_the_computer_answers_no_sooner_than_its_pace(services):
    app = services(bot=ColumnAgent(columns=(2,)))
    turns = controller(app, None, "bot")
    assert turns.model.human_to_move and not turns.thinking
    turns.drop(3)
    turns.update(STEP)  # the next step asks the computer
    assert turns.model.board.move_string == "4" and turns.thinking and turns.computer.lane.kind == "move"
    asked = turns.time
    run_until(turns, lambda: turns.model.moves_played == 2, what="the computer's move")
    assert turns.model.board.move_string == "43"
    assert turns.time - asked >= MIN_MOVE_TIME[Mode.HUMAN_VS_AI]  # a fast agent stays watchable
    assert app.sounds.played.count("drop") == 2 and Change.PLAYED in turns.said


def test_input_out_of_turn_is_ignored(services):
    app = services(slow=SlowAgent(seconds=30))
    turns = controller(app, "slow", None)
    run_until(turns, lambda: app.agents["slow"].started.is_set(), what="the search")
    turns.drop(3)
    assert turns.model.moves_played == 0


def test_a_new_game_drops_the_answer_of_the_search_it_stopped(services):
    slow = SlowAgent(seconds=30)
    app = services(slow=slow)
    turns = controller(app, "slow", None)
    run_until(turns, slow.started.is_set, what="the search")
    stale = turns.computer.lane.current
    turns.restart()
    assert stale is not None and stale.cancelled and slow.stopped.wait(1)
    run_until(turns, lambda: stale.finished, what="the stopped search to return")
    assert stale.value.column == 0  # it did answer...
    run(turns, 0.5)
    assert turns.model.moves_played == 0  # ...but that answer never lands: a newer job is waited for
    assert turns.computer.lane.current is not None and turns.computer.lane.current is not stale


def test_undo_while_the_computer_thinks_takes_back_your_move(services):
    slow = SlowAgent(seconds=30)
    app = services(slow=slow)
    turns = controller(app, None, "slow")
    turns.drop(3)
    run_until(turns, slow.started.is_set, what="the search")
    turns.undo()
    assert slow.stopped.wait(1)
    run(turns, 0.3)
    assert turns.model.board.move_string == "" and turns.model.human_to_move and turns.computer.lane.current is None


def test_a_move_that_waits_for_its_kernels_says_so_until_the_search_starts(services):
    app = services(bot=ColumnAgent())
    app.catalog.ready.clear()  # a first start: the player's kernels are being compiled
    turns = controller(app, "bot", None)
    turns.update(STEP)
    assert turns.preparing and turns.thinking and turns.said[-1] is Change.PREPARING
    run(turns, 0.5)
    assert turns.preparing and turns.model.moves_played == 0
    app.catalog.ready.set()
    run_until(turns, lambda: not turns.preparing, what="the end of the preparing")
    turns.update(STEP)  # the screen hears of it at the next step
    assert turns.said.count(Change.PREPARING) == 2  # it started waiting, then stopped: the screen redraws both
    run_until(turns, lambda: turns.model.moves_played == 1, what="the move")


def test_a_computer_that_fails_says_why_and_can_be_asked_again(services):
    app = services(bug=FailingAgent(), wrong=WrongColumnAgent())
    turns = controller(app, "bug", "wrong")
    run_until(turns, lambda: turns.failure is not None, what="the failure")
    assert "RuntimeError: boom" in turns.failure and turns.model.moves_played == 0
    app.agents["bug"] = ColumnAgent()
    turns.computer.agents[Colour.RED] = app.agents["bug"]
    turns.retry()
    run_until(turns, lambda: turns.model.moves_played == 1, what="the move asked again")
    run_until(turns, lambda: turns.failure is not None, what="the wrong column")
    assert "chose column 100 (it answered 99, counted from 0)" in turns.failure


def test_the_spectator_sets_the_pace_and_an_instant_pace_drops_no_disc(services):
    app = services(red=ColumnAgent(columns=(0,)), yellow=ColumnAgent(columns=(1,)))
    app.settings.spectator_speed = "slow"
    turns = controller(app, "red", "yellow")
    run_until(turns, lambda: turns.model.moves_played == 1, what="the first move")
    first = turns.time
    run_until(turns, lambda: turns.model.moves_played == 2, what="the second move")
    assert turns.time - first >= turns.spectator.speed.move_time == 2.0
    app.settings.spectator_speed = "instant"
    run_until(turns, lambda: turns.model.moves_played == 3, what="a move at once")
    assert turns.animations.idle  # placed, not dropped


def test_a_pause_stops_the_search_and_a_step_plays_one_move(services):
    slow = SlowAgent(seconds=0.05)
    app = services(a=slow, b=ColumnAgent(columns=(1,)))
    turns = controller(app, "a", "b")
    run_until(turns, slow.started.is_set, what="the search")
    turns.spectator.toggle_pause()
    assert turns.spectator.paused and not turns.thinking and turns.computer.lane.current is None
    run(turns, 1.0)
    assert turns.model.moves_played == 0  # nothing is asked while paused
    turns.spectator.step()
    run_until(turns, lambda: turns.model.moves_played == 1, what="one move")
    run(turns, 1.5)
    assert turns.model.moves_played == 1 and turns.spectator.paused


def test_a_hint_is_shown_and_a_move_made_meanwhile_cancels_it(services):
    app = services(bot=ColumnAgent())
    turns = controller(app, None, "bot")
    turns.ask_hint()
    assert turns.computer.lane.kind == "hint" and turns.hint_text == "Looking for a good move…"
    run_until(turns, lambda: turns.hint is not None, what="the hint")
    assert turns.hint == 2 and turns.hint_text.startswith("Hint: column 3")
    app.catalog.ready.clear()  # the next hint waits, and is cancelled by a move
    turns.ask_hint()
    waiting = turns.computer.lane.current
    turns.drop(0)
    turns.update(STEP)
    assert waiting is not None and waiting.cancelled and turns.computer.lane.kind == "move"


def test_a_finished_game_is_counted_once_and_its_result_is_asked_for(services):
    turns = controller(services(), None, None, moves="112233")  # red wins with a disc in column 4
    turns.drop(3)
    run_until(turns, lambda: turns.animations.idle, what="the disc to land")
    turns.update(STEP)
    assert turns.model.winner is Colour.RED and turns.services.tally.wins(Colour.RED) == 1
    assert Change.OVER in turns.said and Change.RESULT not in turns.said
    run(turns, RESULT_DELAY + 0.05)
    assert turns.said.count(Change.RESULT) == 1 and turns.result_shown
    turns.undo()  # the game is no longer over: it leaves the tally
    assert turns.services.tally.wins(Colour.RED) == 0


def test_spectators_cannot_undo_and_people_cannot_pause(services):
    app = services(a=ColumnAgent(), b=ColumnAgent())
    watched = controller(app, "a", "b")
    run_until(watched, lambda: watched.model.moves_played == 1, what="a move")
    watched.undo()
    assert watched.model.moves_played == 1
    played = controller(services(), None, None)
    played.spectator.toggle_pause()
    assert not played.spectator.paused
