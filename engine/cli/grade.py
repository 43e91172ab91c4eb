"""``grade``: mark a class's answers to a seed's assignment, question by question, in the sandbox; write the report."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from engine.cli.runner_options import Outputs, add_runner_arguments, prepare_out
from engine.console import emit
from engine.errors import EngineError
from engine.grade import NAMES, assignment_named
from engine.grade.marking import GradeTask
from engine.grade.model import Assignment
from engine.grade.report import Student, picture_name, question_rows, total, write_all
from engine.grade.submissions import Submission, find_submissions, safe_name
from engine.validate import MAX_GAMES, int_arg

#: The files every run writes; the feedback files and pictures are named after the students.
FILES = ("progress.jsonl", "grades.csv", "index.html", "tournament.jsonl", "tournament.png", "accuracy.png")
#: Cases a question has at most (the names of pictures a run may have drawn).
MAX_CASES = 64

EPILOG = f"""\
assignments: {", ".join(NAMES)} (one per seed; docs/grading.md lists their questions)

SUBMISSIONS is a folder with one NAME.py file or one NAME/ folder per student,
or a single .py file (a student checking their own work):
  python -m engine grade my_answers.py --assignment seed003
Writes DIR/grades.csv (student,question,points,max_points,message), DIR/index.html
(the class report) and DIR/feedback/NAME.md per student. Stopped and run again
with the same DIR, it goes on where it stopped; the same seed gives the same marks."""


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "grade",
        help="mark students' answers to a seed's assignment in the sandbox: grades.csv, a class report, feedback",
        description="Mark every student's answers to a seed's assignment, question by question, against the "
        "reference answers: each question runs in the sandbox under its own time and memory limit, searches are "
        "compared call by call with the first divergence drawn as a tree, and a class tournament rates the "
        "students' agents.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "submissions", metavar="SUBMISSIONS", type=Path, help="a folder of submissions, or one .py file"
    )
    parser.add_argument("--assignment", required=True, metavar="NAME", help=f"one of {', '.join(NAMES)}")
    parser.add_argument(
        "--no-tournament", action="store_true", help="no class tournament of the students' agents (marks only)"
    )
    parser.add_argument(
        "--games",
        type=int_arg(1, MAX_GAMES),
        default=1,
        metavar="N",
        help="tournament games per pairing (default 1: who moves first alternates over the round robin, so that "
        "every player moves first in half its games; 2 or more: each opening with both colours, a narrower Elo "
        "interval for twice the time)",
    )
    add_runner_arguments(parser, "where the grades, the report and the feedback go (default results/grade/NAME/)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    assignment = assignment_named(args.assignment)
    submissions = find_submissions(args.submissions, [q.function for q in assignment.questions])
    students = _students(submissions)
    out = prepare_out(args, Path("results") / "grade" / assignment.name, _outputs(assignment, students))
    tasks = [
        GradeTask.of(assignment.name, question.name, submission, args.seed)
        for submission in submissions
        for question in assignment.questions
    ]
    from engine.experiments.executors import open_executor
    from engine.tasks import run_tasks

    with open_executor(args.jobs, args.cluster) as executor:
        rows = run_tasks(
            tasks, executor=executor, checkpoint=out / "progress.jsonl", desc="questions", progress=not args.no_progress
        )
        extra = None
        if assignment.play is not None and not args.no_tournament and len(submissions) > 1:
            from engine.experiments.class_tournament import run_class_tournament

            playing, left_out = _players(assignment, submissions, rows)
            extra = run_class_tournament(
                assignment, playing, left_out, students, out, seed=args.seed, games=args.games, executor=executor,
                progress=not args.no_progress,
            )  # fmt: skip
    write_all(out, assignment, students, rows, args.seed, extra)
    _summary(assignment, students, rows, out)
    return 0


def _players(
    assignment: Assignment, submissions: list[Submission], rows: list
) -> tuple[list[Submission], dict[str, str]]:
    """The submissions that can play the tournament, and why each other one cannot."""
    assert assignment.play is not None
    function = assignment.play.function
    marks = question_rows(rows)
    playing, left_out = [], {}
    for submission in submissions:
        loads = [marks.get((submission.student, q.name), {}).get("message", "") for q in assignment.questions]
        main = dict(submission.files).get(submission.main, b"")
        if not submission.main:
            left_out[submission.student] = "no Python file"
        elif loads and all("does not load" in message for message in loads):
            left_out[submission.student] = loads[0]
        elif not re.search(rb"^def\s+" + function.encode() + rb"\s*\(", main, re.M):
            left_out[submission.student] = f"{submission.main} defines no function {function}"
        else:
            playing.append(submission)
    return playing, left_out


def _students(submissions: list[Submission]) -> list[Student]:
    taken: set[str] = set()
    return [Student(s.student, safe_name(s.student, taken), s.note) for s in submissions]


def _outputs(assignment: Assignment, students: list[Student]) -> Outputs:
    files = list(FILES)
    for student in students:
        files.append(f"feedback/{student.file}.md")
        files += [
            picture_name(student, q.name, case) for q in assignment.questions if q.draw for case in range(MAX_CASES)
        ]
    return Outputs(f"grade {assignment.name}", tuple(files))


def _summary(assignment: Assignment, students: list[Student], rows: list, out: Path) -> None:
    marks = question_rows(rows)
    if len(students) == 1:
        student = students[0]
        for question in assignment.questions:
            row = marks.get((student.name, question.name))
            if row is not None:
                message = f"  {row['message'][:200]}" if row["message"] else ""
                emit(f"{question.name:<40} {row['points']:>6g} of {row['max_points']:g}{message}")
    else:
        width = max(len(s.name) for s in students)
        for student in students:
            emit(f"{student.name[:60]:<{width}} {total(student, marks, assignment):>7g} of {assignment.points:g}")
    if not students:
        raise EngineError("no student to mark")
    emit(f"grades.csv, index.html and feedback/ in {out}/")
