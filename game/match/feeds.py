"""What feeds the match's panels: the live analysis, the thinking computer's search, and the game review.

Each is background work the match follows in its update (see :mod:`game.jobs`):
the analysis and the review are jobs of the analysis process, the thinking
view reads the searching agent's progress. :meth:`Feeds.follow` keeps them in
step with the turn controller; the panels then draw what it saw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.jobs import Kind, Lane, Runner
from game.lessons import Lessons
from game.panels.analysis import AnalysisPanel
from game.panels.thinking import ThinkingPanel

if TYPE_CHECKING:
    from engine.board import Board
    from engine.review import MoveReview
    from game.match.turns import TurnController


class Feeds:
    """The analysis panel, the thinking view and the review of one match."""

    def __init__(self, analysis_process: Runner) -> None:
        self.analysis = AnalysisPanel(analysis_process)
        self.thinking = ThinkingPanel()
        self.review: Lane[MoveReview] = Lane(analysis_process)
        self.lessons = Lessons(analysis_process)  # the people's mistakes as puzzles, once reviewed

    def follow(self, turns: TurnController, analyzing: bool) -> tuple[bool, bool]:
        """Follow the position with the analysis (if ``analyzing``) and the thinking computer's search with
        the thinking view; whether each has something new to show."""
        analysis = analyzing and self.analysis.follow(turns.model.board)
        thinking = self.thinking.update(turns.time, turns.thinker)  # its line, its shares, its summary
        return analysis, thinking

    def start_review(self, board: Board, names: tuple[str, str] = ("Red", "Yellow")) -> None:
        """Review the game in the analysis process (it fills in as positions are solved, its mistakes say
        why); ``names``: the players' colours, the first player's first. Idempotent."""
        self.review.keep(tuple(board.history), (board, {"names": list(names)}), kind=Kind.REVIEW)

    def stop(self) -> None:
        """The match closes: the analysis, the review and its lessons stop."""
        self.analysis.stop()
        self.review.cancel()
        self.lessons.stop()
