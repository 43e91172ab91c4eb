"""The analysis panel, the thinking view and the game review, driven with real events."""

from __future__ import annotations

import json
from dataclasses import replace

import pygame

from engine.analysis import PositionAnalysis
from engine.geometry import DEFAULT
from engine.score import Score
from game.model import Colour, Mode
from game.panels.analysis import KEY
from game.players import MatchConfig, player_for
from game.scenes.match import MatchScene
from game.scenes.review import ReviewScene
from tests.game.conftest import SlowAgent

#: Red could win in column 1 at move 7 and plays column 3; yellow then wins in column 2.
BLUNDER_GAME = "12121232"


def hotseat(moves: str = "") -> MatchConfig:
    return MatchConfig(
        player_for(Colour.RED, None, Mode.HOTSEAT),
        player_for(Colour.YELLOW, None, Mode.HOTSEAT),
        DEFAULT,
        Colour.RED,
        moves,
    )


def open_match(driver, match_config: MatchConfig) -> MatchScene:
    driver.step()
    match = MatchScene(driver.app, match_config)
    driver.app.push(match)
    driver.step()
    return match


def test_a_toggles_the_panel_and_the_choice_is_remembered(start, settings_file):
    driver = start()
    match = open_match(driver, hotseat())
    assert not match.show_analysis and match.feeds.analysis.snapshot is None  # off by default
    driver.key(pygame.K_a)
    assert match.show_analysis
    assert json.loads(settings_file.read_text())["show_analysis"] is True
    driver.run_until(lambda: match.feeds.analysis.snapshot is not None, what="the first values")
    driver.press(match.controls.analysis_button)  # the button does the same
    assert not match.show_analysis and match.feeds.analysis.lane.current is None
    assert json.loads(settings_file.read_text())["show_analysis"] is False


def test_values_fill_in_from_the_book_and_the_solver(start):
    driver = start(show_analysis=True)
    match = open_match(driver, hotseat("4444"))
    driver.run_until(lambda: match.feeds.analysis.snapshot is not None, what="the first snapshot")
    first = match.feeds.analysis.snapshot
    assert first.stage in ("book", "estimate", "solve", "done")
    driver.run_until(lambda: match.feeds.analysis.snapshot.finished, timeout=120, what="exact values")
    final = match.feeds.analysis.snapshot
    assert all(value is None or value.is_exact for value in final.values)
    assert final.best_columns and match.feeds.analysis.caption().startswith("Analysis: exact")


def test_a_new_position_stops_the_old_analysis_and_starts_again(start):
    driver = start(show_analysis=True)
    match = open_match(driver, hotseat("74677651"))  # replies to 8 stones are not in the book: seconds of solving
    driver.run_until(
        lambda: match.feeds.analysis.snapshot is not None and match.feeds.analysis.snapshot.stage == "solve",
        timeout=60,
        what="the solver at work",
    )
    old = match.feeds.analysis.lane.current
    assert "Solving column" in match.feeds.analysis.caption()
    driver.click_column(3)
    new = match.feeds.analysis.lane.current
    assert new is not old and new.key[1] == (6, 3, 5, 6, 6, 5, 4, 0, 3)
    driver.run_until(lambda: old.finished, timeout=5, what="the old analysis to stop")
    assert not old.latest.finished  # stopped in the middle, never completed
    driver.run_until(lambda: new.latest is not None, what="the new analysis")


def test_the_full_column_stays_blank(start):
    driver = start(show_analysis=True)
    match = open_match(driver, hotseat("444444"))
    driver.run_until(lambda: match.feeds.analysis.snapshot is not None, what="a snapshot")
    assert match.feeds.analysis.snapshot.values[3] is None


def test_thinking_view_shows_the_computer_s_search(start):
    driver = start()
    config = MatchConfig(
        player_for(Colour.RED, "alphabeta:depth=81,time=30", Mode.SPECTATOR),
        player_for(Colour.YELLOW, "alphabeta:depth=81,time=30", Mode.SPECTATOR),
        DEFAULT,
    )
    match = open_match(driver, config)
    driver.run_until(
        # the first snapshot may come before the first iteration has a best column
        lambda: match.feeds.thinking.snapshot is not None and match.feeds.thinking.snapshot.best_column is not None,
        timeout=300,  # a cold start compiles the kernels first
        what="a progress snapshot with a best column",
    )
    snapshot = match.feeds.thinking.snapshot
    assert snapshot.depth and snapshot.best_column is not None
    assert "nodes/s" in match.feeds.thinking.summary()
    driver.key(pygame.K_n)  # a new game: the search stops and the view forgets it
    assert match.feeds.thinking.snapshot is not snapshot


