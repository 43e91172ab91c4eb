"""Is a position a puzzle? The solver's exact values of every column decide it.

A position is a ``win`` puzzle when exactly one column wins and, along the
defence the program plays (the reply that loses slowest, the centre-most of
equal ones), the winner has exactly one winning column at each later turn
too; a ``save`` puzzle when no column wins and exactly one does not lose.
Anything else (two winning columns, a position where every move loses, a
win whose later moves are not unique) is no puzzle: a puzzle has one answer.

The band says how far ahead a player must see (:func:`band_of`): a win in N
takes 2N - 1 plies to see through; a save whose wrong moves lose at the
latest in k of the player's moves takes 2k.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from engine.board import Board
from engine.geometry import centre_order
from engine.limits import NO_LIMITS, Limits
from engine.outcome import outcome
from engine.puzzles.motifs import motifs_of
from engine.puzzles.puzzle import Puzzle, puzzle_id
from engine.solver.auto import AutoSolver
from engine.solver.solver import Solver

#: What answers a position's column values: the compiled solver, or the one way in (its table kept).
Exact: TypeAlias = Solver | AutoSolver

#: The longest win a puzzle asks for (in the winner's moves): beyond it, a player cannot be asked
#: to find every move, and the line's uniqueness costs many analyses.
MAX_WIN_MOVES = 12
#: Plies to see through that end each band (band 5: more than the last).
BAND_LIMITS = (2, 4, 6, 10)


@dataclass(frozen=True)
class Unsolved:
    """A position the solver did not finish within the limits: not a puzzle, and not known not to be one."""


UNSOLVED = Unsolved()


def band_of(plies: int) -> int:
    """The band (1 to 5) of a puzzle a player must see ``plies`` plies deep to solve."""
    for band, limit in enumerate(BAND_LIMITS, start=1):
        if plies <= limit:
            return band
    return len(BAND_LIMITS) + 1


def column_scores(board: Board, solver: Exact, limits: Limits) -> list[int | None] | Unsolved:
    """Every column's exact score for the mover (None: full), or :data:`UNSOLVED`."""
    analysis = solver.analyze(board, limits)
    if not analysis.finished:
        return UNSOLVED
    return [None if score is None else int(score.value) for score in analysis.scores]


def find(
    board: Board, solver: Exact, limits: Limits = NO_LIMITS, prefix: str | None = None
) -> Puzzle | Unsolved | None:
    """The puzzle at ``board`` (its id made with ``prefix``, see :func:`~engine.puzzles.puzzle.puzzle_id`),
    None if it is none, :data:`UNSOLVED` if the solver did not finish within ``limits`` (each analysis)."""
    if board.is_over or board.move_string is None or len(board.legal_columns()) < 2:
        return None
    scores = column_scores(board, solver, limits)
    if isinstance(scores, Unsolved):
        return UNSOLVED
    kind, column = _kind(scores)
    if kind is None or column is None:
        return None
    if kind == "save":
        wrong = [score for score in scores if score is not None and score < 0]
        latest = max(outcome(score, board.ply, board.geometry).moves or 0 for score in wrong)
        line: tuple[int, ...] = (column,)
        plies = 2 * latest
    else:
        found = win_line(board, column, solver, limits)
        if not isinstance(found, tuple):
            return found
        line, plies = found, len(found)
    return Puzzle(
        puzzle_id(board, prefix),
        board.geometry,
        board.move_string,
        kind,
        (column,),
        band_of(plies),
        motifs_of(board, kind, line),
        line,
    )


def win_line(board: Board, column: int, solver: Exact, limits: Limits) -> tuple[int, ...] | Unsolved | None:
    """The line of a win starting with ``column`` (the one winning column of ``board``), the program
    defending; None if the winner has two winning columns at a later turn, or the win is too long."""
    board = board.copy()
    line = [column]
    while not board.is_winning_move(line[-1]):
        if len(line) >= 2 * MAX_WIN_MOVES - 1:
            return None
        board.play(line[-1])
        replies = column_scores(board, solver, limits)
        if isinstance(replies, Unsolved):
            return UNSOLVED
        defence = best_column(replies)
        board.play(defence)
        line.append(defence)
        scores = column_scores(board, solver, limits)
        if isinstance(scores, Unsolved):
            return UNSOLVED
        kind, winning = _kind(scores)
        if kind != "win" or winning is None:
            return None
        line.append(winning)
    return tuple(line)


def best_column(scores: Sequence[int | None]) -> int:
    """The column of the highest score, the centre-most of equal ones: the program's defence."""
    legal = [col for col in centre_order(len(scores)) if scores[col] is not None]
    return max(legal, key=lambda col: scores[col])  # type: ignore[arg-type, return-value]


def _kind(scores: Sequence[int | None]) -> tuple[str | None, int | None]:
    """("win", the column) when one column alone wins, ("save", it) when none wins and one alone
    does not lose, else (None, None)."""
    winning = [col for col, score in enumerate(scores) if score is not None and score > 0]
    if len(winning) == 1:
        return "win", winning[0]
    holding = [col for col, score in enumerate(scores) if score is not None and score == 0]
    if not winning and len(holding) == 1:
        return "save", holding[0]
    return None, None
