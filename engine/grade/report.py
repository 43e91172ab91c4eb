"""What grading writes: ``grades.csv`` for the gradebook, ``index.html`` for the teacher, a Markdown file per student.

Everything here is made from the rows of :mod:`engine.grade.marking` (plain
data, kept in the resume file), so a report is the same however the marking
ran. Text that came from a student's code (an exception's message, a name)
is made clean before it is written: control characters go, and it is
escaped for HTML and Markdown, so a submission cannot write into the
teacher's page. Pictures of first divergences are drawn here, one per
student and question (the first case that has one).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.files import write_atomic
from engine.grade.model import Assignment, Question
from engine.sandbox.text import clean as safe

Row = Mapping[str, Any]

#: The columns of grades.csv, in a gradebook's order.
CSV_COLUMNS = ("student", "question", "points", "max_points", "message")
#: The longest message in grades.csv (the feedback file has every case in full).
CSV_MESSAGE = 300


@dataclass(frozen=True)
class Student:
    """One student of the report: the name, the file name of its feedback, what was said about its files."""

    name: str
    file: str  # "alice" -> feedback/alice.md
    note: str = ""


@dataclass
class Extra:
    """A section the class report adds (the tournament): Markdown for the feedback, HTML for the page."""

    title: str
    html: str
    charts: list[str] = field(default_factory=list)
    markdown: Mapping[str, str] = field(default_factory=dict)  # student -> their lines


def clean(text: object, limit: int = 4000) -> str:
    """Text from a student's code made safe to show (:func:`engine.sandbox.text.clean`, line by line: the
    grader's own messages draw boards on several lines), cut to ``limit`` characters."""
    value = "\n".join(safe(line) for line in str(text).split("\n"))
    return value if len(value) <= limit else value[: limit - 3] + "..."


def markdown_text(text: object) -> str:
    """Clean text that Markdown shows as written (no tags, no links, no emphasis)."""
    escaped = html.escape(clean(text), quote=False)
    return re.sub(r"([\\`*_\[\]#|!])", r"\\\1", escaped)


def picture_name(student: Student, question: str, case: int) -> str:
    return f"pictures/{student.file}-{re.sub(r'[^A-Za-z0-9_]', '_', question)}-{case}.png"


def question_rows(rows: Sequence[Row]) -> dict[tuple[str, str], Row]:
    return {(row["student"], row["question"]): row for row in rows if row.get("kind") == "question"}


def case_rows(rows: Sequence[Row]) -> dict[tuple[str, str], list[Row]]:
    found: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        if row.get("kind") == "case":
            found.setdefault((row["student"], row["question"]), []).append(row)
    return found


