"""The words on screen and in --help: capitals kept, nothing cut off, no odd repetitions."""

from __future__ import annotations

from dataclasses import replace

import pygame

from engine.agents.registry import describe_agents
from engine.geometry import DEFAULT
from game.labels import agent_words, fit_agent
from game.model import Colour, Mode
from game.players import MatchConfig, player_for, sentence, spec_label
from game.scenes.agent_select import AgentSelect
from game.scenes.board_setup import BoardSetup
from tests.game.conftest import SlowAgent


def test_sentences_keep_their_capitals():
    assert sentence("monte Carlo tree search") == "Monte Carlo tree search"
    assert sentence("") == ""


def test_help_writes_yes_no_defaults_as_it_asks_for_them():
    listing = describe_agents()
    assert "true or false; default false" in listing
    assert "default False" not in listing and "default True" not in listing


def test_every_difficulty_card_shows_its_whole_summary_at_the_default_window_size(start):
    driver = start(mode="human_vs_ai", window_width=1024, window_height=720)
    driver.wait_for_catalog()
    driver.app.push(AgentSelect(driver.app))
    driver.step(2)
    theme, pad = driver.app.theme, driver.app.theme.px(14)
    assert driver.scene.cards
    for card in driver.scene.cards:
        assert theme.fit_text(card.detail, 13, card.rect.width - 2 * pad) == card.detail, card.title


def test_the_two_player_board_screen_names_no_colour_twice(start):
    driver = start(mode="hotseat")
    driver.app.push(BoardSetup(driver.app))
    driver.step()
    text = driver.scene._describe()
    assert "Red: Red" not in text and "Red moves first" in text


LONG = "mcts:time=0.1,iterations=5000,c=1.4,seed=3"


def test_agents_are_named_by_a_readable_name_then_their_settings():
    assert agent_words(LONG) == ("MCTS", ["time=0.1", "iterations=5000", "c=1.4", "seed=3"])
    assert agent_words("hard") == ("Hard", [])
    assert agent_words("/home/ann/course/bot.py:play,timeout=2") == ("bot.py:play", ["timeout=2"])
    assert spec_label("alphabeta:depth=6,eval=threats") == "Alpha-beta · depth=6, eval=threats"


def test_a_long_spec_shortens_by_whole_settings_with_the_ellipsis_at_the_end(start):
    theme = start().app.theme
    full = fit_agent(theme, LONG, 14, 2000, "moves first")
    assert full == "MCTS · moves first · time=0.1, iterations=5000, c=1.4, seed=3"
    three = "MCTS · moves first · time=0.1, iterations=5000, c=1.4, …"
    assert fit_agent(theme, LONG, 14, theme.font(14).size(three)[0], "moves first") == three
    widths = [theme.font(14).size(full)[0] * share // 100 for share in (90, 60, 40)]
    shortened = [fit_agent(theme, LONG, 14, width, "moves first") for width in widths]
    for text, width in zip(shortened, widths, strict=True):
        assert text.startswith("MCTS · moves first") and text.endswith("…") and text.count("…") == 1
        assert theme.font(14).size(text)[0] <= width
    assert fit_agent(theme, None, 14, 2000) == "Human"


def test_hovering_a_computers_panel_shows_its_whole_spec(start):
    from tests.game.test_match import open_match

    driver = start(agents={LONG: SlowAgent(seconds=60), "hard": SlowAgent(seconds=60)})
    config = MatchConfig(player_for(Colour.RED, LONG, None), player_for(Colour.YELLOW, "hard", None), DEFAULT)
    match = open_match(driver, replace(config, red=player_for(Colour.RED, LONG, Mode.SPECTATOR)))
    below = {colour: pygame.Rect(rect.x, rect.bottom + 2, rect.width, 40) for colour, rect in match.view.panels.items()}

    def picture_below(colour: Colour, pos) -> bytes:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        driver.step()
        return pygame.image.tobytes(driver.app.screen.subsurface(below[colour]), "RGB")

    away = (match.view.board.frame.centerx, match.view.board.frame.bottom + 2)
    for colour, tip in ((Colour.RED, True), (Colour.YELLOW, False)):  # a preset's panel says all there is
        over = picture_below(colour, match.view.panels[colour].center)
        assert (over != picture_below(colour, away)) is tip
