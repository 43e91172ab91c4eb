"""One puzzle being played: whose turn, what was tried, what the player is told (no pygame).

The player moves the side to move of the puzzle's position. A right move is
played; in a win in N the program then answers with its defence (the next
move of the puzzle's proven line, after a pause the screen keeps) until the
winning stone. A wrong move is not played: the position stays, the session
says so at once, and why once the engine has told the screen the values of
the position's columns (:meth:`PuzzleSession.explain`): "only draws", "loses:
Yellow wins in 3", or at once "lets Yellow win at once" when the reply is
plain to see. Hints come in two steps: what to look for (the motifs), then
the column. The attempt counts for the rating when it ends
(:mod:`game.puzzle_progress`): solved at the first try without a hint is a
win, anything else a loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.outcome import outcome
from engine.puzzles.puzzle import Puzzle
from game.model import Colour

MOTIF_HINTS = {
    "forced-block": "the opponent threatens to win next: look where",
    "double-threat": "make two threats the opponent cannot both stop",
    "odd-threat": "a threat on an odd row wins in the end, when the opponent must play below it",
    "claimeven": "answer on top of the opponent's moves: they cannot get a line",
}


class State(str, Enum):
    PLAYING = "playing"  # the player's move
    REPLYING = "replying"  # the program's defence is due
    SOLVED = "solved"


@dataclass
class Said:
    """What the screen shows under the board: a sentence and whether it is good news."""

    text: str
    good: bool | None = None  # True: right, False: wrong, None: neutral


class PuzzleSession:
    """The state of one attempt at ``puzzle``, played as ``colour`` (the side to move)."""

    def __init__(self, puzzle: Puzzle, colour: Colour = Colour.RED) -> None:
        self.puzzle = puzzle
        self.colour = colour
        self.board = puzzle.board
        self.step = 0  # moves of the line played
        self.state = State.PLAYING
        self.wrong = 0  # wrong tries
        self.hints = 0
        self.said = Said(self.task())
        self.pending: int | None = None  # a wrong column whose "why" waits for the engine

    @property
    def first_try(self) -> bool:
        return self.wrong == 0 and self.hints == 0

    @property
    def opponent(self) -> Colour:
        return self.colour.other

    def task(self) -> str:
        puzzle = self.puzzle
        if puzzle.kind == "save":
            return f"{self.colour.label} to play: find the only move that does not lose."
        moves = next((int(m.removeprefix("win-in-")) for m in puzzle.motifs if m.startswith("win-in-")), 0)
        if len(puzzle.line) == 1 and len(puzzle.solution) > 1:
            return f"{self.colour.label} to play and keep the win."
        if moves > 1 and len(puzzle.line) > 1:
            return f"{self.colour.label} to play and win in {moves}: find every move."
        return f"{self.colour.label} to play and win."

    def answers(self) -> tuple[int, ...]:
        """The columns that are right now."""
        return self.puzzle.solution if self.step == 0 else (self.puzzle.line[self.step],)

    def play(self, col: int) -> bool:
        """The player drops in ``col``; True if it was right (and is played)."""
        if self.state is not State.PLAYING or not self.board.is_legal(col):
            return False
        if col not in self.answers():
            self.wrong += 1
            plain = self._at_once(col)
            self.pending = None if plain else col  # (the engine is asked only when the reason is not plain)
            self.said = Said(plain or f"Column {col + 1} is not it…", False)
            return False
        self.pending = None
        self.board.play(col)
        self.step += 1
        if self.board.winner is not None or self.step >= len(self.puzzle.line):
            self.state = State.SOLVED
            self.said = Said(self._solved_text(), True)
        else:
            self.state = State.REPLYING
            self.said = Said(f"Right. {self.opponent.label} defends…", True)
        return True

    def reply(self) -> int | None:
        """The program's defence (the line's next move), when it is due; the column played."""
        if self.state is not State.REPLYING:
            return None
        col = self.puzzle.line[self.step]
        self.board.play(col)
        self.step += 1
        self.state = State.PLAYING
        self.said = Said(f"{self.opponent.label} played column {col + 1}. Your move.")
        return col

    def explain(self, board_key: int, scores: list[int | None]) -> None:
        """The engine's values of the columns of the position ``board_key``: say why the pending try was wrong."""
        col = self.pending
        if col is None or board_key != self.board.key() or scores[col] is None:
            return
        self.pending = None
        value = scores[col]
        assert value is not None
        result = outcome(value, self.board.ply, self.board.geometry)
        if result.kind == "draw":
            why = "only draws"
        elif result.kind == "win":
            why = f"wins too, but slower ({result.words.lower()})"
        elif result.moves == 1:
            why = f"loses: {self.opponent.label} then wins at once"
        else:
            why = f"loses: {self.opponent.label} wins in {result.moves} moves"
        self.said = Said(f"Column {col + 1} {why}. Try again.", False)

    def hint(self) -> int | None:
        """The next hint: first what to look for, then the column (returned, for the board's arrow)."""
        if self.state is not State.PLAYING:
            return None
        self.hints += 1
        if self.hints == 1:
            ideas = [MOTIF_HINTS[m] for m in self.puzzle.motifs if m in MOTIF_HINTS]
            self.said = Said("Hint: " + (ideas[0] if ideas else "look at every column's reply") + ".")
            return None
        col = self.answers()[0]
        self.said = Said(f"Hint: column {col + 1}.")
        return col

    def _at_once(self, col: int) -> str:
        """Why ``col`` is wrong when it needs no search: the opponent wins with the next stone."""
        board = self.board.copy()
        board.play(col)
        if board.is_over:
            return ""
        winning = [c for c in board.legal_columns() if board.is_winning_move(c)]
        if winning:
            return f"Column {col + 1} lets {self.opponent.label} win at once in column {winning[0] + 1}. Try again."
        return ""

    def _solved_text(self) -> str:
        if self.board.winner is not None:
            return "Solved: four in a row!"
        if self.puzzle.kind == "save":
            return f"Solved: column {self.puzzle.solution[0] + 1} holds the draw."
        return "Solved: the win is yours."