def test_a_long_exact_solve_says_so_while_it_runs(start):
    """A position the perfect player never reached itself (no book entry) takes seconds: the view says why."""
    config = MatchConfig(
        player_for(Colour.RED, "perfect", Mode.SPECTATOR),
        player_for(Colour.YELLOW, "perfect", Mode.SPECTATOR),
        DEFAULT,
        Colour.RED,
        "7472",  # off every book line, millions of positions to solve
    )
    driver = start()
    match = open_match(driver, config)
    driver.run_until(
        lambda: match.feeds.thinking.snapshot is not None and match.feeds.thinking.snapshot.nodes > 0,
        timeout=300,  # a cold start compiles the kernels first
        what="a snapshot of the solve",
    )
    assert match.feeds.thinking.snapshot.exact
    assert match.feeds.thinking.summary().startswith("exact solve · ")
    driver.key(pygame.K_n)  # a new game stops the solve


def test_review_labels_a_known_blunder_and_steps_with_the_keys(start):
    driver = start()
    match = open_match(driver, hotseat(BLUNDER_GAME[:-1]))
    driver.click_column(1)  # yellow wins
    driver.run_until(lambda: match.turns.model.board.is_over and match.turns.animations.idle, what="the end")
    driver.key(pygame.K_ESCAPE) if driver.scene is not match else None  # close the result banner if it is up
    driver.key(pygame.K_v)
    review = driver.scene_of_type("ReviewScene")
    assert isinstance(review, ReviewScene) and review.selected == 8
    driver.run_until(lambda: 7 in review.reviews and 8 in review.reviews, timeout=60, what="the last moves")
    blunder = review.reviews[7]
    assert (blunder.label, blunder.better) == ("blunder", 0)
    driver.key(pygame.K_LEFT)
    assert review.selected == 7
    assert review._board.move_string == BLUNDER_GAME[:7]
    driver.key(pygame.K_HOME)
    assert review.selected == 0
    driver.key(pygame.K_END)
    assert review.selected == 8
    driver.click(review.graph.midleft)  # a click on the graph jumps to that move
    assert review.selected == 0
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is match


def test_the_review_of_a_game_begun_from_a_grid_shows_its_discs_and_colours(start):
    """A pasted grid (one red disc: yellow to move) then 1212121: yellow wins in column 1."""
    grid = "\n".join(["-------"] * 5 + ["---X---"])
    config = replace(hotseat(), start_grid=grid)
    driver = start()
    match = open_match(driver, config)
    for move in "1212121":
        driver.click_column(int(move) - 1)
        driver.run_until(lambda: match.turns.animations.idle, what="the disc to land")
    assert match.turns.model.winner is Colour.YELLOW
    driver.key(pygame.K_ESCAPE) if driver.scene is not match else None  # close the result banner if it is up
    driver.key(pygame.K_v)
    review = driver.scene_of_type("ReviewScene")
    assert isinstance(review, ReviewScene)
    assert review._board == match.turns.model.board  # the final position: the grid's disc and seven more
    driver.key(pygame.K_HOME)
    assert review._board.cell(3, 0) is not None and review._board.ply == 1  # the grid, not the empty board
    assert [review.mover(ply) for ply in (1, 2, 7)] == [Colour.YELLOW, Colour.RED, Colour.YELLOW]
    driver.run_until(lambda: 7 in review.reviews, timeout=60, what="the winning move's review")
    assert review.reviews[7].label == "best" and review.reviews[7].after is not None and review.reviews[7].after > 0


def test_a_click_on_a_move_of_a_finished_game_opens_the_review_there(start):
    driver = start()
    match = open_match(driver, hotseat(""))
    for move in BLUNDER_GAME:
        driver.click_column(int(move) - 1)
        driver.run_until(lambda: match.turns.animations.idle, what="the disc to land")
    assert match.turns.model.board.is_over
    driver.key(pygame.K_ESCAPE) if driver.scene is not match else None  # close the result banner if it is up
    driver.step()
    third = next(rect for rect, index in match.view.move_list._cells if index == 2)
    driver.click(third.center)
    review = driver.scene_of_type("ReviewScene")
    assert isinstance(review, ReviewScene) and review.selected == 3
    assert review._board.move_string == BLUNDER_GAME[:3]


