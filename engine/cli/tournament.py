"""``tournament``: a round robin of any agents with a crosstable, Elo ratings and a chart."""

from __future__ import annotations

from pathlib import Path

from engine.agents.registry import create_computer_agent
from engine.cli.common import add_command
from engine.cli.runner_options import Outputs, add_runner_arguments, prepare_out
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.experiments.executors import open_executor
from engine.experiments.tables import write_csv
from engine.experiments.tournament import run_tournament
from engine.files import write_atomic
from engine.validate import MAX_GAMES, int_arg

#: Every file the command writes in its folder: what it may replace there, and what --restart removes.
FILES = ("progress.jsonl", "games.csv", "README.md", "tournament.png")


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "tournament",
        "a round robin of agents (student files too): crosstable, Elo with 95%% intervals, chart",
        agents=True,
    )
    parser.add_argument("agents", nargs="+", metavar="AGENT", help="two or more agent specs")
    parser.add_argument(
        "--games", type=int_arg(1, MAX_GAMES), default=10, metavar="N", help="games per pairing (default 10)"
    )
    parser.add_argument(
        "--openings",
        type=int_arg(0, 6),
        default=2,
        metavar="PLIES",
        help="start from seeded openings of this many moves, each with both colours (default 2; 0: empty board)",
    )
    add_runner_arguments(parser, "where rows, tables and the chart go (default results/tournament/)")
    add_geometry_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    geometry = geometry_from(args)
    for spec in args.agents:
        create_computer_agent(spec).close()  # a bad spec is one line before a folder is made, not after
    out = prepare_out(args, Path("results/tournament"), Outputs("tournament", FILES))
    with open_executor(args.jobs, args.cluster) as executor:
        result = run_tournament(
            args.agents,
            args.games,
            seed=args.seed,
            geometry=geometry,
            opening_plies=args.openings,
            executor=executor,
            checkpoint=out / "progress.jsonl",
            progress=not args.no_progress,
        )
    write_csv(out / "games.csv", result.rows)
    crosstable = result.crosstable_markdown()
    standings = result.standings_markdown()
    write_atomic(
        out / "README.md",
        f"# Tournament\n\n`{' '.join(args.agents)}`, {args.games} games per pairing, seed {args.seed}, "
        f"{geometry}.\n\n## Crosstable (points of the row agent against the column agent)\n\n{crosstable}\n\n"
        f"## Standings (Elo: Bradley-Terry maximum likelihood, 95% interval)\n\n{standings}\n\n"
        "![ratings and crosstable](tournament.png)\n",
    )
    result.chart(out / "tournament.png")
    emit("crosstable (points of the row agent against the column agent):")
    emit(crosstable)
    emit(f"rows, table and chart in {out}/ (games.csv, README.md, tournament.png)")
    emit("")
    emit(standings)
    return 0
