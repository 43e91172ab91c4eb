"""Frames drawn only because something moves show only the parts that move, and the picture stays right."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from engine.progress import Progress
from game.settings import Colour
from tests.game.conftest import SlowAgent
from tests.game.test_match import config, open_match


def record_presents(monkeypatch) -> list[list[pygame.Rect] | None]:
    """What each frame handed to the display: a list of rectangles, or None for the whole window."""
    shown: list[list[pygame.Rect] | None] = []
    update, flip = pygame.display.update, pygame.display.flip

    def partial(area=None):
        shown.append(None if area is None else [pygame.Rect(rect) for rect in area])
        update(area)

    def whole():
        shown.append(None)
        flip()

    monkeypatch.setattr(pygame.display, "update", partial)
    monkeypatch.setattr(pygame.display, "flip", whole)
    return shown


def assert_screen_as_if_drawn_whole(driver) -> None:
    """What is on screen is what a whole redraw of the same moment gives."""
    shown_pixels = pygame.image.tobytes(driver.app.screen, "RGB")
    driver.app._draw()
    assert pygame.image.tobytes(driver.app.screen, "RGB") == shown_pixels


def test_a_falling_disc_and_a_thinking_computer_redraw_only_their_parts(start, monkeypatch):
    shown = record_presents(monkeypatch)
    slow = SlowAgent(seconds=60)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config(None, "slow"))
    driver.click_column(3)  # an input event: that frame is whole
    assert shown[-1] is None
    shown.clear()
    driver.run_until(lambda: match.animations.idle and slow.started.is_set(), what="the disc to land")
    driver.step(12)  # the computer thinks: its panel's clock runs
    partial = [area for area in shown if area is not None]
    assert len(partial) >= 10
    buttons = match.form.widgets
    for area in partial:  # never the buttons, the move list or the other player's panel
        for rect in area:
            assert not any(rect.colliderect(button.rect) for button in buttons)
            assert not rect.colliderect(match.move_list.rect)
            assert not rect.colliderect(match.panels[Colour.RED])
    assert any(any(rect.colliderect(match.view.frame) for rect in area) for area in partial)  # the falling disc
    assert all(match.panels[Colour.YELLOW] in area for area in partial[-5:])  # the thinking computer's clock

    assert_screen_as_if_drawn_whole(driver)


def test_any_other_change_redraws_the_whole_window(start, monkeypatch):
    shown = record_presents(monkeypatch)
    slow = SlowAgent(seconds=60)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config(None, "slow"))
    driver.click_column(3)
    driver.run_until(lambda: slow.started.is_set() and match.animations.idle, what="the computer to think")
    driver.step(3)
    assert shown[-1] is not None  # thinking alone: partial
    driver.app.notify("A message")
    driver.step()
    assert shown[-1] is None
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
    driver.step()
    assert shown[-1] is None


def test_a_falling_disc_shows_only_its_column_and_the_picture_stays_right(start, monkeypatch):
    shown = record_presents(monkeypatch)
    driver = start()
    match = open_match(driver, config(None, None))
    driver.click_column(3)
    shown.clear()
    driver.step(3)  # the disc is still in flight
    assert not match.animations.idle
    partial = [area for area in shown if area is not None]
    assert partial
    left, right = (match.view.cell_centre(col, 0)[0] for col in (2, 4))  # the neighbouring columns' centres
    for area in partial:
        for rect in area:
            assert left < rect.left and rect.right < right  # column 4 only
    assert_screen_as_if_drawn_whole(driver)


@dataclass
class PublishingAgent(SlowAgent):
    """Thinks until stopped, publishing a new snapshot every time it is asked."""

    looks: int = 0

    def progress(self) -> Progress | None:
        self.looks += 1
        return Progress(seconds=0.1 * self.looks, nodes=1000 * self.looks, best_column=2, pv=(2, 3, 2))


def test_news_from_the_search_redraws_the_board_and_headline_but_not_the_whole_window(start, monkeypatch):
    shown = record_presents(monkeypatch)
    agent = PublishingAgent(seconds=60)
    driver = start(agents={"publishing": agent})
    match = open_match(driver, config(None, "publishing"))
    driver.click_column(3)
    driver.run_until(lambda: agent.looks >= 2 and match.animations.idle, what="the search's news")
    shown.clear()
    looks = agent.looks
    driver.run_until(lambda: agent.looks > looks + 1, what="more news")
    assert all(area is not None for area in shown)  # never a whole frame for it
    assert any(any(rect.contains(match.view.frame) for rect in area) for area in shown)  # the board with its line
    assert_screen_as_if_drawn_whole(driver)
