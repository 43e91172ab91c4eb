"""``report``: every study, written to docs/report/README.md with its charts."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.cli.common import emit
from engine.cli.experiment import settings_from
from engine.cli.runner_options import add_runner_arguments, prepare_out
from engine.experiments.executors import open_executor
from engine.experiments.report import write_report
from engine.experiments.study import all_studies
from engine.validate import MAX_GAMES, int_arg


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "report",
        help="run every study and write docs/report/README.md with the charts",
        description="Run every study (rows under results/report/, resumable) and write the report page "
        "and its charts (default docs/report/).",
    )
    parser.add_argument("--quick", action="store_true", help="small versions of every study (what the tests run)")
    parser.add_argument(
        "--games", type=int_arg(1, MAX_GAMES), default=None, metavar="N", help="games (or repetitions) per setting"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        default=None,
        metavar="NAME",
        help="only these studies: " + ", ".join(s.name for s in all_studies()),
    )
    add_runner_arguments(parser, "where the report page and charts go (default docs/report/)")
    parser.set_defaults(run=run)


def run(args) -> int:
    settings = settings_from(args)
    out: Path = args.out or Path("docs/report")
    rows_default = Path("results/report-quick" if args.quick else "results/report")
    rows_dir = prepare_out(
        argparse.Namespace(**{**vars(args), "out": None}), out / "rows" if args.out else rows_default
    )
    with open_executor(args.jobs, args.cluster) as executor:
        page = write_report(settings, out, rows_dir, executor=executor, progress=not args.no_progress, only=args.only)
    emit(f"report written to {page}")
    return 0
