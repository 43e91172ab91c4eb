"""The computer's turn: the background worker, stale moves, stopping, and agents that fail."""

from __future__ import annotations

import pygame

from engine.geometry import Geometry
from game.launch import match_from
from game.options import Options
from game.scenes.match import MatchScene
from game.scenes.menu import MainMenu
from game.scenes.result import ResultOverlay
from tests.game.conftest import FailingAgent, SlowAgent, WrongColumnAgent
from tests.game.test_match import config, open_match


def test_spectator_game_to_the_end(start):
    options = Options(match=match_from("random:seed=1", "random:seed=2", Geometry(5, 4, 3), ""), exit_after_game=True)
    driver = start(options)
    match = driver.scene
    assert isinstance(match, MatchScene) and match.turns.mode.value == "spectator"
    driver.run_until(lambda: not driver.app.running, timeout=60, what="the end of the game")
    assert match.turns.model.board.is_over
    assert any(isinstance(scene, ResultOverlay) for scene in driver.app.scenes)
    assert all(result is not None for result in match.turns.model.results)  # every move came from an agent


def test_new_game_while_thinking_drops_the_stale_move(start):
    slow = SlowAgent(seconds=30)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config("slow", None))
    assert slow.started.wait(5)
    slow.started.clear()
    driver.key(pygame.K_n)
    assert slow.stopped.wait(1)  # the search was told to stop ...
    assert slow.started.wait(5)  # ... and the new game's search began
    driver.step(30)
    assert match.turns.model.moves_played == 0  # the first search's answer never landed
    assert match.turns.thinking


def test_undo_while_thinking_takes_back_your_move(start):
    slow = SlowAgent(seconds=30)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config(None, "slow"))
    driver.key(pygame.K_4)
    assert slow.started.wait(5)
    driver.key(pygame.K_u)
    assert slow.stopped.wait(1)
    driver.step(30)
    assert match.turns.model.board.history == () and match.turns.model.human_to_move


def test_leaving_the_match_while_thinking_stops_the_search(start):
    slow = SlowAgent(seconds=30)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config("slow", None))
    assert slow.started.wait(5)
    driver.key(pygame.K_ESCAPE)
    assert isinstance(driver.scene, MainMenu)
    assert slow.stopped.wait(1)
    driver.step(30)
    assert match.turns.model.moves_played == 0
    assert match.turns.computer.lane.current is None  # nothing asked of the worker is waited for


def test_quitting_while_thinking_does_not_hang(start):
    slow = SlowAgent(seconds=30)
    driver = start(agents={"slow": slow})
    open_match(driver, config("slow", "slow"))
    assert slow.started.wait(5)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert driver.app.run() == 0
    assert slow.stopped.wait(1)


def test_an_agent_that_raises_is_reported_and_the_game_stays_usable(start):
    driver = start(agents={"buggy": FailingAgent()})
    match = open_match(driver, config(None, "buggy"))
    driver.key(pygame.K_4)
    driver.run_until(lambda: match.turns.failure is not None, what="the error message")
    assert "RuntimeError: boom" in match.turns.failure and "Computer" in match.turns.failure
    assert match.view.status()[0] == "The computer failed"
    assert any(button.text == "Retry" for button in match.controls.form.widgets)
    driver.key(pygame.K_RETURN)  # retry: it fails again, still no crash
    driver.run_until(lambda: match.turns.failure is not None, what="the error message")
    driver.key(pygame.K_u)  # undo still works
    assert match.turns.model.board.history == () and match.turns.failure is None
    driver.key(pygame.K_ESCAPE)
    assert isinstance(driver.scene, MainMenu)


def test_an_agent_answering_an_impossible_column_is_reported(start):
    driver = start(agents={"wrong": WrongColumnAgent()})
    match = open_match(driver, config("wrong", None))
    driver.run_until(lambda: match.turns.failure is not None, what="the error message")
    assert "column 100" in match.turns.failure
    assert match.turns.model.moves_played == 0


def test_an_agent_that_cannot_be_built_is_reported(start):
    def broken(spec):
        raise ValueError("no such file: student.py")

    driver = start()
    driver.app.make_agent = broken
    match = open_match(driver, config(None, "classroom"))
    assert "no such file" in match.turns.failure
    driver.key(pygame.K_4)  # you can still move; the computer side just does not answer
    driver.step(10)
    assert match.turns.model.moves_played == 1
