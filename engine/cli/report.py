"""``report``: every study, written to docs/report/README.md with its charts."""

from __future__ import annotations

from pathlib import Path

from engine.cli.experiment import settings_from
from engine.cli.runner_options import Outputs, add_runner_arguments, prepare_folder
from engine.console import emit
from engine.errors import EngineError
from engine.experiments.executors import open_executor
from engine.experiments.report import page_files, rows_files, write_report
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
    studies = all_studies()
    unknown = sorted(set(args.only or ()) - {study.name for study in studies})
    if unknown:
        known = ", ".join(study.name for study in studies)
        raise EngineError(f"--only: unknown study {', '.join(unknown)} (studies: {known})")
    chosen = args.out is not None
    out: Path = args.out or Path("docs/report")
    # The page folder first: a folder of someone else's is refused before any rows are made in it.
    prepare_folder(out, Outputs("report", page_files(studies)), chosen=chosen, restart=False, force=args.force)
    rows_default = Path("results/report-quick" if args.quick else "results/report")
    # --restart forgets the rows of the studies this run makes (all, or those of --only), nothing else.
    forget = rows_files([study for study in studies if not args.only or study.name in args.only])
    rows_dir = prepare_folder(
        out / "rows" if chosen else rows_default,
        Outputs("report rows", rows_files(studies)),
        chosen=chosen,
        restart=args.restart,
        force=args.force,
        forget=forget,
    )
    with open_executor(args.jobs, args.cluster) as executor:
        page = write_report(settings, out, rows_dir, executor=executor, progress=not args.no_progress, only=args.only)
    emit(f"report written to {page}")
    return 0
