"""What an assignment is made of: questions, their cases, and the verdict on one answer.

An :class:`Assignment` (one module per seed: :mod:`engine.grade.seed000` ...)
lists its :class:`Question` objects, named after the seed's own functions. A
question makes its :class:`Case` objects from a seed (the seed's own examples
first, then hidden ones drawn from the seed), each one call of the student's
function as the grading child runs it (``request``, plain JSON data), with
what the reference answers (``expected``, kept on this side). ``check`` turns
the child's reply into a :class:`Verdict`: a share of the case's points and,
when short of all of them, one message saying what differs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Reply = Mapping[str, Any]


@dataclass(frozen=True)
class Verdict:
    """The mark of one case: ``score`` is the share of its points (0 to 1); ``message`` says what is wrong."""

    score: float
    message: str = ""
    #: A search that left the reference's: plain data to draw it (see :mod:`engine.grade.pictures`).
    divergence: Mapping[str, Any] | None = None

    @classmethod
    def right(cls) -> Verdict:
        return cls(1.0)

    @classmethod
    def wrong(cls, message: str) -> Verdict:
        return cls(0.0, message)


@dataclass(frozen=True)
class Case:
    """One call of the student's function and what the reference answers."""

    label: str  # "seed 003's eval test 1: makeExample([3, 0, 4, 2, 5, 2, 4])"
    request: Mapping[str, Any]  # for the child: function, args, globals, trace, ...
    expected: Any  # what check compares with (stays in this process)
    hidden: bool = False  # drawn from the seed, not printed in the assignment
    board: str = ""  # the position as text, for the feedback
    weight: float = 1.0


@dataclass(frozen=True)
class Question:
    """One function of the assignment, marked case by case."""

    name: str  # the seed's name for it: "dropPiece"
    points: float
    signature: str  # "dropPiece(player, move, board)"
    expects: str  # what it must do, for the docs and the feedback
    cases: Callable[[int], list[Case]]  # from the grading seed
    check: Callable[[Case, Reply], Verdict]
    #: Seconds one case may take, and the memory (MB) of the question's process.
    seconds: float = 5.0
    memory_mb: int = 1024
    #: Draws a divergence (case, its verdict's divergence, the PNG's path); None: no pictures.
    draw: Callable[[Case, Mapping[str, Any], Any], None] | None = None

    @property
    def function(self) -> str:
        """The name the student's file must define (a class for a method: ``Connect_Four_State``)."""
        return self.name.split(".")[0]


@dataclass(frozen=True)
class Play:
    """How an assignment's agent plays in the class tournament: the function and the board it takes."""

    function: str  # "player"
    signature: str  # "player(board)"
    cols: int
    rows: int
    #: The request for one move: (cells of the board, top row first, 1 the first player, 2 the second, 0
    #: empty; the side to move, 1 or 2) -> the child's request.
    request: Callable[[list[list[int]], int], dict[str, Any]]


@dataclass(frozen=True)
class Assignment:
    """One seed's assignment: its questions, in the seed's order, and its tournament agent (if it has one)."""

    name: str  # "seed003"
    title: str
    source: str  # the seed's file, for the docs
    questions: tuple[Question, ...]
    play: Play | None = None
    notes: tuple[str, ...] = field(default=())  # what the grader reads into the seed, said once

    @property
    def points(self) -> float:
        return sum(question.points for question in self.questions)

    def question(self, name: str) -> Question:
        for question in self.questions:
            if question.name == name:
                return question
        raise KeyError(name)
