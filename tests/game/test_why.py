"""Why? and Show me, driven with real events: the reason in words and on the board, then played against."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NamedTuple

import pygame
import pytest

from engine.analysis_service import DECODERS, Service, item_data
from engine.stop import StopFlag
from game.jobs import Job
from game.model import Colour
from game.scenes.why import WhyScene
from game.theme import DISC
from tests.game.test_analysis_views import hotseat, open_match

#: Red to move cannot win (a draw): Yellow's claimeven in columns 1 and 6 stops every line of Red's.
CLAIMEVEN = "3324524346452572767551333257727114"
#: The position after CLAIMEVEN's first 20 moves: Red to move wins in column 4, and column 1 loses at once.
WON_GRID = "\n".join(["-------", "-------", "-O-XO--", "-XOXO-X", "-OOXOOX", "-XXOXOX"])


class InProcess:
    """The analysis process's service run in this process, at once: each item goes through the pipe's data."""

    def __init__(self) -> None:
        self.service = Service(io.StringIO())
        self.closed = False

    def start(self, job: Job[Any], work: Any) -> None:
        board, fields = work if isinstance(work, tuple) else (work, {})
        job.stop = StopFlag()
        try:
            for item in self.service.run(job.kind.value, board, job.stop, None, dict(fields)):
                job.report(DECODERS[job.kind.value](item_data(item)))
        except Exception as exc:  # what the process would send as its error line
            job.finish(error=f"{type(exc).__name__}: {exc}")
            return
        job.finish()

    def cancel(self, job: Job[Any]) -> None:
        pass

    def close(self) -> None:
        self.closed = True


class Runners(NamedTuple):
    """The in-process runners made so far, and how to make one (for the app's own analysis process too)."""

    made: list[InProcess]
    make: Callable[[], InProcess]


@pytest.fixture
def in_process(monkeypatch):
    """The Why screen's own analysis process, run in this process (a real one costs seconds to start)."""
    runners: list[InProcess] = []

    def make() -> InProcess:
        runners.append(InProcess())
        return runners[-1]

    monkeypatch.setattr("game.analysis_process.AnalysisProcess", make)
    return Runners(runners, make)


def open_why(driver, moves: str) -> WhyScene:
    match = open_match(driver, hotseat(moves))
    driver.key(pygame.K_y)
    why = driver.scene
    assert isinstance(why, WhyScene) and driver.scene_of_type("MatchScene") is match
    driver.run_until(lambda: why.why is not None or why.error, timeout=60, what="the reason")
    driver.step()
    return why


def test_y_shows_the_checked_reason_in_words_and_rings_on_the_board(start, in_process):
    driver = start(show_analysis=True)
    why = open_why(driver, CLAIMEVEN)
    assert why.why is not None and why.why.claim == "mover cannot win"
    assert why.why.brief == "Red cannot win: claimeven in columns 1 and 6"
    assert "(claimeven)" in why.why.text and why.show_button.enabled
    claimed = [cell for mark in why.why.marks if mark.kind == "claim" for cell in mark.cells]
    assert set(claimed) == {(0, 5), (5, 3), (5, 5)}  # a6, f4 and f6
    col, row = claimed[0]
    x, y = why.view.cell_centre(col, row)
    yellow, reach = tuple(DISC[why.colours[1]]), round(why.view.cell * 0.4)
    inside = [
        why.app.screen.get_at((round(x + dx), round(y + dy)))[:3]
        for dx in range(-reach, reach)
        for dy in range(-reach // 2, 0)  # (the upper half: the rule's label sits at the lower right)
    ]
    # the ring, in Yellow's colour, on that empty cell (nothing else there is yellow)
    assert min(sum(abs(a - b) for a, b in zip(pixel, yellow, strict=True)) for pixel in inside) < 40
    driver.key(pygame.K_ESCAPE)
    assert type(driver.scene).__name__ == "MatchScene" and in_process.made[0].closed


def test_show_me_answers_every_move_by_the_reason_and_it_holds(start, in_process):
    driver = start(show_analysis=True)
    why = open_why(driver, CLAIMEVEN)
    driver.key(pygame.K_s)
    assert why.game is not None and why.said[0] == "You play Red: try to break the reason."
    rules = []
    while not why.game.is_over:
        column = next(col for col in (5, 0, 2, 3, 4, 1, 6) if why.game.is_legal(col))
        driver.click(why.view.cell_centre(column, why.board.geometry.rows - 1))
        driver.run_until(lambda: why.answers.current is None, timeout=60, what="the program's answer")
        rules.append(why.said[-1])
    assert why.game.winner is None or int(why.game.winner) == 1  # Red never wins against the reason
    assert any("follow-up" in said or "claimeven" in said for said in rules)
    driver.key(pygame.K_s)  # again, from the start
    assert why.game.move_string == CLAIMEVEN


def test_the_why_button_beside_the_analysis_opens_the_same_screen(start, in_process):
    driver = start(show_analysis=True)
    match = open_match(driver, hotseat(CLAIMEVEN))
    assert match.controls.why_button in match.controls.form.widgets
    assert match.controls.why_button.rect.right < match.view.board.frame.x  # beside the board, under the values
    driver.press(match.controls.why_button)
    assert isinstance(driver.scene, WhyScene)


def test_the_review_says_in_one_sentence_why_a_blunder_was_one(start, in_process, monkeypatch):
    """The review (the analysis process's service, in this process) of a game from a pasted grid: Red throws
    a win away in column 1, Yellow wins in column 5; the blunder comes back with its reason, and Y opens the Why
    screen there."""
    monkeypatch.setattr("game.app.AnalysisProcess", in_process.make)
    driver = start()
    match = open_match(driver, replace(hotseat(), start_grid=WON_GRID))
    for move in "15":
        driver.click_column(int(move) - 1)
        driver.run_until(lambda: match.turns.animations.idle, what="the disc to land")
    assert match.turns.model.winner is Colour.YELLOW
    driver.key(pygame.K_ESCAPE) if driver.scene is not match else None  # the result banner
    driver.key(pygame.K_v)
    review = driver.scene_of_type("ReviewScene")
    driver.run_until(lambda: 1 in review.reviews and review.reviews[1].why, timeout=120, what="the blunder's why")
    blunder = review.reviews[1]
    assert blunder.label == "blunder"
    assert blunder.why == "now Yellow wins at once in column 5 (e2-e5)"
    review.go(1)
    driver.step()
    driver.key(pygame.K_y)
    assert isinstance(driver.scene, WhyScene) and driver.scene.board.ply == 21
