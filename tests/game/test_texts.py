"""The words on screen and in --help: capitals kept, nothing cut off, no odd repetitions."""

from __future__ import annotations

from engine.agents.registry import describe_agents
from game.players import sentence
from game.scenes.agent_select import AgentSelect
from game.scenes.board_setup import BoardSetup


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