def test_leaving_the_match_stops_the_analysis(start):
    driver = start(show_analysis=True)
    match = open_match(driver, hotseat("74677651"))  # off the book: seconds of solving
    driver.run_until(
        lambda: match.feeds.analysis.snapshot is not None and match.feeds.analysis.snapshot.stage == "solve",
        timeout=60,
        what="the solver at work",
    )
    box = match.feeds.analysis.lane.current
    driver.key(pygame.K_ESCAPE)
    driver.run_until(lambda: box.finished, timeout=5, what="the analysis to stop")
    assert not box.latest.finished


def test_slow_agent_still_thinks_with_analysis_on(start):
    """The analysis runs on its own thread: the player's search is not queued behind it."""
    slow = SlowAgent(seconds=0.2)
    driver = start(show_analysis=True)
    config = MatchConfig(
        player_for(Colour.RED, "slow", Mode.SPECTATOR), player_for(Colour.YELLOW, "slow", Mode.SPECTATOR), DEFAULT
    )
    driver.app.make_agent = lambda spec: slow
    match = open_match(driver, config)
    driver.run_until(lambda: match.turns.model.moves_played >= 2, timeout=30, what="two computer moves")
    assert match.feeds.analysis.lane.current is not None


def test_the_key_to_the_short_forms_has_a_line_each_under_the_move_list(start):
    driver = start(show_analysis=True)
    match = open_match(driver, hotseat("4444"))
    driver.run_until(
        lambda: match.feeds.analysis.snapshot is not None and match.feeds.analysis.snapshot.finished, what="values"
    )
    key, moves, theme = match.feeds.analysis.key, match.view.move_list.rect, driver.app.theme
    assert key.top >= moves.bottom and key.left >= moves.left and key.right <= moves.right
    assert key.height == len(KEY) * theme.font(12).get_linesize()
    assert not any(key.colliderect(button.rect) for button in match.controls.form.widgets)
    codes = max(theme.font(12, True).size(code)[0] for code, _ in KEY) + theme.px(8)
    assert all(theme.font(12).size(meaning)[0] <= key.width - codes for _, meaning in KEY)  # nothing cut
    driver.key(pygame.K_a)  # the analysis off: the move list takes the room back
    assert match.view.move_list.rect.bottom > moves.bottom and match.feeds.analysis.key.height == 0


def test_an_estimate_that_rounds_to_zero_has_no_sign(start, monkeypatch):
    """The panel showed "≈ -0.0" for a value just below zero."""
    driver = start(show_analysis=True)
    match = open_match(driver, hotseat("44"))
    panel, theme = match.feeds.analysis, driver.app.theme
    values = (-0.04, 0.04, -0.3, 0.26, -0.049, 0.0, -0.051)
    panel.snapshot = PositionAnalysis(tuple(Score.estimate(value) for value in values), "unsolved", 30.0)
    drawn: list[str] = []
    draw_text = theme.draw_text
    monkeypatch.setattr(
        theme, "draw_text", lambda surface, text, *a, **k: drawn.append(text) or draw_text(surface, text, *a, **k)
    )
    panel.draw(driver.app.screen, theme, match.view.board, 2)
    chips = [text.removeprefix("≈ ") for text in drawn if any(char.isdigit() for char in text)]
    assert chips == ["0.0", "0.0", "-0.3", "+0.3", "0.0", "0.0", "-0.1"]


def test_the_key_is_never_cut_at_the_largest_text(start, monkeypatch):
    """At 150 % its lines read "win in 7 mo…": where "moves" does not fit, "win in 7" says it."""
    driver = start(show_analysis=True, text_scale=150, window_width=1024, window_height=720)
    match = open_match(driver, hotseat("4444"))
    driver.run_until(lambda: match.feeds.analysis.snapshot is not None, what="values")
    theme, drawn = driver.app.theme, []
    draw_text = theme.draw_text
    monkeypatch.setattr(
        theme, "draw_text", lambda surface, text, *a, **k: drawn.append(text) or draw_text(surface, text, *a, **k)
    )
    match.feeds.analysis._draw_key(driver.app.screen, theme)
    assert drawn == ["W7", "win in 7", "D", "draw", "L7", "loss in 7"]
