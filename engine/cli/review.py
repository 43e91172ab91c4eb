"""``review``: label every move of a game by the solver (``PLY COLUMN LABEL key=value...``)."""

from __future__ import annotations

import sys
from dataclasses import replace

from engine.cli.common import PositionReporter, add_command, position_lines
from engine.cli.solver_options import add_threads_argument, auto_solver
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.errors import EngineError
from engine.review import GAME_SECONDS, LABELS, POSITION_SECONDS, WHY_SECONDS, MoveReview, review, summary, why
from engine.solver.auto import AutoSolver
from engine.solver.settings import DEFAULT_TABLE_MB, MAX_TABLE_MB, MIN_TABLE_MB
from engine.validate import MAX_SECONDS, float_arg


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "review",
        "label every move of each game (MOVES as arguments, or stdin one game per line): "
        "one line PLY COLUMN LABEL key=value... per move, LABEL one of " + ", ".join(LABELS) + "; "
        "a game that cannot be read is answered MOVES ?",
    )
    add_geometry_arguments(parser)
    group = parser.add_argument_group("solver")
    group.add_argument(
        "--seconds",
        type=float_arg(0.001, MAX_SECONDS),
        default=POSITION_SECONDS,
        help=f"solve time per position; a move whose positions are not solved in it is 'unknown' "
        f"(default {POSITION_SECONDS:g})",
    )
    group.add_argument(
        "--budget",
        type=float_arg(0.001, MAX_SECONDS),
        default=None,
        help=f"solve time for the whole game, on top of --seconds (default: none; the game's review "
        f"takes {GAME_SECONDS:g})",
    )
    group.add_argument(
        "--table-mb", type=float_arg(MIN_TABLE_MB, MAX_TABLE_MB), default=DEFAULT_TABLE_MB, help="table size"
    )
    group.add_argument("--no-book", action="store_true", help="do not use the opening book (7x6)")
    add_threads_argument(group)
    group.add_argument(
        "--why-seconds",
        type=float_arg(0, MAX_SECONDS),
        default=WHY_SECONDS,
        help=f"time to find the reason (why=) of each mistake and blunder; 0: none (default {WHY_SECONDS:g})",
    )
    parser.add_argument(
        "--summary", action="store_true", help="after each game, one line per player: NAME label=count..."
    )
    parser.add_argument(
        "--puzzles",
        action="store_true",
        help="print each mistake's and blunder's position as a puzzle instead (the moves that keep what it gave "
        "away as the solution), one a line in the format of puzzles export",
    )
    parser.add_argument("--json", action="store_true", help="with --puzzles: one JSON object a line")
    parser.add_argument("games", nargs="*", metavar="MOVES", help="a whole game as a move string, e.g. 4453...")
    parser.epilog = (
        "details: before= and after= are the exact scores (Pons's convention) for the mover of the position "
        "before the move and of the move played, before_words= and after_words= the same as W7 (win in 7 of "
        "the mover's moves), D (draw), L12 (loss in 12); better= is a best column where the move was not best; why= "
        "(last, to the end of the line) says in one sentence why a mistake or blunder was one, by a checked reason "
        "(see python -m engine explain)."
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.json and not args.puzzles:
        raise EngineError("--json goes with --puzzles (the review's own lines are PLY COLUMN LABEL key=value...)")
    geometry = geometry_from(args)
    solver = auto_solver(args, geometry)
    reporter = PositionReporter()
    for line in position_lines(args.games):
        board = reporter.board(line, geometry)
        if board is None:
            continue
        reviews = review(board, solver, seconds=args.seconds, budget=args.budget)
        if args.puzzles:
            _puzzles(board, reviews, solver, args, line.label)
            continue
        if args.why_seconds > 0:
            reviews = _with_why(board, reviews, args)
        for item in reviews:
            emit(item.line(geometry))
        if args.summary:
            for name, counts in summary(reviews).items():
                emit(f"{name.lower()} " + " ".join(f"{label}={counts[label]}" for label in LABELS))
        for note in _notes(reviews, args.seconds, args.budget):  # documented answers, not failures
            print(f"note: {line.label}: {note}", file=sys.stderr, flush=True)
    return reporter.status


def _puzzles(board, reviews: list[MoveReview], solver: AutoSolver, args, label: str) -> None:
    """``--puzzles``: the game's mistakes as puzzles (engine.puzzles.mistakes), each position solved within
    --seconds a column."""
    import json

    from engine.cli.puzzles import export_line
    from engine.limits import Limits
    from engine.puzzles.mistakes import from_review

    puzzles, unsolved = from_review(board, reviews, solver, Limits(seconds=args.seconds))
    for puzzle in puzzles:
        emit(json.dumps(puzzle.to_json()) if args.json else export_line(puzzle))
    if unsolved:
        print(f"note: {label}: {_moves(unsolved)} left out: not solved within {args.seconds:g} s", file=sys.stderr)


def _with_why(board, reviews: list[MoveReview], args) -> list[MoveReview]:
    """``reviews`` with ``why`` filled in for the mistakes and blunders (where a reason is found in time)."""
    from engine.explain.explainer import Explainer

    explainer = Explainer(board.geometry, solver=auto_solver(args, board.geometry))
    position = board.root()
    found = []
    for item in reviews:
        found.append(replace(item, why=why(position, item, explainer, args.why_seconds)))
        position.play(item.column)
    return found


def _notes(reviews: list[MoveReview], seconds: float, budget: float | None) -> list[str]:
    """What the review left open, and how to get it: moves not solved, and moves labelled worse
    than best whose better column was not found (the book can give a value at once, not its column)."""
    limit = f"within {seconds:g} s a position" + ("" if budget is None else f" and {budget:g} s in all")
    advice = " (raise --seconds or --budget)" if budget is not None else " (raise --seconds)"
    unknown = sum(item.label == "unknown" for item in reviews)
    no_better = sum(item.label not in ("best", "unknown") and item.better is None for item in reviews)
    notes = []
    if unknown:
        notes.append(f"{_moves(unknown)} unknown: not solved {limit}{advice}")
    if no_better:
        notes.append(f"{_moves(no_better)} without better=: no best column found {limit}{advice}")
    return notes


def _moves(count: int) -> str:
    return "1 move" if count == 1 else f"{count} moves"
