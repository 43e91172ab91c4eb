"""Marking one student's answer to one question: its own process, its cases one by one, each with a time limit.

:class:`GradeTask` is plain data (the student's files travel inside it, so a
cluster's worker needs no shared folder) with a stable ``key`` and ``run()``,
as :func:`engine.tasks.run_tasks` wants: the command runs the
tasks of a class on any executor and keeps each one's rows in the resume
file, so a run killed and started again goes on where it stopped.

A question runs in a grading child of its own (:mod:`engine.grade.process`),
so its time and memory limits are its own. A file that does not load costs
every case of the question, with the error's line; a missing function costs
the question; a case that raises, returns the wrong thing or runs out of time
costs that case only (the process is started again for the next case, at
most :data:`RESTARTS` times). Nothing stops the marking of the class.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.grade import assignment_named
from engine.grade.model import Case, Question, Verdict
from engine.grade.process import ChildFailure, GradingProcess
from engine.grade.submissions import Submission

#: Seconds a file may take to load (its imports and top-level code).
LOAD_SECONDS = 20.0
#: Processes started again after a case that ran out of time or crashed, per question.
RESTARTS = 2
#: Seconds all of a question's cases may take together, beyond the load.
QUESTION_SECONDS = 120.0

Row = dict[str, Any]


@dataclass(frozen=True)
class GradeTask:
    """One student's answer to one question of an assignment (see the module docstring)."""

    assignment: str
    question: str
    student: str
    files: str  # JSON: [[path, base64 of the bytes], ...]
    main: str
    digest: str
    seed: int = 0
    note: str = ""
    grader: str = ""  # the grader's own fingerprint: marks kept from an earlier version are made again

    @classmethod
    def of(cls, assignment: str, question: str, submission: Submission, seed: int) -> GradeTask:
        files = json.dumps([[name, base64.b64encode(data).decode("ascii")] for name, data in submission.files])
        return cls(
            assignment,
            question,
            submission.student,
            files,
            submission.main,
            submission.digest,
            seed,
            submission.note,
            grader_fingerprint(),
        )

    @property
    def key(self) -> str:
        return f"{self.assignment}|{self.question}|{self.student}|{self.seed}|{self.digest}|{self.grader}"

    def run(self) -> list[Row]:
        question = assignment_named(self.assignment).question(self.question)
        files = {name: base64.b64decode(data) for name, data in json.loads(self.files)}
        return mark(question, self.student, files, self.main, self.seed)

    def fits(self, rows: list[Row]) -> bool:
        """Rows of this student and question: one summary and one row per case."""
        return (
            bool(rows)
            and all(row.get("student") == self.student and row.get("question") == self.question for row in rows)
            and (sum(row.get("kind") == "question" for row in rows) == 1)
        )


def mark(question: Question, student: str, files: dict[str, bytes], main: str, seed: int) -> list[Row]:
    """The rows of ``student``'s answer to ``question``: one per case, then the question's."""
    cases = cases_of(question, seed)
    verdicts: list[tuple[Verdict, float]] = []
    if not main:
        problem = "no Python file to mark"
        verdicts = [(Verdict.wrong(problem), 0.0)] * len(cases)
    else:
        verdicts, problem = _run_cases(question, cases, files, main, seed)
    return _rows(question, student, cases, verdicts, problem)


@functools.lru_cache(maxsize=1)
def grader_fingerprint() -> str:
    """A digest of the grader's source (its questions, cases and checks): part of every task's key."""
    hasher = hashlib.blake2b(digest_size=6)
    folder = Path(__file__).resolve().parent
    for path in sorted(folder.rglob("*.py")):
        hasher.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return hasher.hexdigest()


@functools.lru_cache(maxsize=32)
def cases_of(question: Question, seed: int) -> list[Case]:
    """A question's cases under ``seed``, made once a process (the same for every student)."""
    return question.cases(seed)


