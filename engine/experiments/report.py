"""The report: every study run in turn, written as one Markdown page with its charts.

Rows stay under ``results/`` (git-ignored, resumable); the page and the PNGs go
to ``docs/report/`` (one folder of charts per study), which is committed.
:func:`page_files` and :func:`rows_files` list every file the report writes
in those two folders, so that ``--restart`` removes those and nothing else.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import platform
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from pathlib import Path

from engine.experiments.study import Settings, Study, all_studies, run_study, study_files, study_markdown
from engine.files import FileProblem, read_bounded, read_text_bounded, write_atomic

#: The report page, in the page folder.
PAGE = "README.md"
#: Beside each study's rows: its wall-clock time, added up over the runs that made rows.
ELAPSED = "elapsed_seconds.txt"


def page_files(studies: Sequence[Study]) -> tuple[str, ...]:
    """Every file the report writes in its page folder: the page, each study's charts in a folder of its own."""
    return (PAGE, *[f"{study.name}/{chart}" for study in studies for chart in study.charts])


def rows_files(studies: Sequence[Study]) -> tuple[str, ...]:
    """Every file the report writes in its rows folder: each study's folder as ``experiment`` writes it."""
    return tuple(f"{study.name}/{name}" for study in studies for name in (*study_files(study), ELAPSED))


INTRO = """# Experiments report

Every study of the course assignments (the "seeds" 000 to 004), reproduced by this
project's engine and written by `{command}`. Each section gives the command that
makes the study alone, its table, its charts, the seed's published figures beside
ours, and a short reading. Raw rows (one per game or measurement) are written by
the commands under `results/`. Times were measured on the machine named at the end.
"""


def write_report(
    settings: Settings,
    out: Path,
    rows_dir: Path,
    *,
    executor: Executor | None = None,
    progress: bool = True,
    only: list[str] | None = None,
) -> Path:
    """Run every study (or those in ``only``) and write ``out/README.md``; return its path."""
    sections = []
    timings: list[tuple[str, float]] = []
    for study in all_studies():
        if only and study.name not in only:
            continue
        started = time.perf_counter()
        print(f"study {study.name} ...", file=sys.stderr, flush=True)
        study_out = rows_dir / study.name
        rows_before = _rows_of(study_out)
        findings = run_study(study, settings, study_out, executor=executor, progress=progress)
        # A rerun that found every row made already adds no time: the figure is what the rows cost.
        spent = time.perf_counter() - started if _rows_of(study_out) != rows_before else 0.0
        elapsed = _add_elapsed(study_out, spent)
        charts = out / study.name
        charts.mkdir(parents=True, exist_ok=True)
        for name in findings.charts:
            write_atomic(charts / name, read_bounded(study_out / name, 64 * 2**20, "chart"))
        sections.append(study_markdown(study, settings, findings, level=2, charts=f"{study.name}/"))
        timings.append((study.name, elapsed))
    command = "python -m engine report" + (" --quick" if settings.quick else "")
    text = "\n\n".join([INTRO.format(command=command).strip(), *sections, _machine(timings)])
    out.mkdir(parents=True, exist_ok=True)
    page = out / PAGE
    write_atomic(page, text + "\n")
    return page


def _rows_of(folder: Path) -> bytes | None:
    """A digest of a study's rows file as it stands (None: none yet, or one that cannot be read):
    compared before and after a run, without two copies of the rows in memory."""
    with contextlib.suppress(FileNotFoundError, FileProblem):
        return hashlib.sha256(read_bounded(folder / "rows.csv", 256 * 2**20, "rows")).digest()
    return None


def _add_elapsed(folder: Path, seconds: float) -> float:
    """The wall-clock time spent on a study's rows, added up over the runs that made rows, kept beside them.

    The record is only a figure for the page: one that cannot be read (damaged,
    not a number, not a file) counts as nothing, and is written afresh.
    """
    record = folder / ELAPSED
    before = 0.0
    with contextlib.suppress(FileNotFoundError, FileProblem, ValueError):
        before = float(read_text_bounded(record, 64, "time record").strip())
    if not (math.isfinite(before) and 0 <= before < 1e12):
        before = 0.0
    total = seconds + before
    write_atomic(record, f"{total:.1f}\n")
    return total


def _machine(timings: list[tuple[str, float]]) -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    total = sum(seconds for _, seconds in timings)
    return (
        "## Where and how long\n\n"
        f"{platform.machine()}, {cores} cores, Python {platform.python_version()}; "
        f"wall-clock time per study, added up over the runs that made its rows: "
        f"{', '.join(f'{name} {seconds:,.0f} s' for name, seconds in timings)}; "
        f"{total:,.0f} s ({total / 60:.1f} minutes) in all."
    )
