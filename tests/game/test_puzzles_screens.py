"""The Puzzles screens, My puzzles from a review and the opening explorer, driven by real events.

A small puzzle set of 6x5 is built once (the same finder as the shipped one)
and stands in for the shipped file; the player's progress is a file beside
the test's settings, read and written as the game does.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pygame
import pytest

from engine.analysis_service import lessons
from engine.board import Board
from engine.geometry import Geometry
from engine.puzzles import store
from engine.puzzles.build import build
from engine.puzzles.mistakes import lesson
from engine.puzzles.puzzle import from_json
from engine.review import MoveReview, review_game
from engine.solver.solver import Solver
from engine.stop import StopFlag
from game import autosave, puzzle_progress
from game.jobs import Lane
from game.lessons import Lessons
from game.match_model import MatchModel
from game.model import Colour, Mode
from game.players import MatchConfig, player_for
from game.puzzle_session import State
from game.scenes import puzzles as puzzles_screen
from game.scenes.explorer import ExplorerScene
from game.scenes.menu import MainMenu
from game.scenes.puzzle import PuzzleScene
from game.scenes.puzzles import PuzzlesScene
from game.scenes.result import ResultOverlay
from game.scenes.review import ReviewScene
from game.theme import Theme
from tests.game.test_layout import check
from tests.game.test_match import open_match
from tests.game.test_window import resize

SMALL = Geometry(6, 5)
DIGIT = {col: getattr(pygame, f"K_{col + 1}") for col in range(9)}


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("set") / "puzzles.txt"
    found, _ = build([SMALL], seed=4, games=4, per_band=4, progress=False)
    store.save(store.PuzzleSet(tuple(found), 4, 4, 4, ("6x5x4",)), path)
    return path


@pytest.fixture
def shipped(puzzle_file, monkeypatch) -> Path:
    """The small set in place of the shipped one, read afresh by this test's game."""
    monkeypatch.setattr(store, "DEFAULT_PATH", puzzle_file)
    monkeypatch.setattr(puzzle_progress, "_OPEN", {})
    puzzles_screen.shipped_set.cache_clear()
    yield puzzle_file
    puzzles_screen.shipped_set.cache_clear()


def open_puzzles(driver) -> PuzzlesScene:
    driver.app.reset("menu")
    driver.step()
    menu = driver.scene
    assert isinstance(menu, MainMenu)
    driver.press(menu.screens["puzzles"])
    assert isinstance(driver.scene, PuzzlesScene)
    return driver.scene


def saved_progress(settings_file) -> dict:
    assert autosave.KEEPER.flush(5)
    return json.loads(puzzle_progress.path_for(settings_file).read_text(encoding="utf-8"))


def wrong_column(scene: PuzzleScene) -> int:
    session = scene.session
    return next(col for col in session.board.legal_columns() if col not in session.answers())


def test_a_puzzle_by_keys_alone_a_wrong_try_says_why_hints_then_solved(start, shipped, settings_file):
    driver = start()
    chooser = open_puzzles(driver)
    driver.key(pygame.K_RETURN)  # the focus starts on Next puzzle
    scene = driver.scene
    assert isinstance(scene, PuzzleScene) and scene.puzzle.id == chooser.pick().id
    start_key = scene.session.board.key()
    wrong = wrong_column(scene)
    driver.key(DIGIT[wrong])
    assert scene.session.board.key() == start_key and scene.session.said.good is False
    driver.run_until(lambda: scene.session.pending is None, timeout=60, what="the reason of the wrong try")
    assert f"Column {wrong + 1}" in scene.session.said.text
    driver.key(pygame.K_h)
    assert scene.session.said.text.startswith("Hint:") and scene.arrow is None
    driver.key(pygame.K_h)
    assert scene.arrow == scene.session.answers()[0]
    while scene.session.state is not State.SOLVED:  # the arrows and Enter, answering the defence as it comes
        if scene.session.state is State.PLAYING:
            target = scene.session.answers()[0]
            while scene.cursor != target:
                driver.key(pygame.K_LEFT if scene.cursor > target else pygame.K_RIGHT)
            driver.key(pygame.K_RETURN)
        driver.step(3)
    data = saved_progress(settings_file)
    assert data["attempts"][scene.puzzle.id][:2] == [False, True]  # solved, not at the first try
    assert data["rating"] < puzzle_progress.START_RATING
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is chooser and "1 solved" in chooser.lines[0][0]


