"""A reviewed game's mistakes, the people's, as "My puzzles": asked of the analysis process once the review is done.

When a match's review (:mod:`engine.review`, in the analysis process) has
labelled every move, the positions before the mistakes and blunders of the
people who played go back to the same process as a ``lessons`` job
(:mod:`engine.analysis_service`; its table is still warm from the review, and
the job takes at most :data:`~engine.analysis_service.LESSONS_SECONDS`). The
puzzles that come back are added to the player's progress
(:mod:`game.puzzle_progress`), and a message says how many, pointing to
Puzzles, My puzzles. The match and the review screen both call
:meth:`Lessons.follow` each update, so this happens whichever is on top.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.board import Side
from game.jobs import Kind, Lane, Runner
from game.model import plural

if TYPE_CHECKING:
    from engine.puzzles.puzzle import Puzzle
    from engine.review import MoveReview
    from game.match_model import MatchModel

LABELS = ("mistake", "blunder")


class Lessons:
    """The lessons of the current game: asked once per finished review, kept once back."""

    def __init__(self, runner: Runner) -> None:
        self.lane: Lane[Puzzle] = Lane(runner)
        self._asked: object = None  # the game (its moves) whose lessons were asked for
        self.added: int | None = None  # how many new puzzles the last game gave (None: not back yet)

    def follow(
        self,
        review: Lane[MoveReview],
        model: MatchModel,
        settings_path: Path | None,
        notify: Callable[..., Any],
    ) -> None:
        """Ask for the lessons when ``review`` has finished, and keep them when they are back."""
        job = review.current
        board = model.board
        key = (board.geometry, tuple(board.history))
        if (
            job is not None
            and job.finished
            and not job.error
            and job.key == tuple(board.history)
            and key != self._asked
        ):
            self._asked, self.added = key, None
            plies = people_mistakes(job.items, model)
            if plies:
                self.lane.submit((board, {"plies": plies}), kind=Kind.LESSONS, key=key)
        done = self.lane.poll()
        if done is not None and done.key == self._asked:
            self._keep(list(done.items), settings_path, notify)

    def _keep(self, puzzles: list[Puzzle], settings_path: Path | None, notify: Callable[..., Any]) -> None:
        from game.puzzle_progress import path_for, progress_at

        progress, problem = progress_at(path_for(settings_path))
        if problem:
            notify(problem, error=True)
        self.added = progress.add_mine(puzzles)
        if self.added:
            notify(f"{plural(self.added, 'mistake')} of yours became puzzles: Puzzles, then My puzzles.")

    def stop(self) -> None:
        self.lane.cancel()


def people_mistakes(reviews: list[MoveReview], model: MatchModel) -> list[int]:
    """The plies (1-based) of the mistakes and blunders made by people (not by the computer)."""
    root = model.board.root().ply
    newest = {item.ply: item for item in reviews}  # (a move unknown at first is labelled again later)
    plies = []
    for ply, item in sorted(newest.items()):
        colour = model.colour_of(Side((root + ply - 1) % 2))
        if item.label in LABELS and model.config.player(colour).is_human:
            plies.append(ply)
    return plies
