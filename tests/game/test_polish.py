"""Small things a demanding player sees: words, counts, a lit button, one message for one problem."""

from __future__ import annotations

import pygame

from engine.agents.registry import agent_info
from engine.geometry import DEFAULT
from game.match import texts
from game.match.texts import status, wins_label
from game.model import Colour, Mode
from game.players import MatchConfig, player_for
from game.scenes.match import MatchScene
from game.scenes.review import ReviewScene, _value_lines
from tests.game.conftest import SlowAgent

#: Red could win in column 1 at move 7 and plays column 3; yellow then wins in column 2.
BLUNDER_GAME = "12121232"


def open_match(driver, config: MatchConfig) -> MatchScene:
    driver.step()
    match = MatchScene(driver.app, config)
    driver.app.push(match)
    driver.step()
    return match


def hotseat(moves: str = "", red: str = "", yellow: str = "") -> MatchConfig:
    return MatchConfig(
        player_for(Colour.RED, None, Mode.HOTSEAT, red),
        player_for(Colour.YELLOW, None, Mode.HOTSEAT, yellow),
        DEFAULT,
        Colour.RED,
        moves,
    )


def move(driver, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    driver.step()


def test_a_button_lit_by_the_pointer_goes_dark_when_the_pointer_leaves(start):
    driver = start()
    driver.step()
    menu = driver.scene
    keyboard = menu.form.focused
    assert keyboard is menu.play
    move(driver, menu.leave.rect.center)
    assert menu.form.focused is menu.leave and menu.form.hover is menu.leave
    move(driver, (2, 2))  # off every button
    assert menu.form.focused is keyboard and menu.form.hover is None
    move(driver, menu.leave.rect.center)
    driver.key(pygame.K_DOWN)  # the keyboard moves on from where the pointer put the focus: it stays
    chosen = menu.form.focused
    move(driver, (2, 2))
    assert menu.form.focused is chosen


def test_a_bad_settings_file_gives_one_message(start):
    driver = start(cols=99, look="sparkly")  # the look is caught when loading, the board when the engine is
    driver.wait_for_catalog()
    driver.step(3)
    texts = driver.app.toasts.texts
    assert len(texts) == 1 and "look" in texts[0] and "cols" in texts[0]


def test_names_in_the_headline_and_one_win_in_the_score(start):
    driver = start()
    match = open_match(driver, hotseat(BLUNDER_GAME[:-1], red="Ann"))
    assert status(match.turns)[0] == "Yellow to play"  # no name given: the colour
    driver.click_column(1)  # yellow wins
    driver.settle()
    driver.key(pygame.K_ESCAPE) if driver.scene is not match else None  # the result banner
    driver.key(pygame.K_n)
    driver.step()
    if driver.scene is not match:  # a new game may ask first
        driver.key(pygame.K_RETURN)
    assert match.turns.model.moves_played == 0
    if match.turns.model.colour_to_move is Colour.YELLOW:  # the new game's first move is yellow's
        driver.click_column(3)
        driver.settle()
    assert status(match.turns)[0] == "Ann to play"
    assert driver.app.tally.wins(Colour.YELLOW) == 1 and wins_label(1) == "win" and wins_label(2) == "wins"


def test_the_review_says_the_winning_move_won_the_game(start):
    driver = start()
    match = open_match(driver, hotseat(BLUNDER_GAME[:-1]))
    driver.click_column(1)
    driver.run_until(lambda: match.turns.model.board.is_over and match.turns.animations.idle, what="the end")
    driver.key(pygame.K_ESCAPE) if driver.scene is not match else None
    driver.key(pygame.K_v)
    review = driver.scene_of_type("ReviewScene")
    assert isinstance(review, ReviewScene)
    driver.run_until(lambda: 8 in review.reviews, timeout=240, what="the last move's review")  # a cold start compiles
    lines = _value_lines(review.reviews[8], DEFAULT)
    assert "After it: the game is won" in lines and not any("Win in 1" in line for line in lines[1:])
    assert lines[0] == "Before the move: Win in 1"  # before it, the win was one move away


def test_units_in_parameter_labels_are_written_as_units() -> None:
    labels = [param.label for param in agent_info("classroom").params]
    assert "Memory MB" in labels and "Output KB" in labels


def test_the_quick_game_names_a_board_that_is_not_four_in_a_row(start):
    driver = start(connect=5, cols=7, rows=6)
    driver.wait_for_catalog()
    driver.step(3)
    assert driver.scene.quick.detail.endswith("· 7×6, 5 in a row")


def test_a_player_badge_carries_no_disc_shape_over_its_figure(start):
    """Disc shapes (a cross, a ring) mark the discs on the board; on a badge they would cross the person."""
    start()  # a display for the pictures
    from game import drawing, pictures
    from game.model import Look
    from game.theme import DISC, use_look

    try:
        pictures_of, discs = {}, {}
        for shapes in (False, True):
            use_look(Look.HIGH_CONTRAST, shapes)
            pictures_of[shapes] = [
                pygame.image.tobytes(pictures._badge(colour, 26, human), "RGBA")
                for colour in Colour
                for human in (True, False)
            ]
            discs[shapes] = pygame.image.tobytes(drawing.disc(DISC[Colour.RED], 26), "RGBA")
        assert discs[True] != discs[False]  # the board's disc does carry its shape
        assert pictures_of[True] == pictures_of[False]
    finally:
        use_look(Look.STANDARD, False)


def test_a_long_label_beside_a_key_hint_is_never_cut(start):
    """A spectator's row of eight buttons at the default window: "Hide analysis" stays whole."""
    driver = start(window_width=1024, window_height=720, show_analysis=True)
    config = MatchConfig(
        player_for(Colour.RED, "slow", Mode.SPECTATOR), player_for(Colour.YELLOW, "slow", Mode.SPECTATOR), DEFAULT
    )
    driver.app.make_agent = lambda spec: SlowAgent(seconds=30)
    match = open_match(driver, config)
    button, theme = match.controls.analysis_button, driver.app.theme
    assert button.text == "Hide analysis"
    room = button.rect.width - theme.px(16)
    assert theme.font(15, True).size(button.text)[0] > room  # too wide beside its key hint...
    text, size, wrap = button.label_layout(theme)  # ...so it takes the whole button: smaller, or on two lines
    assert text == "Hide analysis" and (wrap or theme.font(size, True).size(text)[0] <= room)


def test_a_long_line_under_the_headline_wraps_instead_of_being_cut(start):
    driver = start(window_width=1024, window_height=720)
    match = open_match(driver, hotseat())
    theme, view = driver.app.theme, match.view
    room = view.panels[Colour.YELLOW].left - view.panels[Colour.RED].right - 2 * theme.px(12)
    long = "Hint: column 5 (from Perfect's best guess) · and a few more words to go past the room"
    text, size, wrap = texts.detail_layout(theme, long, room, view.headline.bottom - theme.px(68))
    assert text == long and size == 13 and wrap == room
    assert texts.detail_layout(theme, "Move 1", room, 100) == ("Move 1", 15, 0)


def test_the_preparing_note_sits_between_the_buttons_and_the_footer_at_every_text_size(start):
    """A first start's "preparing Medium…" line once ran over the footer's key hints at 150 % text."""
    for scale in (100, 125, 150):
        driver = start(window_width=1024, window_height=720, text_scale=scale, mode="hotseat")
        driver.step()
        driver.app.open("board_setup")
        driver.step()
        scene, theme = driver.scene, driver.app.theme
        height = driver.app.screen.get_height()
        middle, half = scene._note_y(height), theme.font(14).get_linesize() // 2
        assert max(widget.rect.bottom for widget in scene.form.widgets if widget.visible) <= middle - half
        assert middle + half <= height - theme.px(18) - theme.font(13).get_linesize()  # the footer's top


def test_a_first_start_says_which_part_it_prepares(start, monkeypatch):
    """The first move's kernels, then the rest: two waits at most, each named, neither called the whole."""
    from game.match.turns import TurnController

    driver = start()
    match = open_match(
        driver,
        MatchConfig(
            player_for(Colour.RED, None, Mode.HUMAN_VS_AI),
            player_for(Colour.YELLOW, "random", Mode.HUMAN_VS_AI),
            DEFAULT,
            Colour.YELLOW,
        ),
    )
    monkeypatch.setattr(TurnController, "preparing", property(lambda self: True))  # (as while it compiles)
    assert texts.detail(match.view)[0] == "First start: preparing Random's first move, once only"
    match.turns.model.play(3)
    match.turns.model.play(3)
    assert texts.detail(match.view)[0] == "First start: preparing the rest of Random, once only"


def test_a_players_name_gets_smaller_before_it_is_shortened(start, monkeypatch):
    """At 150 % text, with the score beside it, the panel read "Yellow pla…": a size smaller, it is whole."""
    driver = start(text_scale=150, window_width=880, window_height=620)
    match = open_match(driver, hotseat(BLUNDER_GAME[:-1]))
    driver.click_column(1)  # yellow wins: each panel now keeps a score beside the name
    driver.settle()
    theme, drawn = driver.app.theme, []
    draw_text = theme.draw_text
    monkeypatch.setattr(
        theme,
        "draw_text",
        lambda s, text, size, *a, **k: drawn.append((text, size)) or draw_text(s, text, size, *a, **k),
    )
    texts.draw_player(match.view, driver.app.screen, Colour.YELLOW)
    name = match.turns.config.player(Colour.YELLOW).name
    (shown,) = [(text, size) for text, size in drawn if text.startswith(name[:4])]
    assert shown[0] == name and shown[1] < 18  # whole, a size or two smaller
