"""The course's autograder: every student's answers, question by question, against the seeds.

One module per assignment (:mod:`engine.grade.seed000` ... ``seed004``) lists
the questions its seed asks, named after the seed's own functions, with the
seed's signatures and board conventions, and the cases each is marked on: the
seed's own examples, then hidden ones drawn from the grading seed. The
reference answers, in each seed's own form, are in
:mod:`engine.grade.reference` (a student may import them to compare).

A student's code runs only in the grading child (:mod:`engine.grade.child`),
inside the sandbox, one process per question (:mod:`engine.grade.process`);
:mod:`engine.grade.marking` marks one question of one student,
:mod:`engine.grade.trees` finds where a search first leaves the reference's,
:mod:`engine.grade.pictures` draws it, and :mod:`engine.grade.report` writes
``grades.csv``, ``index.html`` and one feedback file per student. The class
tournament is :mod:`engine.experiments.class_tournament`; the command is
``python -m engine grade``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.grade.model import Assignment

#: The assignments, one per seed.
NAMES = ("seed000", "seed001", "seed002", "seed003", "seed004")


def assignment_named(name: str) -> Assignment:
    """The assignment ``name`` (``seed003``); one line naming the others for an unknown name."""
    if name not in NAMES:
        raise EngineError(f"unknown assignment {name!r}: the assignments are {', '.join(NAMES)}")
    module = importlib.import_module(f"engine.grade.{name}")
    found: Assignment = module.ASSIGNMENT
    return found
