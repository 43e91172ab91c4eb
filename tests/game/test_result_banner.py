"""The result banner: the spectator's keys and the match's visible buttons still work under it,
X after a game swaps the players for a new game (never under the finished one), and Settings opens Settings."""

from __future__ import annotations

import pygame

from engine.geometry import Geometry
from game.model import Colour
from game.scenes.result import ResultOverlay
from tests.game.test_match import config, open_match

SMALL = Geometry(4, 4, 3)


def watch_a_game(start):
    """Two computers play one instant game on a small board; returns the driver and the match, banner up."""
    driver = start(spectator_speed="instant")
    match = open_match(driver, config("random:seed=1", "random:seed=2", SMALL))
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), timeout=60, what="the result banner")
    driver.app.settings.spectator_speed = "slow"  # the next game's first move waits: the tests see it empty
    return driver, match


def test_g_on_the_banner_starts_a_series(start):
    driver, match = watch_a_game(start)
    driver.key(pygame.K_g)
    assert driver.scene is match
    assert match.turns.spectator.series is not None and not match.turns.model.board.is_over  # the series' first game


def test_the_visible_series_button_works_under_the_banner(start):
    driver, match = watch_a_game(start)
    button = match.controls.series_button
    assert button in match.controls.form.widgets and not driver.scene.panel.colliderect(button.rect)
    driver.press(button)
    assert driver.scene is match and match.turns.spectator.series is not None


def test_f_changes_the_pace_and_space_starts_the_next_game(start):
    driver, match = watch_a_game(start)
    driver.key(pygame.K_f)
    assert driver.app.settings.spectator_speed == "normal"  # slow -> normal: the next pace, from the banner
    assert driver.scene is match
    driver.key(pygame.K_RETURN)  # the result again
    assert isinstance(driver.scene, ResultOverlay)
    driver.key(pygame.K_SPACE)  # Space after a game: the next one
    assert driver.scene is match and match.turns.model.moves_played == 0
    assert match.turns.config.first is Colour.YELLOW  # a rematch: the other side starts


def test_x_after_a_game_swaps_the_players_for_a_new_game(start):
    driver, match = watch_a_game(start)
    winner = match.turns.model.winner
    before = driver.app.tally.wins(winner) if winner is not None else driver.app.tally.draws
    driver.key(pygame.K_x)
    assert driver.scene is match and match.turns.model.moves_played == 0  # not under the finished board
    assert match.turns.config.red.spec == "random:seed=2" and match.turns.config.yellow.spec == "random:seed=1"
    if winner is not None:  # the score followed the players to their new colours
        assert driver.app.tally.wins(winner.other) == before


def test_p_after_a_game_changes_a_player_for_the_next_game(start):
    driver, match = watch_a_game(start)
    driver.key(pygame.K_p)
    assert driver.scene.name == "players"
    match.turns.spectator.replace_player(Colour.YELLOW, "random:seed=9")
    assert match.turns.model.moves_played == 0 and match.turns.config.yellow.spec == "random:seed=9"


def test_settings_on_the_banner_opens_the_settings(start):
    driver, _ = watch_a_game(start)
    banner = driver.scene
    driver.press(banner.settings)
    assert driver.scene.name == "settings"
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is banner  # back to the banner, the finished game under it
