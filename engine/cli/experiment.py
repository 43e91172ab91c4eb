"""``experiment``: one study of the seeds, its rows, table, charts and reading (``report`` runs them all)."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.cli.runner_options import Outputs, add_runner_arguments, prepare_out
from engine.console import emit
from engine.experiments.executors import open_executor
from engine.experiments.study import Settings, all_studies, find_study, run_study, study_files
from engine.validate import MAX_GAMES, int_arg


def _studies_epilog() -> str:
    lines = ["studies:"]
    lines += [f"  {study.name:<16} {study.summary} (seeds {study.seeds})" for study in all_studies()]
    return "\n".join(lines)


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "experiment",
        help="run one study of the seeds: rows (CSV), a Markdown table and PNG charts",
        description="Run one study: raw rows (rows.csv), a Markdown table (table.md), PNG charts and a "
        "README.md under --out; prints the table. Stop with Ctrl-C; the same command resumes.",
        epilog=_studies_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("name", metavar="NAME", help="the study (listed below)")
    parser.add_argument("--quick", action="store_true", help="a small version (seconds to a minute)")
    parser.add_argument(
        "--games", type=int_arg(1, MAX_GAMES), default=None, metavar="N", help="games (or repetitions) per setting"
    )
    add_runner_arguments(parser, "where rows, table and charts go (default results/NAME/)")
    parser.set_defaults(run=run)


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings(quick=args.quick, games=args.games, seed=args.seed)


def run(args) -> int:
    study = find_study(args.name)
    settings = settings_from(args)
    out = prepare_out(args, Path("results") / study.name, Outputs(f"experiment {study.name}", study_files(study)))
    with open_executor(args.jobs, args.cluster) as executor:
        findings = run_study(study, settings, out, executor=executor, progress=not args.no_progress)
    if study.question:
        emit(f"The seeds ask ({study.seeds}): {study.question}")
        emit("")
    emit(findings.table)
    emit("")
    emit(findings.headline)
    emit(f"rows, table, charts and README.md in {out}/: {', '.join(['rows.csv', 'table.md', *findings.charts])}")
    return 0
