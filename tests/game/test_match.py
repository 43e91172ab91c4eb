"""Playing on the match screen: hotseat by mouse, against the computer by keyboard, undo, hints."""

from __future__ import annotations

import pygame

from engine.agents.base import SearchResult
from engine.geometry import DEFAULT, Geometry
from engine.score import Score
from game.match.texts import describe_result
from game.model import Colour
from game.players import MatchConfig, player_for
from game.scenes.match import MatchScene
from game.scenes.result import ResultOverlay
from tests.game.conftest import SlowAgent


def config(red: str | None, yellow: str | None, geometry: Geometry = DEFAULT, first=Colour.RED, moves=""):
    mode = MatchConfig(player_for(Colour.RED, red, None), player_for(Colour.YELLOW, yellow, None), geometry).mode
    return MatchConfig(
        player_for(Colour.RED, red, mode), player_for(Colour.YELLOW, yellow, mode), geometry, first, moves
    )


def open_match(driver, match_config: MatchConfig) -> MatchScene:
    driver.step()
    driver.app.catalog.wait(30)
    match = MatchScene(driver.app, match_config)
    driver.app.push(match)
    driver.step()
    return match


def test_hotseat_game_by_clicks_to_a_win(start):
    driver = start()
    match = open_match(driver, config(None, None))
    for column in (0, 1, 0, 1, 0, 1):
        driver.click_column(column)
    assert match.turns.model.board.move_string == "121212"
    assert match.turns.model.colour_to_move is Colour.RED
    assert match.view.marks().ghost == (1, Colour.RED)  # the disc in hand follows the pointer
    driver.click_column(0)
    assert match.turns.model.winner is Colour.RED
    driver.click_column(3)  # the game is over: clicks do nothing
    assert match.turns.model.moves_played == 7
    driver.settle()
    assert sorted(match.view.marks().winning) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert match.view.status() == ("Red wins!", match.view.status()[1])
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result panel")
    assert driver.scene.headline()[0] == "Red wins!"


def test_rematch_alternates_the_first_player(start):
    driver = start()
    match = open_match(driver, config(None, None, Geometry(4, 4, 3)))
    for column in (0, 1, 0, 1, 0):
        driver.click_column(column)
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result panel")
    driver.key(pygame.K_r)
    assert driver.scene is match
    assert match.turns.model.moves_played == 0 and match.turns.config.first is Colour.YELLOW
    assert match.turns.model.colour_to_move is Colour.YELLOW


def test_draw_is_announced(start):
    driver = start()
    # 4x4 connect 4, one move from a full board with no line
    match = open_match(driver, config(None, None, Geometry(4, 4, 4), moves="123323344124241"))
    driver.click_column(0)

    driver.settle()
    assert match.turns.model.board.is_draw
    assert match.view.status()[0].startswith("Draw")
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result panel")
    assert driver.scene.headline()[0] == "Draw!"


def test_human_against_the_computer_by_keyboard(start):
    driver = start()
    match = open_match(driver, config(None, "random:seed=3"))
    board = match.turns.model.board
    keys = iter(range(1000))
    while not board.is_over:
        driver.run_until(lambda: match.turns.model.human_to_move or board.is_over, what="the human's turn")
        if board.is_over:
            break
        target = board.legal_columns()[-1] if next(keys) % 2 else board.legal_columns()[0]
        if len(board.history) % 4 == 0:  # sometimes a digit key ...
            driver.key(pygame.K_1 + target)
        else:  # ... sometimes the arrows and Enter, Space or Down
            while match.controls.cursor != target:
                driver.key(pygame.K_LEFT if match.controls.cursor > target else pygame.K_RIGHT)
            driver.key((pygame.K_RETURN, pygame.K_SPACE, pygame.K_DOWN)[len(board.history) % 3])
        assert board.history[-1] == target
    history = board.history
    assert all(match.turns.model.results[i] is None for i in range(0, len(history), 2))  # the person's moves
    assert all(match.turns.model.results[i] is not None for i in range(1, len(history), 2))  # the computer's
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result panel")


def test_clicks_during_the_computers_turn_are_ignored(start):
    slow = SlowAgent(seconds=0.3)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config(None, "slow"))
    driver.click_column(3)
    assert slow.started.wait(5)
    driver.click_column(4)  # not your turn
    driver.key(pygame.K_6)
    assert match.turns.model.board.history == (3,)
    driver.run_until(lambda: match.turns.model.human_to_move, what="the computer's move")
    assert match.turns.model.board.history == (3, 0)  # the slow agent plays its first legal column


def test_undo_takes_back_the_computers_reply_and_your_move(start):
    driver = start()
    match = open_match(driver, config(None, "random:seed=1"))
    driver.key(pygame.K_4)
    driver.run_until(lambda: match.turns.model.human_to_move, what="the computer's move")
    driver.key(pygame.K_3)
    driver.run_until(lambda: match.turns.model.human_to_move, what="the computer's move")
    assert len(match.turns.model.board.history) == 4
    driver.key(pygame.K_u)
    assert match.turns.model.board.history[:1] == (3,) and len(match.turns.model.board.history) == 2
    driver.key(pygame.K_z, mod=pygame.KMOD_CTRL)
    assert match.turns.model.board.history == ()
    driver.key(pygame.K_u)
    assert match.turns.model.board.history == ()  # nothing left to undo


def test_undo_in_hotseat_takes_back_one_move(start):
    driver = start()
    match = open_match(driver, config(None, None))
    driver.click_column(2)
    driver.click_column(5)
    driver.press(next(button for button in match.controls.form.widgets if button.text.startswith("Undo")))
    assert match.turns.model.board.history == (2,)
    assert match.turns.model.colour_to_move is Colour.YELLOW


def test_hint_points_at_a_legal_column(start):
    driver = start()
    driver.app.catalog.hint_spec = lambda: "random:seed=5"  # quick, and no compiling
    match = open_match(driver, config(None, None, moves="1"))

    driver.key(pygame.K_h)
    driver.run_until(lambda: match.turns.hint is not None, what="a hint")
    assert match.turns.model.board.is_legal(match.turns.hint)
    assert match.view.marks().hint == match.turns.hint and str(match.turns.hint + 1) in match.turns.hint_text
    driver.key(pygame.K_1)
    assert match.turns.hint is None  # a move clears it


def test_a_full_column_is_refused_with_a_message(start):
    driver = start()
    match = open_match(driver, config(None, None, moves="111111"))
    driver.key(pygame.K_1)
    assert match.turns.model.moves_played == 0

    assert "full" in match.turns.flashing[0]


def test_a_computer_move_says_whether_its_value_is_exact() -> None:
    assert "estimate" in describe_result(SearchResult(column=2, score=Score.estimate(40)))
    assert "exact" in describe_result(SearchResult(column=2, score=Score.pons(3))).split(" · ")
    assert "exact" not in describe_result(SearchResult(column=2))