def test_solved_at_the_first_try_raises_the_rating_and_it_is_kept_across_runs(start, shipped, settings_file):
    driver = start()
    open_puzzles(driver).play_next()
    driver.step(2)
    scene = driver.scene
    assert isinstance(scene, PuzzleScene)
    hint = scene.buttons["hint"]
    scene.form.focus_on(hint)
    assert hint.enabled
    while scene.session.state is not State.SOLVED:
        if scene.session.state is State.PLAYING:
            driver.key(DIGIT[scene.session.answers()[0]])
        driver.step(3)
    assert not hint.enabled and scene.form.focused is scene.buttons["next_puzzle"]  # nothing left to hint at
    rating = saved_progress(settings_file)["rating"]
    assert rating > puzzle_progress.START_RATING
    driver.key(pygame.K_n)  # the next puzzle, a new attempt
    driver.step()
    assert scene.session.state is State.PLAYING and scene.session.step == 0 and hint.enabled
    again, problem = puzzle_progress.Progress.load(puzzle_progress.path_for(settings_file))
    assert problem == "" and round(again.rating, 1) == rating


def test_a_damaged_progress_file_is_set_aside_with_a_message(start, shipped, settings_file):
    path = puzzle_progress.path_for(settings_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "connect-four puzzle progress", "rating": ', encoding="utf-8")
    driver = start()
    chooser = open_puzzles(driver)
    assert path.with_name(path.name + ".bak").read_text(encoding="utf-8").endswith('"rating": ')
    assert any("could not be read" in text for text in driver.app.toasts.texts)
    assert chooser.next.enabled and chooser.progress.rating == puzzle_progress.START_RATING


def test_a_damaged_puzzle_set_is_one_message_and_my_puzzles_still_play(start, shipped, settings_file, tmp_path):
    damaged = tmp_path / "damaged.txt"
    damaged.write_text(shipped.read_text().replace('"kind":"win"', '"kind":"won"', 1))
    store.DEFAULT_PATH = damaged  # (the fixture puts it back)
    found, _ = build([SMALL], seed=9, games=1, per_band=2, progress=False)
    progress, _ = puzzle_progress.progress_at(puzzle_progress.path_for(settings_file))
    progress.add_mine(list(found))
    driver = start()
    chooser = open_puzzles(driver)
    assert "cannot be used" in chooser.lines[0][0] and not chooser.next.enabled
    assert damaged.read_text() != shipped.read_text()  # left as it was: nothing written over it
    driver.press(chooser.source)
    chooser.source.set_index(1)  # My puzzles
    driver.step()
    assert chooser.next.enabled
    driver.press(chooser.next)
    assert isinstance(driver.scene, PuzzleScene) and driver.scene.puzzle in found


def hotseat(geometry: Geometry) -> MatchConfig:
    ann, ben = player_for(Colour.RED, None, Mode.HOTSEAT, "Ann"), player_for(Colour.YELLOW, None, Mode.HOTSEAT, "Ben")
    return MatchConfig(ann, ben, geometry)


class InProcess:
    """Does a ``lessons`` job at once, in this process, as the analysis process would (its JSON in, puzzles out)."""

    def start(self, job, work) -> None:
        board, options = work
        for data in lessons(board, options["plies"], Solver(board.geometry, 16), StopFlag()):
            job.report(from_json(data))
        job.finish()

    def cancel(self, job) -> None:
        pass


class Held(InProcess):
    """A review's runner that leaves its job to the test: it reports and finishes it itself."""

    def start(self, job, work) -> None:
        pass


def test_lessons_are_asked_once_a_review_has_finished_and_only_of_the_peoples_mistakes(settings_file):
    """The fast sample of the next test: a finished review in, the people's mistakes kept as My puzzles."""
    board = Board.from_moves("3344556", SMALL)  # only the 4th move (Yellow's) is a mistake: it gives a draw away
    reviewed = list(review_game(board, Solver(SMALL, 16)))
    assert [item.ply for item in reviewed if item.label in ("mistake", "blunder")] == [4]
    said: list[str] = []
    for yellow in ("perfect", None):  # Yellow the computer (its slip is nobody's lesson), then a person
        config = MatchConfig(
            player_for(Colour.RED, "perfect", Mode.HUMAN_VS_AI),
            player_for(Colour.YELLOW, yellow, Mode.HOTSEAT, "Ben"),
            SMALL,
        )
        model = MatchModel(config)
        for col in board.history:
            model.play(col)
        reviews: Lane[MoveReview] = Lane(Held())
        review = reviews.submit(None, key=tuple(board.history), items=tuple(reviewed))
        lessons_of = Lessons(InProcess())
        lessons_of.follow(reviews, model, settings_file, lambda text, **_: said.append(text))
        assert lessons_of.added is None  # the review is not finished yet: nothing asked
        review.finish()
        lessons_of.follow(reviews, model, settings_file, lambda text, **_: said.append(text))
    mine = puzzle_progress.progress_at(puzzle_progress.path_for(settings_file))[0].mine
    assert [(p.position, p.solution) for p in mine] == [
        ("334", lesson(Board.from_moves("334", SMALL), Solver(SMALL, 16)).solution)
    ]
    assert lessons_of.added == 1 and said == ["1 mistake of yours became puzzles: Puzzles, then My puzzles."]


@pytest.mark.slow
def test_a_reviewed_games_mistakes_become_my_puzzles_within_seconds(start, shipped, settings_file):
    driver = start()
    match = open_match(driver, hotseat(SMALL))
    solver, board = Solver(SMALL, 16), Board(SMALL)
    while not board.is_over:  # both sides throw the game away: the worst column each time
        values = solver.analyze(board).scores
        worst = min(board.legal_columns(), key=lambda col: values[col].value)  # type: ignore[union-attr]
        match.turns.drop(worst)
        driver.settle()
        board.play(worst)
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result banner")
    progress = puzzle_progress.progress_at(puzzle_progress.path_for(settings_file))[0]
    driver.run_until(lambda: match.feeds.lessons.added is not None, timeout=120, what="the lessons")
    assert progress.mine and all(p.id.startswith("mine-6x5x4-") for p in progress.mine)
    assert any("became puzzles" in text for text in driver.app.toasts.texts)
    assert [p.to_json() for p in progress.mine] == saved_progress(settings_file)["mine"]


def test_the_explorer_from_a_game_and_from_its_review_walks_the_tree(start, shipped):
    geometry = Geometry(5, 4)
    driver = start()
    match = open_match(driver, hotseat(geometry))
    for col in (2, 2, 1):
        match.turns.drop(col)
        driver.settle()
    driver.key(pygame.K_e)
    explorer = driver.scene
    assert isinstance(explorer, ExplorerScene)
    driver.run_until(lambda: explorer.current is not None, timeout=60, what="the exploration")
    board = Board.from_moves("332", geometry)
    exact = Solver(geometry, 16).analyze(board).scores
    assert [value.score for value in explorer.current.columns] == [
        None if score is None else int(score.value) for score in exact
    ]
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_RETURN)  # play the column under the cursor, and explore on
    assert explorer.moves == (3,)
    driver.run_until(lambda: explorer.current is not None, timeout=60, what="the next exploration")
    driver.key(pygame.K_BACKSPACE)
    assert explorer.moves == () and explorer.current is not None  # known already: at once
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is match
    rng = random.Random(3)
    while not match.turns.model.board.is_over:
        match.turns.drop(rng.choice(match.turns.model.board.legal_columns()))
        driver.settle()
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result banner")
    driver.key(pygame.K_ESCAPE)
    match.show_review()
    driver.step(2)
    review = driver.scene
    assert isinstance(review, ReviewScene)
    driver.key(pygame.K_e)
    explorer = driver.scene
    assert isinstance(explorer, ExplorerScene) and not explorer.board.is_over
    assert explorer.board.history == match.turns.model.board.history[:-1]  # the game is over after the last


@pytest.mark.parametrize("scale", Theme.TEXT_SCALES)
def test_the_puzzle_and_explorer_screens_fit_at_every_text_size_and_look(start, shipped, scale):
    driver = start(text_scale=scale, look="high_contrast")
    window = (640, 480)
    resize(driver, window)
    open_puzzles(driver).play_next()
    driver.step(2)
    puzzle = driver.scene
    assert isinstance(puzzle, PuzzleScene)
    check(puzzle, window, {"board": puzzle.view.frame})
    driver.key(pygame.K_e)
    explorer = driver.scene
    assert isinstance(explorer, ExplorerScene)
    check(explorer, window, {"board": explorer.view.frame, "values": explorer.strip})