def write_csv(path: Path, assignment: Assignment, students: Sequence[Student], rows: Sequence[Row]) -> None:
    """``grades.csv``: one row per student and question."""
    marks = question_rows(rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for student in students:
        for question in assignment.questions:
            row = marks.get((student.name, question.name))
            if row is None:
                continue
            message = clean(row["message"], CSV_MESSAGE).replace("\n", " ")
            writer.writerow([clean(student.name, 200), question.name, row["points"], row["max_points"], message])
    write_atomic(path, buffer.getvalue())


def draw_pictures(
    out: Path, assignment: Assignment, students: Sequence[Student], rows: Sequence[Row], seed: int
) -> dict[tuple[str, str, int], str]:
    """The picture of the first divergence of each student's answer to each search question; their names."""
    from engine.grade.marking import cases_of

    drawn: dict[tuple[str, str, int], str] = {}
    by_case = case_rows(rows)
    for question in assignment.questions:
        if question.draw is None:
            continue
        cases = None
        for student in students:
            first = next((r for r in by_case.get((student.name, question.name), []) if r.get("divergence")), None)
            if first is None:
                continue
            cases = cases if cases is not None else cases_of(question, seed)
            name = picture_name(student, question.name, int(first["case"]))
            (out / "pictures").mkdir(exist_ok=True)
            question.draw(cases[int(first["case"])], json.loads(first["divergence"]), out / name)
            drawn[(student.name, question.name, int(first["case"]))] = name
    return drawn


def total(student: Student, rows: Mapping[tuple[str, str], Row], assignment: Assignment) -> float:
    return round(
        sum(
            float(rows[(student.name, q.name)]["points"])
            for q in assignment.questions
            if (student.name, q.name) in rows
        ),
        2,
    )


def feedback(
    student: Student,
    assignment: Assignment,
    rows: Sequence[Row],
    pictures: Mapping[tuple[str, str, int], str],
    seed: int,
    extra: Extra | None = None,
) -> str:
    """The Markdown file handed back to one student."""
    marks = question_rows(rows)
    cases = case_rows(rows)
    lines = [
        f"# {markdown_text(student.name)}: {assignment.name}",
        "",
        f"{assignment.title}. Marked with `python -m engine grade --assignment {assignment.name} --seed {seed}`; "
        "the same seed gives the same marks.",
        "",
        f"**Total: {total(student, marks, assignment):g} of {assignment.points:g} points.**",
        "",
    ]
    if student.note:
        lines += [f"Note: {markdown_text(student.note)}", ""]
    lines += ["| question | points | of |", "|---|---:|---:|"]
    for question in assignment.questions:
        row = marks.get((student.name, question.name))
        if row is not None:
            lines.append(f"| `{question.signature}` | {row['points']:g} | {row['max_points']:g} |")
    for question in assignment.questions:
        row = marks.get((student.name, question.name))
        if row is None:
            continue
        mine = cases.get((student.name, question.name), [])
        right = sum(1 for case in mine if case["score"] >= 1)
        lines += ["", f"## {question.name}: {row['points']:g} of {row['max_points']:g}", ""]
        lines += [f"`{question.signature}`: {question.expects}.", ""]
        if not mine or not any(case["score"] < 1 for case in mine):
            lines.append(f"All {len(mine)} cases right." if mine else markdown_text(row["message"]))
            continue
        lines.append(f"{right} of {len(mine)} cases right. The others:")
        problem_of_all = len({case["message"] for case in mine}) == 1 and right == 0
        shown = mine[:1] if problem_of_all else [case for case in mine if case["score"] < 1]
        for case in shown:
            lines += _case_markdown(case, question, pictures, student, every=problem_of_all)
    if extra is not None and student.name in extra.markdown:
        lines += ["", f"## {extra.title}", "", extra.markdown[student.name]]
    return "\n".join(lines) + "\n"


def _case_markdown(
    case: Row, question: Question, pictures: Mapping[tuple[str, str, int], str], student: Student, every: bool
) -> list[str]:
    label = "every case" if every else markdown_text(case["label"])
    share = f"{case['score']:.0%} of the case" if case["score"] else "no points"
    lines = ["", f"- **{label}** ({share}): {markdown_text(case['message'])}"]
    picture = pictures.get((student.name, question.name, int(case["case"])))
    if picture:
        lines.append(f"  ![the first divergence](../{picture})")
    return lines


# -- the class page -------------------------------------------------------------------------------------
STYLE = """
body { font-family: sans-serif; margin: 2em; max-width: 80em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.full { background: #e3f3e3; } td.part { background: #fdf3d8; } td.none { background: #f8dcdc; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; }
img { max-width: 100%; border: 1px solid #ddd; }
.case { margin: 0.6em 0 0.6em 1em; }
"""


def index_html(
    assignment: Assignment,
    students: Sequence[Student],
    rows: Sequence[Row],
    pictures: Mapping[tuple[str, str, int], str],
    seed: int,
    extra: Extra | None = None,
) -> str:
    """The class report: students x questions, the tournament, and a section per student."""
    marks = question_rows(rows)
    cases = case_rows(rows)
    esc = _escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{esc(assignment.name)}: class report</title><style>{STYLE}</style></head><body>",
        f"<h1>{esc(assignment.name)}: {esc(assignment.title)}</h1>",
        f"<p>{len(students)} students, seed {seed}: the same seed gives the same marks. Each question runs in the "
        "sandbox with its own time and memory limit; points per question follow the seed where it gives them. "
        "Each student's feedback file is in <code>feedback/</code>.</p>",
    ]
    parts += [f"<p>{esc(note)}</p>" for note in assignment.notes]
    header = "".join(f"<th>{esc(q.name)} ({q.points:g})</th>" for q in assignment.questions)
    parts.append(f"<table><tr><th>student</th>{header}<th>total ({assignment.points:g})</th></tr>")
    for student in students:
        cells = []
        for question in assignment.questions:
            row = marks.get((student.name, question.name))
            if row is None:
                cells.append("<td>-</td>")
                continue
            share = float(row["points"]) / float(row["max_points"]) if row["max_points"] else 0.0
            kind = "full" if share >= 1 else "none" if share == 0 else "part"
            cells.append(f'<td class="{kind}">{row["points"]:g}</td>')
        anchor = esc(student.file)
        parts.append(
            f'<tr><td><a href="#{anchor}">{esc(student.name)}</a></td>{"".join(cells)}'
            f"<td><b>{total(student, marks, assignment):g}</b></td></tr>"
        )
    means = []
    for question in assignment.questions:
        points = [float(marks[(s.name, question.name)]["points"]) for s in students if (s.name, question.name) in marks]
        means.append(f"<td>{sum(points) / len(points):.1f}</td>" if points else "<td>-</td>")
    totals = [total(s, marks, assignment) for s in students]
    mean_total = f"{sum(totals) / len(totals):.1f}" if totals else "-"
    parts.append(f"<tr><th>class mean</th>{''.join(means)}<th>{mean_total}</th></tr></table>")
    if extra is not None:
        parts.append(f"<h2>{esc(extra.title)}</h2>{extra.html}")
        parts += [f'<p><img src="{esc(chart)}" alt="{esc(chart)}"></p>' for chart in extra.charts]
    parts.append("<h2>Students</h2>")
    for student in students:
        parts.append(
            f'<h3 id="{esc(student.file)}">{esc(student.name)}: {total(student, marks, assignment):g} '
            f'of {assignment.points:g} (<a href="feedback/{esc(student.file)}.md">feedback</a>)</h3>'
        )
        if student.note:
            parts.append(f"<p>{esc(student.note)}</p>")
        for question in assignment.questions:
            row = marks.get((student.name, question.name))
            mine = cases.get((student.name, question.name), [])
            wrong = [case for case in mine if case["score"] < 1]
            if row is None or not wrong:
                continue
            parts.append(f"<h4>{esc(question.name)}: {row['points']:g} of {row['max_points']:g}</h4>")
            if len({case["message"] for case in mine}) == 1 and len(wrong) == len(mine):
                parts.append(f'<div class="case">every case: {esc(wrong[0]["message"])}</div>')
                continue
            for case in wrong:
                picture = pictures.get((student.name, question.name, int(case["case"])))
                image = f'<br><img src="{esc(picture)}" alt="the first divergence">' if picture else ""
                parts.append(
                    f'<div class="case"><b>{esc(case["label"])}</b> ({case["score"]:.0%}): '
                    f"<pre>{esc(case['message'])}</pre>{image}</div>"
                )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _escape(text: object) -> str:
    return html.escape(clean(text))


def write_all(
    out: Path,
    assignment: Assignment,
    students: Sequence[Student],
    rows: Sequence[Row],
    seed: int,
    extra: Extra | None = None,
) -> None:
    """Every file of the report: pictures, feedback files, grades.csv and index.html."""
    pictures = draw_pictures(out, assignment, students, rows, seed)
    (out / "feedback").mkdir(exist_ok=True)
    for student in students:
        write_atomic(
            out / "feedback" / f"{student.file}.md", feedback(student, assignment, rows, pictures, seed, extra)
        )
    write_csv(out / "grades.csv", assignment, students, rows)
    write_atomic(out / "index.html", index_html(assignment, students, rows, pictures, seed, extra))
