"""A player's mistakes as puzzles: the position before each, the moves that keep what it gave away.

A reviewed move labelled ``mistake`` or ``blunder`` (:mod:`engine.review`)
gave a win or a draw away. The position before it becomes a puzzle of "My
puzzles": the shipped kind where it is one (:func:`~engine.puzzles.finder.find`:
one answer, a win's every move), else a one-move puzzle whose ``solution``
is every column that keeps the value (every winning column of a won
position, every drawing column of a drawn one) and whose ``line`` is the
best of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from engine.board import Board
from engine.limits import NO_LIMITS, Limits
from engine.outcome import outcome
from engine.puzzles.finder import UNSOLVED, Exact, Unsolved, band_of, best_column, column_scores, find
from engine.puzzles.motifs import motifs_of
from engine.puzzles.puzzle import Puzzle, board_id, puzzle_id
from engine.review import MoveReview
from engine.solver.solver import sign

#: The first part of the id of a puzzle made from a player's game.
PREFIX = "mine"
#: The labels whose positions become puzzles.
LABELS = ("mistake", "blunder")


def prefix_for(board: Board) -> str:
    """``mine-7x6x4``: the id prefix of the puzzles of ``board``'s size made from a player's games."""
    return f"{PREFIX}-{board_id(board.geometry)}"


def lesson(board: Board, solver: Exact, limits: Limits = NO_LIMITS) -> Puzzle | Unsolved | None:
    """The puzzle of a player's position (see the module), None where the mover has nothing to keep
    (a lost position, or one where every column keeps it), :data:`UNSOLVED` past ``limits`` (each analysis)."""
    prefix = prefix_for(board)
    found = find(board, solver, limits, prefix)
    if found is not None or board.is_over or board.move_string is None:
        return found
    scores = column_scores(board, solver, limits)
    if isinstance(scores, Unsolved):
        return UNSOLVED
    legal = [score for score in scores if score is not None]
    best = max(legal)
    keep = tuple(col for col, score in enumerate(scores) if score is not None and sign(score) == sign(best))
    if best < 0 or len(keep) == len(legal):
        return None
    kind = "win" if best > 0 else "save"
    line = (best_column(scores),)
    if kind == "win":
        moves = outcome(best, board.ply, board.geometry).moves or 1
        plies = 2 * moves - 1
    else:
        plies = 2 * max(outcome(score, board.ply, board.geometry).moves or 0 for score in legal if score < 0)
        moves = None
    return Puzzle(
        puzzle_id(board, prefix),
        board.geometry,
        board.move_string,
        kind,
        keep,
        band_of(plies),
        motifs_of(board, kind, line, moves),
        line,
    )


def from_plies(
    board: Board, plies: Iterable[int], solver: Exact, limits: Callable[[], Limits] | None = None
) -> Iterator[Puzzle | Unsolved]:
    """The puzzle of the position before each of ``plies`` (1-based moves of ``board``'s game, in the order
    given; each position once; none where it has nothing to keep), each solved within ``limits()``."""
    positions = [board.root()]
    for col in board.history:
        positions.append(positions[-1].copy())
        positions[-1].play(col)
    seen: set[str] = set()
    for ply in plies:
        if not 0 < ply <= len(board.history):
            continue
        found = lesson(positions[ply - 1], solver, NO_LIMITS if limits is None else limits())
        if isinstance(found, Puzzle) and found.id in seen:
            continue
        if found is not None:
            if isinstance(found, Puzzle):
                seen.add(found.id)
            yield found


def mistake_plies(reviews: Iterable[MoveReview]) -> list[int]:
    """The plies of the mistakes and blunders among ``reviews``, in the order played."""
    return sorted(item.ply for item in reviews if item.label in LABELS)


def from_review(
    board: Board, reviews: Iterable[MoveReview], solver: Exact, limits: Limits = NO_LIMITS
) -> tuple[list[Puzzle], int]:
    """The puzzles of the mistakes and blunders of ``board``'s game (its reviews), once per position,
    in the order played, and how many positions were not solved within ``limits`` (each analysis)."""
    found = list(from_plies(board, mistake_plies(reviews), solver, lambda: limits))
    puzzles = [item for item in found if isinstance(item, Puzzle)]
    return puzzles, len(found) - len(puzzles)
