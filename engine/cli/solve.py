"""``solve``: the exact score of each position (``POSITION SCORE``)."""

from __future__ import annotations

from engine.cli.common import PositionReporter, add_command, grid_positions, position_lines
from engine.cli.solver_options import UNFINISHED, add_solver_arguments, auto_solver, limits_of
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.errors import EngineError


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "solve",
        "print POSITION SCORE: the exact score for the side to move (Pons's convention), "
        "for positions given as arguments or on stdin, one per line",
    )
    add_geometry_arguments(parser)
    parser.add_argument("--weak", action="store_true", help="print only win (1), draw (0) or loss (-1)")
    add_solver_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    geometry = geometry_from(args)
    solver = auto_solver(args, geometry)
    reporter = PositionReporter()
    limits = limits_of(args)
    for line in position_lines(args.positions + grid_positions(args)):
        try:
            solution = solver.solve(line.text, limits, weak=args.weak)
        except EngineError as exc:
            reporter.fail(line, str(exc))
            continue
        if solution.score is None:
            reporter.fail(line, UNFINISHED)
        else:
            emit(f"{line.text} {solution.score}")
    return reporter.status
