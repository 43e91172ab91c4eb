"""The score across games, the spectator's controls (pause, step, pace, swap, replace, series), names."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pygame
import pytest

from engine.agents.base import Agent, SearchResult
from engine.board import Board
from engine.geometry import Geometry
from engine.stop import StopFlag
from game.model import Colour
from game.players import MatchConfig, Player
from game.scenes.players_overlay import PlayersOverlay
from game.scenes.result import ResultOverlay
from game.tally import Tally
from tests.game.conftest import SlowAgent
from tests.game.test_match import config, open_match

SMALL = Geometry(4, 4, 3)


def play_the_first_column_line(driver, match):
    for column in (0, 1, 0, 1, 0):
        driver.click_column(column)
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result panel")


def test_the_tally_counts_games_and_rematches_and_uncounts_an_undone_win(start):
    driver = start()
    match = open_match(driver, config(None, None, SMALL))
    play_the_first_column_line(driver, match)
    tally = driver.app.tally
    assert (tally.red, tally.yellow, tally.draws) == (1, 0, 0)
    assert driver.scene.score() == "Score: Red player 1 – 0 Yellow player"
    driver.key(pygame.K_r)  # rematch: yellow starts; yellow wins this one
    play_the_first_column_line(driver, match)  # the same clicks: yellow, who starts now, wins
    assert (tally.red, tally.yellow) == (1, 1)
    driver.key(pygame.K_ESCAPE)  # close the result panel, then undo the winning move
    assert driver.scene is match
    driver.key(pygame.K_u)
    driver.step()
    assert (tally.red, tally.yellow) == (1, 0)  # a game that is no longer over is no longer counted
    driver.click_column(0)
    driver.settle()
    driver.step()
    assert (tally.red, tally.yellow) == (1, 1)  # ... and counts once when it is won again


def test_the_tally_resets_when_the_players_change():
    tally = Tally()
    people = config(None, None)
    tally.follow(people)
    tally.record(Colour.RED)
    tally.follow(people.rematch())
    assert tally.red == 1
    tally.follow(people.swapped())  # the same two people, colours changed: their score goes with them
    assert (tally.red, tally.yellow) == (0, 1)
    tally.follow(MatchConfig(Player(Colour.RED, "Ann"), people.yellow, people.geometry))
    assert tally.games == 0


def test_the_tally_survives_a_restart_for_the_same_players(start, settings_file):
    driver = start()
    match = open_match(driver, config(None, None, SMALL))
    play_the_first_column_line(driver, match)
    driver.app.close()
    saved = json.loads(settings_file.read_text(encoding="utf-8"))
    people = [["person", "Red player"], ["person", "Yellow player"]]
    assert saved["tally"] == {"players": people, "red": 1, "yellow": 0, "draws": 0}
    again = start(**saved)
    assert again.app.tally.games == 1 and not again.app.messages
    match = open_match(again, config(None, None, SMALL))
    assert match.app.tally.red == 1  # the same two players: the score goes on
    play_the_first_column_line(again, match)
    assert again.scene.score() == "Score: Red player 2 – 0 Yellow player"
    again.app.close()
    third = start(**json.loads(settings_file.read_text(encoding="utf-8")))
    open_match(third, config(None, "random", SMALL))  # someone else: a fresh score, saved at once
    assert third.app.tally.games == 0
    assert json.loads(settings_file.read_text(encoding="utf-8"))["tally"]["players"][1] == ["computer", "random"]


@pytest.mark.parametrize(
    ("tally", "message"),
    [
        ({"players": [["person", "Ann"]], "red": 1, "yellow": 0, "draws": 0}, "The saved score was damaged"),
        ({"players": [["person", "A"], ["robot", "B"]], "red": 1, "yellow": 0, "draws": 0}, "score was damaged"),
        ({"players": [["person", "A"], ["person", "B"]], "red": -1, "yellow": 0, "draws": 0}, "score was damaged"),
        ({"players": [["person", "A"], ["person", "B"]], "red": True, "yellow": 0}, "score was damaged"),
        ("2-1", "were invalid and were reset: tally"),
    ],
)
def test_a_damaged_saved_tally_starts_from_zero_with_a_message(start, tally, message):
    driver = start(tally=tally)
    assert driver.app.tally.games == 0 and any(message in m for m in driver.app.messages)
    match = open_match(driver, config(None, None, SMALL))
    play_the_first_column_line(driver, match)
    assert driver.app.tally.red == 1


def test_pause_and_step_one_move(start):
    driver = start(spectator_speed="fast")
    match = open_match(driver, config("random:seed=1", "random:seed=2"))
    driver.key(pygame.K_SPACE)
    assert match.turns.spectator.paused
    driver.step(60)
    assert match.turns.model.moves_played == 0
    driver.key(pygame.K_s)
    driver.run_until(lambda: match.turns.model.moves_played == 1, what="one step")
    driver.step(60)
    assert match.turns.model.moves_played == 1 and match.turns.spectator.paused
    driver.key(pygame.K_SPACE)
    driver.run_until(lambda: match.turns.model.moves_played == 3, what="the game to go on")


def test_the_pace_cycles_and_is_remembered(start):
    driver = start()
    match = open_match(driver, config("random", "random"))
    names = []
    for _ in range(4):
        driver.key(pygame.K_f)
        names.append(match.turns.spectator.speed.label)
    assert names == ["Fast", "Instant", "Slow", "Normal"]
    driver.key(pygame.K_f)
    assert '"spectator_speed": "fast"' in driver.app.settings_path.read_text(encoding="utf-8")  # saved at once


def test_instant_games_drop_no_discs(start):
    driver = start(spectator_speed="instant")
    match = open_match(driver, config("random:seed=1", "random:seed=2", SMALL))
    driver.run_until(lambda: match.turns.model.moves_played >= 3, what="moves")
    assert match.turns.animations.idle


def test_swap_the_computers_mid_game(start):
    slow = SlowAgent(seconds=30)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config("slow", "random:seed=4"))
    assert slow.started.wait(5)
    driver.key(pygame.K_x)
    assert slow.stopped.wait(5)  # its search was stopped
    assert match.turns.config.red.spec == "random:seed=4" and match.turns.config.yellow.spec == "slow"
    assert match.turns.config.red.name == "Red computer" and match.turns.model.config is match.turns.config
    # red's move comes from the random agent; then the slow one thinks again, now for yellow
    driver.run_until(lambda: match.turns.model.moves_played == 1 and slow.calls == 2, what="the new red player's move")
    assert match.turns.model.colour_to_move is Colour.YELLOW and match.turns.thinking


def test_replace_a_computer_from_the_players_panel(start):
    driver = start()
    driver.step()
    driver.app.catalog.wait(30)
    match = open_match(driver, config("random:seed=1", "random:seed=2"))
    driver.key(pygame.K_p)
    overlay = driver.scene
    assert isinstance(overlay, PlayersOverlay)
    choice = overlay.choices[Colour.YELLOW]
    driver.focus(choice)
    driver.key(pygame.K_RIGHT)
    assert match.turns.config.yellow.spec == choice.value == "beginner"
    assert match.turns.computer.agents[Colour.YELLOW] is not None
    driver.key(pygame.K_x)  # swap from the panel too
    assert match.turns.config.red.spec == choice.value
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is match


def test_a_series_of_games_with_the_tally(start):
    driver = start(spectator_speed="instant")
    match = open_match(driver, config("random:seed=1", "random:seed=2", SMALL))
    driver.key(pygame.K_g)
    assert match.turns.spectator.series is not None and match.turns.spectator.series.total == 10
    match.turns.spectator.series.total = 3  # three games keep the test short
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), timeout=60, what="the end of the series")
    assert driver.app.tally.games == 3 and match.turns.spectator.series.game == 3
    assert driver.scene.score() == f"After 3 games: {driver.app.tally.describe(match.turns.config)}"
    assert driver.app.tally.describe(match.turns.config).startswith("Red computer ")
    driver.key(pygame.K_r)
    assert match.turns.spectator.series is None


def test_names_show_in_the_headline_and_long_ones_keep_wins(start):
    driver = start(window_width=640, window_height=480)
    long = "Bartholomew Maximilian Featherstonehaugh"
    match = open_match(driver, MatchConfig(Player(Colour.RED, long), Player(Colour.YELLOW, "Yellow player"), SMALL))
    play_the_first_column_line(driver, match)
    overlay = driver.scene
    assert overlay.headline()[0] == f"{long} wins!"
    driver.app.step()
    from game.labels import fit_headline

    px = driver.app.theme.px  # the headline's room: beside the buttons, or the whole banner above them
    right = overlay.panel.right - px(20) if overlay.stacked else overlay.again.rect.x
    room = right - overlay._text_left() - px(12)
    shown = fit_headline(driver.app.theme, overlay.headline()[0], 28, room)
    assert shown.endswith(" wins!") and driver.app.theme.font(28, True).size(shown)[0] <= room


def test_names_typed_on_the_set_up_screen_are_remembered(start):
    driver = start(mode="hotseat")
    driver.press(driver.scene.play)
    mode_screen = driver.scene
    field = mode_screen.names[Colour.RED]
    driver.focus(field)
    driver.text("Ann\x07 ")
    driver.app.save_settings()
    assert driver.app.settings.red_name == "Ann"
    text = driver.app.settings_path.read_text(encoding="utf-8")
    assert '"red_name": "Ann"' in text


def test_after_a_game_between_two_named_people_quick_game_names_them(start):
    """Quick game said "Red vs Yellow" though Ann and Bob had just played."""
    driver = start(mode="hotseat")
    driver.press(driver.scene.play)
    mode_screen = driver.scene
    for colour, name in ((Colour.RED, "Ann"), (Colour.YELLOW, "Bob")):
        driver.focus(mode_screen.names[colour])
        driver.text(name)
    driver.press(mode_screen.next)  # the board set-up names them too
    assert driver.scene._describe().startswith("Ann and Bob take turns; Ann moves first.")
    driver.press(driver.scene.start)
    match = driver.scene
    assert (match.turns.config.red.name, match.turns.config.yellow.name) == ("Ann", "Bob")
    driver.click_column(0)
    driver.app.reset("menu")
    driver.step(3)
    assert driver.scene.quick.detail == "Ann vs Bob · 7×6"


def test_your_name_against_the_computer_and_two_names_in_hotseat():
    from game.model import Mode
    from game.players import config_from_settings
    from game.settings import Settings

    settings = Settings(mode=Mode.HUMAN_VS_AI, human_colour=Colour.YELLOW, player_name="Zoë", red_name="Ann")
    match = config_from_settings(settings, lambda spec: spec or "medium")
    assert match.yellow.name == "Zoë" and match.red.name == "Computer"
    settings.mode = Mode.HOTSEAT
    match = config_from_settings(settings, lambda spec: spec or "medium")
    assert (match.red.name, match.yellow.name) == ("Ann", "Yellow player")
    assert (match.red.title, match.yellow.title) == ("Ann", "Yellow")


@dataclass
class ColumnAgent(Agent):
    """Always plays the same column."""

    column: int = 0

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        return SearchResult(column=self.column, nodes=1)


def test_a_long_engine_name_leaves_the_result_line_whole(start):
    long = "mcts:time=0.1,iterations=5000,c=1.4,seed=3"
    driver = start(agents={long: ColumnAgent(0), "yellow": ColumnAgent(1)})
    open_match(driver, config(long, "yellow", SMALL))
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result panel")
    overlay, theme, px = driver.scene, driver.app.theme, driver.app.theme.px
    right = overlay.panel.right - px(20) if overlay.stacked else overlay.again.rect.x
    room = right - overlay._text_left() - px(12)
    title, detail = overlay.headline(room)
    assert title.startswith("Red") and title.endswith("wins!") and detail.endswith("3 in a row on move 5.")
    assert max(theme.font(28, True).size(title)[0], theme.font(15).size(detail)[0]) <= room
