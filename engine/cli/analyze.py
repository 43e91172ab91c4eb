"""``analyze``: the exact score of every column (``POSITION s1 ... sC``, ``x`` = full)."""

from __future__ import annotations

from engine.cli.common import PositionReporter, add_command, grid_positions, position_lines
from engine.cli.solver_options import UNFINISHED, add_solver_arguments, auto_solver, limits_of
from engine.console import add_geometry_arguments, emit, geometry_from


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "analyze",
        "print POSITION and the exact score of playing each column (x: full), "
        "for positions given as arguments or on stdin, one per line",
    )
    add_geometry_arguments(parser)
    add_solver_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    geometry = geometry_from(args)
    solver = auto_solver(args, geometry)
    reporter = PositionReporter()
    limits = limits_of(args)
    for line in position_lines(args.positions + grid_positions(args)):
        board = reporter.board(line, geometry)
        if board is None:
            continue
        if board.is_over:  # (no column can be played: "x" everywhere would read as a full board)
            reporter.fail(line, "the game is already over")
            continue
        analysis = solver.analyze(board, limits)
        if not analysis.finished:
            reporter.fail(line, UNFINISHED)
            continue
        scores = ["x" if score is None else str(score) for score in analysis.scores]
        emit(" ".join([line.text, *scores]))
    return reporter.status