def _run_cases(
    question: Question, cases: list[Case], files: dict[str, bytes], main: str, seed: int
) -> tuple[list[tuple[Verdict, float]], str]:
    """Each case's verdict and seconds, and the problem that cost every case (a load, a missing function)."""
    verdicts: list[tuple[Verdict, float]] = []
    restarts = 0
    child: GradingProcess | None = None
    deadline = time.monotonic() + QUESTION_SECONDS
    try:
        for case in cases:
            if child is None:
                if restarts > RESTARTS:
                    verdicts.append((Verdict.wrong("not run: the question ran out of time or crashed too often"), 0.0))
                    continue
                child, problem = _start(question, files, main, seed)
                if problem:
                    return [(Verdict.wrong(problem), 0.0)] * len(cases), problem
            if time.monotonic() > deadline:
                verdicts.append((Verdict.wrong(f"not run: the question took over {QUESTION_SECONDS:g} s in all"), 0.0))
                continue
            started = time.monotonic()
            try:
                reply = child.ask({"op": "call", **case.request}, question.seconds)
            except ChildFailure as failure:
                verdicts.append((Verdict.wrong(f"{main} {failure}"), time.monotonic() - started))
                child.close()
                child = None
                restarts += 1
                continue
            seconds = time.monotonic() - started
            if "missing" in reply:
                missing = _missing(main, str(reply["missing"]))
                return [(Verdict.wrong(missing), 0.0)] * len(cases), missing
            verdicts.append((_verdict(question, case, reply, main), seconds))
    finally:
        if child is not None:
            child.close()
    return verdicts, ""


def _kind(name: str) -> str:
    return "class" if name[:1].isupper() else "function"


def _missing(main: str, name: str) -> str:
    """``alice.py has no function eval`` or ``alice.py's class State has no method move``."""
    owner, _, method = name.partition(".")
    if method:
        return f"{main}'s class {owner} has no method {method}"
    return f"{main} has no {_kind(name)} {name}"


def _start(question: Question, files: dict[str, bytes], main: str, seed: int) -> tuple[GradingProcess, str]:
    """A child with the student's file loaded, or the one line that says why it is not."""
    child = GradingProcess(files, main, memory_mb=question.memory_mb, seed=seed)
    try:
        first = child.start(LOAD_SECONDS)
    except ChildFailure as failure:
        child.close()
        return child, f"{main} does not load: it {failure}"
    if first.get("ready") is not True:
        child.close()
        where = f" ({first['where']})" if first.get("where") else ""
        return child, f"{main} does not load: {first.get('error', 'no answer')}{where}"
    if question.function not in child.names:
        child.close()
        defined = ", ".join(child.names[:12]) or "nothing"
        return child, f"{main} has no {_kind(question.function)} {question.function} (it defines {defined})"
    return child, ""


def _verdict(question: Question, case: Case, reply: dict[str, Any], main: str) -> Verdict:
    if "error" in reply:
        where = f" ({reply['where']})" if reply.get("where") else ""
        return Verdict.wrong(f"raised {reply['error']}{where}")
    try:
        return question.check(case, reply)
    except (
        KeyError,
        TypeError,
        ValueError,
        IndexError,
        AttributeError,
    ) as exc:  # an answer of a shape no check foresaw
        return Verdict.wrong(f"returned something that could not be read as an answer ({type(exc).__name__})")


def _rows(
    question: Question, student: str, cases: list[Case], verdicts: list[tuple[Verdict, float]], problem: str
) -> list[Row]:
    rows: list[Row] = []
    weights = sum(case.weight for case in cases) or 1.0
    earned = 0.0
    for index, (case, (verdict, seconds)) in enumerate(zip(cases, verdicts, strict=True)):
        earned += verdict.score * case.weight
        rows.append(
            {
                "kind": "case",
                "student": student,
                "question": question.name,
                "case": index,
                "label": case.label,
                "hidden": case.hidden,
                "score": round(verdict.score, 6),
                "weight": case.weight,
                "message": verdict.message,
                "divergence": json.dumps(verdict.divergence) if verdict.divergence else "",
                "seconds": round(seconds, 4),
            }
        )
    points = round(question.points * earned / weights, 2)
    wrong = [row for row in rows if row["score"] < 1]
    summary = problem
    if not summary and wrong:
        first = wrong[0]
        summary = f"{len(wrong)} of {len(rows)} cases short; first: {first['label']}: {first['message']}"
    rows.append(
        {
            "kind": "question",
            "student": student,
            "question": question.name,
            "points": points,
            "max_points": question.points,
            "message": summary,
            "cases": len(rows),
            "right": len(rows) - len(wrong),
        }
    )
    return rows
