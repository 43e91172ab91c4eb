"""Every puzzle checked again by the solver: the same position must make the same puzzle.

The check runs what made the puzzle (:func:`~engine.puzzles.finder.find`
for the shipped set, :func:`~engine.puzzles.mistakes.lesson` for a player's
own) on its position afresh and compares every field: the kind, the
solution, the whole line of a win (so the defence and each later move are
proven again), the band and the motifs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.limits import NO_LIMITS, Limits
from engine.puzzles.finder import Unsolved, find
from engine.puzzles.mistakes import PREFIX, lesson
from engine.puzzles.puzzle import Puzzle
from engine.solver.solver import Solver


def check(puzzle: Puzzle, solver: Solver, limits: Limits = NO_LIMITS) -> str | None:
    """What is wrong with ``puzzle`` (one line), or None if the solver makes the very same puzzle."""
    board = puzzle.board
    if puzzle.id.startswith(f"{PREFIX}-"):
        again = lesson(board, solver, limits)
    else:
        again = find(board, solver, limits, puzzle.id.rsplit("-", 1)[0])
    if isinstance(again, Unsolved):
        return f"{puzzle.id}: not solved within the limits"
    if again is None:
        return f"{puzzle.id}: position {puzzle.position} is no puzzle"
    if again != puzzle:
        wrong = [name for name, value in again.to_json().items() if puzzle.to_json()[name] != value]
        return f"{puzzle.id}: its {', '.join(wrong)} should be " + ", ".join(
            f"{again.to_json()[name]}" for name in wrong
        )
    return None


def check_all(puzzles: Iterable[Puzzle], progress: Callable[[int], None] | None = None) -> list[str]:
    """The problems of every puzzle, in order: solved afresh by one solver per board, without the opening
    book (so that the check does not lean on what the book holds)."""
    solvers: dict[object, Solver] = {}
    problems = []
    for index, puzzle in enumerate(puzzles):
        if puzzle.geometry not in solvers:
            solvers[puzzle.geometry] = Solver(puzzle.geometry, 64)
        problem = check(puzzle, solvers[puzzle.geometry])
        if problem is not None:
            problems.append(problem)
        if progress is not None:
            progress(index + 1)
    return problems
