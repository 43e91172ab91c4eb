"""Frames drawn only because something moves show only the parts that move, and the picture stays right."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pygame
import pytest

from engine.agents.base import SearchResult
from engine.board import Board
from engine.progress import Progress
from engine.stop import StopFlag
from game.model import Colour
from tests.game.conftest import SlowAgent
from tests.game.test_match import config, open_match


class Window:
    """What a real window shows: only what each frame handed to the display."""

    def __init__(self, monkeypatch) -> None:
        self.frames: list[list[pygame.Rect] | None] = []  # each frame's parts, or None for the whole window
        self.picture: pygame.Surface | None = None
        update, flip = pygame.display.update, pygame.display.flip

        def partial(area=None):
            self.frames.append(None if area is None else [pygame.Rect(rect) for rect in area])
            update(area)
            self._copy(area)

        def whole():
            self.frames.append(None)
            flip()
            self._copy(None)

        monkeypatch.setattr(pygame.display, "update", partial)
        monkeypatch.setattr(pygame.display, "flip", whole)

    def _copy(self, area) -> None:
        surface = pygame.display.get_surface()
        if area is None or self.picture is None:
            self.picture = surface.copy()
        else:
            for rect in area:
                self.picture.blit(surface, rect, rect)

    @property
    def partial(self) -> list[list[pygame.Rect]]:
        return [area for area in self.frames if area is not None]


def assert_shown_as_if_drawn_whole(driver, window: Window) -> None:
    """What the window shows is what a whole redraw of the same moment gives."""
    assert window.picture is not None
    driver.app._draw()
    assert pygame.image.tobytes(window.picture, "RGB") == pygame.image.tobytes(driver.app.screen, "RGB")


def test_a_falling_disc_and_a_thinking_computer_redraw_only_their_parts(start, monkeypatch):
    window = Window(monkeypatch)
    slow = SlowAgent(seconds=60)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config(None, "slow"))
    driver.click_column(3)  # an input event: that frame is whole
    assert window.frames[-1] is None
    window.frames.clear()
    driver.run_until(lambda: match.turns.animations.idle and slow.started.is_set(), what="the disc to land")
    driver.step(12)  # the computer thinks: its panel's clock runs
    partial = window.partial
    assert len(partial) >= 10
    buttons = match.controls.form.widgets
    for area in partial:  # never the buttons, the move list or the other player's panel
        for rect in area:
            assert not any(rect.colliderect(button.rect) for button in buttons)
            assert not rect.colliderect(match.view.move_list.rect)
            assert not rect.colliderect(match.view.panels[Colour.RED])
    assert any(any(rect.colliderect(match.view.board.frame) for rect in area) for area in partial)  # the falling disc
    assert all(match.view.panels[Colour.YELLOW] in area for area in partial[-5:])  # the thinking computer's clock

    assert_shown_as_if_drawn_whole(driver, window)


def test_any_other_change_redraws_the_whole_window(start, monkeypatch):
    window = Window(monkeypatch)
    slow = SlowAgent(seconds=60)
    driver = start(agents={"slow": slow})
    match = open_match(driver, config(None, "slow"))
    driver.click_column(3)
    driver.run_until(lambda: slow.started.is_set() and match.turns.animations.idle, what="the computer to think")
    driver.step(3)
    assert window.frames[-1] is not None  # thinking alone: partial
    driver.app.notify("A message")
    driver.step()
    assert window.frames[-1] is None
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
    driver.step()
    assert window.frames[-1] is None


def test_a_falling_disc_shows_only_its_column_and_the_picture_stays_right(start, monkeypatch):
    window = Window(monkeypatch)
    driver = start()
    match = open_match(driver, config(None, None))
    driver.click_column(3)
    window.frames.clear()
    driver.step(3)  # the disc is still in flight
    assert not match.turns.animations.idle
    partial = window.partial
    assert partial
    left, right = (match.view.board.cell_centre(col, 0)[0] for col in (2, 4))  # the neighbouring columns' centres
    for area in partial:
        for rect in area:
            assert left < rect.left and rect.right < right  # column 4 only
    assert_shown_as_if_drawn_whole(driver, window)


@dataclass
class PublishingAgent(SlowAgent):
    """Thinks until stopped, publishing a new snapshot every time it is asked: its line changes each time."""

    looks: int = 0

    def progress(self) -> Progress | None:
        self.looks += 1
        line = (2, 3, 2) if self.looks % 2 else (5, 5, 6, 0)
        return Progress(seconds=0.1 * self.looks, nodes=1000 * self.looks, best_column=line[0], pv=line)


def test_news_from_the_search_redraws_its_line_and_summary_but_not_the_whole_window(start, monkeypatch):
    window = Window(monkeypatch)
    agent = PublishingAgent(seconds=60)
    driver = start(agents={"publishing": agent})
    match = open_match(driver, config(None, "publishing"))
    driver.click_column(3)
    driver.run_until(lambda: agent.looks >= 2 and match.turns.animations.idle, what="the search's news")
    window.frames.clear()
    looks = agent.looks
    driver.run_until(lambda: agent.looks > looks + 1, what="more news")
    assert all(area is not None for area in window.frames)  # never a whole frame for it
    assert not any(
        any(rect.contains(match.view.board.frame) for rect in area) for area in window.frames
    )  # not the board
    shown = [rect for area in window.frames for rect in area]
    for col, row in ((2, 0), (3, 1), (5, 0), (5, 1), (6, 0), (0, 0)):  # both lines' discs, one after the other
        assert any(rect.contains(match.view.board.part_area((col, row))) for rect in shown)
    assert_shown_as_if_drawn_whole(driver, window)


@dataclass
class QuickAgent(PublishingAgent):
    """Plays its first legal column after a few looks at its search."""

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        looks = self.looks
        while self.looks < looks + 2 and not stop.is_set():
            time.sleep(0.002)
        return SearchResult(column=board.legal_columns()[0], nodes=1)


@pytest.mark.parametrize("analysis", [False, True])
def test_moves_between_two_computers_redraw_only_what_they_change(start, monkeypatch, analysis):
    window = Window(monkeypatch)
    driver = start(agents={"red": QuickAgent(), "yellow": QuickAgent()}, show_analysis=analysis)
    match = open_match(driver, config("red", "yellow"))
    if analysis:  # paused until the analysis process has answered (its start takes real time; the moves do not)
        driver.key(pygame.K_SPACE)
        driver.run_until(lambda: match.feeds.analysis.snapshot is not None, timeout=60, what="the first analysis")
        driver.key(pygame.K_SPACE)
    driver.step(3)
    window.frames.clear()
    moves: list[list[pygame.Rect]] = []
    while len(moves) < 5:
        played = match.turns.model.moves_played
        driver.step()
        assert window.frames[-1] is not None  # nothing but the game changed: never the whole window
        assert_shown_as_if_drawn_whole(driver, window)
        if match.turns.model.moves_played != played:
            moves.append(window.frames[-1])
            move_list = match.view.move_list  # the move just played shows in the list
            latest = next(cell for cell, index in move_list._cells if move_list.entries[index].current)
            assert any(rect.contains(latest) for rect in moves[-1])
    for area in moves:  # both panels and the headline; of the board and the move list only what changed
        assert all(any(rect.contains(panel) for rect in area) for panel in match.view.panels.values())
    for area in moves[1:]:  # (the first move replaced "No moves yet": the whole list)
        assert not any(rect.contains(match.view.move_list.rect) for rect in area)
        assert not any(rect.contains(match.view.board.frame) for rect in area)
    assert not any(
        rect.colliderect(button.rect)
        for area in window.partial
        for rect in area
        for button in match.controls.form.widgets
    )
    driver.run_until(lambda: match.turns.model.moves_played >= 8 and match.turns.animations.idle, what="more moves")
    assert_shown_as_if_drawn_whole(driver, window)


def test_the_computers_reply_to_a_person_shows_right_frame_by_frame(start, monkeypatch):
    window = Window(monkeypatch)
    driver = start(agents={"quick": QuickAgent()})
    match = open_match(driver, config(None, "quick"))
    for column in (3, 4):
        driver.click_column(column)
        window.frames.clear()
        while not (match.turns.model.human_to_move and match.turns.animations.idle):
            driver.step()
            assert_shown_as_if_drawn_whole(driver, window)  # the disc in hand comes back when the reply lands
        assert window.frames and all(area is not None for area in window.frames)
