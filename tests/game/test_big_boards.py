"""Boards above 42 cells: a bounded analysis, levels that say where they only guess, readable values on 9 columns."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pygame
import pytest

from engine.agents.random_agent import RandomAgent
from engine.geometry import DEFAULT, Geometry
from game.launch import build_parser, options_from
from game.model import Colour, Mode
from game.panels.analysis import caption_layout, estimate_words
from game.players import MatchConfig, player_for
from game.scenes.agent_select import AgentSelect
from game.scenes.match import MatchScene
from tests.game.test_window import resize

BIG = Geometry(8, 8, 4)


def hotseat(geometry: Geometry, moves: str) -> MatchConfig:
    people = (player_for(colour, None, Mode.HOTSEAT) for colour in (Colour.RED, Colour.YELLOW))
    return MatchConfig(*people, geometry, Colour.RED, moves)


def open_match(driver, config: MatchConfig) -> MatchScene:
    driver.step()
    match = MatchScene(driver.app, config)
    driver.app.push(match)
    driver.step()
    return match


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime, stime in clock ticks (100 a second on Linux)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the child's CPU time from /proc")
def test_the_analysis_of_an_early_8x8_position_ends_not_solved_and_the_child_goes_idle(start):
    driver = start(show_analysis=True)
    driver.app.analysis_process.solve_seconds = 2  # the bound (30 s in the game), short for the test
    match = open_match(driver, hotseat(BIG, "45"))
    panel = match.feeds.analysis
    ended = lambda: panel.lane.current is not None and panel.lane.current.finished  # noqa: E731
    driver.run_until(ended, timeout=240, what="the analysis to end")  # a cold start compiles the solver first
    driver.step()
    snapshot = panel.snapshot
    assert snapshot is not None and snapshot.stage == "unsolved" and panel.lane.current.error is None
    assert panel.caption().startswith("Not solved in ")
    estimates = [value for value in snapshot.values if value is not None and not value.is_exact]
    assert estimates and all(-1 < value.value < 1 for value in estimates)  # the estimates stay on the chips
    pid = driver.app.analysis_process.pid
    assert pid is not None  # kept for the next position, but idle: its CPU time stands still
    before = cpu_seconds(pid)
    time.sleep(1.0)  # a measuring window, not a wait: work left running shows as CPU time in it
    assert cpu_seconds(pid) - before < 0.2
    driver.click_column(0)  # a new position: a new (bounded) analysis
    assert panel.lane.current.key[1] == (3, 4, 0)


def test_the_command_line_s_analysis_shows_the_panel_for_that_run_only(start, settings_file):
    options = options_from(build_parser().parse_args(["--analysis"]))
    assert options.analysis and options.match is None
    driver = start(options)
    assert driver.app.settings.show_analysis
    match = open_match(driver, hotseat(DEFAULT, "44"))
    assert match.show_analysis
    driver.run_until(lambda: match.feeds.analysis.snapshot is not None, timeout=120, what="the first values")
    driver.app.close()
    assert json.loads(settings_file.read_text()).get("show_analysis", False) is False  # not remembered


def test_estimates_fit_their_chips_on_nine_columns(start):
    driver = start(window_width=1024, window_height=720, show_analysis=True)
    match = open_match(driver, hotseat(Geometry(9, 9, 4), "5"))
    panel = match.feeds.analysis
    driver.run_until(
        lambda: panel.snapshot is not None and panel.snapshot.stage != "book", timeout=200, what="the estimates"
    )
    theme, view = driver.app.theme, match.view.board
    font, room = theme.font(12, True), view.cell - theme.px(12)
    shown = [
        estimate_words(value, 1, view, font, room)
        for value in panel.snapshot.values
        if value is not None and not value.is_exact
    ]
    assert shown and all("…" not in words and font.size(words)[0] <= room for words in shown)
    assert all(any(ch.isdigit() for ch in words) for words in shown)  # a number, not just a sign
    driver.app.settings.text_scale = 150  # the largest text still shows a number
    driver.app.settings_changed()
    font = theme.font(12, True)
    assert all(font.size(estimate_words(v, 1, view, font, room))[0] <= room for v in panel.snapshot.values if v)
    label = panel.label  # the caption beside the values stays inside its room at the largest text too
    for caption in ("Not solved in time: estimates only", "Not solved in time: 3 of 9 exact", panel.caption()):
        text, size, wrap = caption_layout(theme, caption, label.width, label.height)
        drawn = theme.text(text, size, (255, 255, 255), wrap=wrap)
        assert drawn.get_width() <= label.width and drawn.get_height() <= label.height


def test_the_level_list_says_best_guess_and_no_elo_on_8x8(start):
    for geometry, perfect in ((BIG, "Perfect · best guess"), (DEFAULT, "Perfect · Elo 2261")):
        driver = start(cols=geometry.cols, rows=geometry.rows)
        driver.wait_for_catalog()
        driver.step()
        driver.key(pygame.K_RETURN)  # Play
        driver.key(pygame.K_RETURN)  # you against the computer
        agents = driver.scene
        assert isinstance(agents, AgentSelect)
        driver.step()
        titles = [card.title for card in agents.cards]
        assert perfect in titles
        if geometry == BIG:
            assert not any("Elo" in title for title in titles)  # Elo figures are 7x6's
            assert "Elo" not in agents.subtitle
            card = next(card for card in agents.cards if card.title == perfect)
            driver.press(card)
            assert agents.sides[agents.current].preset == "perfect"
            assert card.detail.startswith("a best guess on 8×8")
        else:
            assert all("best guess" not in title for title in titles)
            assert all("Elo" in title for title in titles)
            # the list comes before the board is chosen: it says where its Elo ratings hold, and that fits
            assert agents.subtitle == "A difficulty level (Elo measured on 7×6) or any engine, set as you like"
            for window, scale in ((640, 480), 150), ((1024, 720), 150):
                driver.app.settings.text_scale = scale
                driver.app.settings_changed()
                resize(driver, window)
                assert driver.app.theme.font(16).size(agents.subtitle)[0] <= window[0] - 2 * driver.app.theme.px(20)


def test_the_hint_says_best_guess_where_perfect_cannot_prove_it(start):
    for geometry, guess in ((BIG, True), (DEFAULT, False)):
        # The hint comes from the strongest level (perfect): a quick stand-in answers, the words are the game's.
        driver = start(agents={"perfect": RandomAgent(seed=3)})
        driver.wait_for_catalog()
        assert driver.app.catalog.hint_spec() == "perfect"
        match = open_match(driver, hotseat(geometry, "4"))
        driver.key(pygame.K_h)
        driver.run_until(lambda match=match: match.turns.hint is not None, timeout=30, what="a hint")
        assert ("Perfect's best guess" in match.turns.hint_text) is guess
        assert match.turns.hint_text.startswith(f"Hint: column {match.turns.hint + 1} (from Perfect")


def test_the_board_set_up_says_when_the_chosen_level_only_guesses_on_the_board(start):
    driver = start(mode="human_vs_ai", human_colour="red", yellow_agent="perfect", cols=8, rows=8)
    driver.wait_for_catalog()
    driver.step()
    driver.app.open("board_setup")
    driver.step()
    setup = driver.scene
    assert "Yellow: Perfect (a best guess here)" in setup._describe()
    driver.press(next(button for button in setup.sizes if button.text == "Classic"))  # 7x6: proven there
    assert driver.app.settings.geometry() == DEFAULT
    assert "Yellow: Perfect" in setup._describe() and "best guess" not in setup._describe()
