"""What a study is, and how one runs: tasks -> rows -> table, charts and a reading.

A study (one module each, listed in :data:`STUDIES`) gives its name, a one-line
summary, the seeds it reproduces, a function making its tasks from the
:class:`Settings`, and a function turning the rows into :class:`Findings`.
:func:`run_study` does the rest the same way for all of them: the rows go
through the runner (any executor, resumable), then into ``rows.csv``; the
table into ``table.md``; the charts and a ``README.md`` beside them. Those
files (:func:`study_files`) are all a study writes in its folder: the command
line's ``--restart`` removes them and nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import EngineError
from engine.experiments.tables import write_csv
from engine.files import write_atomic
from engine.tasks import Row, Task, run_tasks

#: The studies, in the report's order (module names under engine.experiments).
STUDIES = (
    "random_games",
    "state_space",
    "ordering",
    "eval_tournament",
    "node_limit",
    "algorithms",
    "accuracy",
    "first_move",
    "seed_boards",
    "playtime",
    "cutoff_depth",
    "empty_boards",
)

#: The resume file of a study's folder (one JSON line per task, see engine.tasks).
PROGRESS = "progress.jsonl"
#: What every study writes in its folder, besides its charts.
STUDY_FILES = (PROGRESS, "rows.csv", "table.md", "README.md")


@dataclass(frozen=True)
class Settings:
    """How big a run is: ``quick`` for tests, ``games`` to override a study's game count."""

    quick: bool = False
    games: int | None = None
    seed: int = 0

    def count(self, full: int, quick: int) -> int:
        """The number of games (or repetitions): ``--games`` if given, else the study's own."""
        if self.games is not None:
            return self.games
        return quick if self.quick else full


@dataclass
class Findings:
    """What a study found, ready for its README and the report."""

    table: str  # Markdown
    charts: list[str]  # PNG file names in the study's folder
    headline: str  # our headline figure, one sentence
    seed_figures: str  # what the seed published, beside ours (Markdown)
    reading: str  # a paragraph reading the result
    extra: list[str] = field(default_factory=list)  # further Markdown sections


@dataclass(frozen=True)
class Study:
    name: str
    summary: str
    seeds: str
    tasks: Callable[[Settings], Sequence[Task]]
    summarize: Callable[[list[Row], Settings, Path], Findings]
    #: Every chart the study may write (PNG file names in its folder): what ``--restart`` removes.
    charts: tuple[str, ...] = ()
    #: The seed's own words for the question the study answers ("" where the summary says it all).
    question: str = ""


def all_studies() -> list[Study]:
    return [importlib.import_module(f"engine.experiments.{module}").STUDY for module in STUDIES]


def study_files(study: Study) -> tuple[str, ...]:
    """Every file :func:`run_study` may write in a study's folder (names relative to it)."""
    return (*STUDY_FILES, *study.charts)


def find_study(name: str) -> Study:
    for study in all_studies():
        if study.name == name:
            return study
    known = ", ".join(study.name for study in all_studies())
    raise EngineError(f"unknown study {name!r} (studies: {known})")


def command_line(study: Study, settings: Settings) -> str:
    """The command that makes this study with these settings."""
    parts = ["python -m engine experiment", study.name]
    if settings.quick:
        parts.append("--quick")
    if settings.games is not None:
        parts.append(f"--games {settings.games}")
    if settings.seed:
        parts.append(f"--seed {settings.seed}")
    return " ".join(parts)


def run_study(
    study: Study, settings: Settings, out: Path, *, executor: Executor | None = None, progress: bool = True
) -> Findings:
    """Run (or resume) ``study`` into ``out``: rows.csv, table.md, README.md and the charts."""
    out.mkdir(parents=True, exist_ok=True)
    tasks = study.tasks(settings)
    progress_file = out / PROGRESS
    resumed = progress_file.exists()
    rows = run_tasks(tasks, executor=executor, checkpoint=progress_file, desc=study.name, progress=progress)
    write_csv(out / "rows.csv", rows)
    try:
        findings = study.summarize(rows, settings, out)
    except EngineError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError) as exc:
        if not resumed:
            raise  # rows made in this run alone: a mistake of the study's, to be seen whole
        # Rows of plain data whose values no run of the study gives (an edited resume file).
        raise EngineError(
            f"resume file {progress_file}: its rows do not fit study {study.name} ({type(exc).__name__}: "
            f"{str(exc)[:80]}); start again with --restart"
        ) from None
    undeclared = sorted(set(findings.charts) - set(study.charts))
    if undeclared:  # the folder's list of files must be whole, or --restart would leave these behind
        raise RuntimeError(f"study {study.name} wrote charts it does not declare: {', '.join(undeclared)}")
    write_atomic(out / "table.md", findings.table + "\n")
    write_atomic(out / "README.md", study_markdown(study, settings, findings, level=1) + "\n")
    return findings


def study_markdown(study: Study, settings: Settings, findings: Findings, level: int = 1, charts: str = "") -> str:
    """A study's section: command, table, charts, the seed's figures beside ours, the reading.

    ``charts`` is the folder of the PNGs relative to the Markdown file ("" beside it).
    """
    h = "#" * level
    parts = [
        f"{h} {study.name}: {study.summary}",
        f"Seeds {study.seeds}. Made by `{command_line(study, settings)}`.",
        *([f"**The seeds ask:** {study.question}"] if study.question else []),
        findings.table,
        *[f"![{name}]({charts}{name})" for name in findings.charts],
        f"{h}# Beside the seed\n\n{findings.seed_figures}",
        f"**Ours:** {findings.headline}",
        f"{h}# Reading\n\n{findings.reading}",
        *findings.extra,
    ]
    return "\n\n".join(parts)
