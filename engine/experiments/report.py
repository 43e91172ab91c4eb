"""The report: every study run in turn, written as one Markdown page with its charts.

Rows stay under ``results/`` (git-ignored, resumable); the page and the PNGs go
to ``docs/report/`` (one folder of charts per study), which is committed.
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import time
from concurrent.futures import Executor
from pathlib import Path

from engine.experiments.study import Settings, all_studies, run_study, study_markdown

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
    timings = []
    for study in all_studies():
        if only and study.name not in only:
            continue
        started = time.perf_counter()
        print(f"study {study.name} ...", file=sys.stderr, flush=True)
        study_out = rows_dir / study.name
        findings = run_study(study, settings, study_out, executor=executor, progress=progress)
        elapsed = _add_elapsed(study_out, time.perf_counter() - started)
        charts = out / study.name
        charts.mkdir(parents=True, exist_ok=True)
        for name in findings.charts:
            shutil.copyfile(study_out / name, charts / name)
        sections.append(study_markdown(study, settings, findings, level=2, charts=f"{study.name}/"))
        timings.append(f"{study.name} {elapsed:,.0f} s")
    command = "python -m engine report" + (" --quick" if settings.quick else "")
    text = "\n\n".join([INTRO.format(command=command).strip(), *sections, _machine(timings)])
    out.mkdir(parents=True, exist_ok=True)
    page = out / "README.md"
    page.write_text(text + "\n")
    return page


def _add_elapsed(folder: Path, seconds: float) -> float:
    """The wall-clock time spent on a study's rows over every (resumed) run, kept beside them."""
    record = folder / "elapsed_seconds.txt"
    total = seconds + (float(record.read_text()) if record.exists() else 0.0)
    record.write_text(f"{total:.1f}\n")
    return total


def _machine(timings: list[str]) -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        "## Where and how long\n\n"
        f"{platform.machine()}, {cores} cores, Python {platform.python_version()}; "
        f"wall-clock time per study, added up over resumed runs: {', '.join(timings)}."
    )
