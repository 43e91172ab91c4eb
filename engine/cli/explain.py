"""``explain``: why each position is won, drawn or lost (``POSITION SCORE TEXT``, or ``--json``).

For each position the exact score and a reason in Allis's terms, checked by
playing it out against every reply before it is printed (engine.explain).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine.board import Board
from engine.cli.common import PositionReporter, add_command, add_grid_argument, grid_positions, position_lines
from engine.cli.solver_options import auto_solver, limits_of
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.errors import EngineError
from engine.explain.explainer import MAX_PLIES, PLIES, Explainer
from engine.explain.prove import RULE_NAMES, rules_from
from engine.files import check_picture_target
from engine.resources import available_cores
from engine.solver.settings import DEFAULT_TABLE_MB, MAX_TABLE_MB, MAX_THREADS, MIN_TABLE_MB
from engine.validate import MAX_SECONDS, float_arg, int_arg, shown

#: Seconds per position by default: the exact value and a reason are given up on after this.
SECONDS = 10.0


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "explain",
        "print POSITION SCORE TEXT: the exact score and why - the side to move wins, cannot win, or loses - "
        "in Allis's rules (claimeven, baseinverse, ...), each reason checked against every reply first; "
        "positions as arguments or on stdin, one per line",
    )
    add_geometry_arguments(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per line: position, score, claim, rules, line, text (docs/explain.md)",
    )
    parser.add_argument(
        "--png",
        metavar="FILE",
        help="also draw the reason on the board into this PNG (one position only): the cells each rule claims, "
        "the groups it refutes, the threats",
    )
    parser.add_argument("--only", metavar="RULE", default=None, help="with --png: draw the marks of this rule alone")
    group = parser.add_argument_group("search")
    group.add_argument(
        "--seconds",
        type=float_arg(0.001, MAX_SECONDS, allow_inf=True),
        default=SECONDS,
        help=f"give up on a position after this long: the exact value if known, no reason (default {SECONDS:g}; "
        "inf: no limit)",
    )
    group.add_argument(
        "--plies",
        type=int_arg(0, MAX_PLIES),
        default=PLIES,
        help=f"moves a reason may look ahead, both sides counted, a move that only blocks a win not (default {PLIES})",
    )
    group.add_argument(
        "--rules",
        default=",".join(RULE_NAMES),
        metavar="NAMES",
        help="the rules to use, comma-separated (default all nine: " + ",".join(RULE_NAMES) + ")",
    )
    group.add_argument(
        "--table-mb",
        type=float_arg(MIN_TABLE_MB, MAX_TABLE_MB),
        default=DEFAULT_TABLE_MB,
        help=f"the solver's table size in MB (default {DEFAULT_TABLE_MB})",
    )
    group.add_argument("--no-book", action="store_true", help="do not use the opening book (7x6)")
    cores = available_cores()
    group.add_argument(
        "--threads",
        type=int_arg(1, MAX_THREADS),
        default=cores,
        help=f"threads a long solve shares its work between (default: every core this process may use, here {cores})",
    )
    add_grid_argument(parser)
    parser.add_argument("positions", nargs="*", metavar="POSITION", help="move strings such as 4453")
    parser.set_defaults(run=run, nodes=0)


def run(args) -> int:
    geometry = geometry_from(args)
    rules = rules_from(args.rules)
    picture = _picture_target(args)
    explainer = Explainer(geometry, solver=auto_solver(args, geometry), plies=args.plies, rules=rules)
    reporter = PositionReporter()
    limits = limits_of(args)
    for line in position_lines(args.positions + grid_positions(args)):
        try:
            explanation = explainer.explain(line.text, limits)
        except EngineError as exc:
            if args.json:
                reporter.failures += 1
                print(f"error: {line.label} {shown(line.text)}: {exc}", file=sys.stderr, flush=True)
                emit(json.dumps(_error_object(line.text, str(exc))))
            else:
                reporter.fail(line, str(exc))
            continue
        emit(json.dumps(explanation.to_json()) if args.json else explanation.summary())
        if picture is not None:
            from engine.explain.diagram import draw  # (matplotlib: only for a picture)

            board = Board.from_moves(line.text, geometry)
            if draw(board, explanation, picture, args.only) is None:
                print(f"note: no reason to draw for {shown(line.text)}: {picture} not written", file=sys.stderr)
    return reporter.status


def _picture_target(args) -> Path | None:
    """The checked ``--png`` path (one position only), or None."""
    if args.only is not None and args.png is None:
        raise EngineError("--only goes with --png (it says which rule to draw)")
    if args.only is not None and args.only not in (*RULE_NAMES, "odd-threat", "double-threat"):
        raise EngineError(f"--only: no rule named {shown(args.only)} (the rules: {', '.join(RULE_NAMES)})")
    if args.png is None:
        return None
    if len(args.positions) != 1 or args.grid:
        raise EngineError("--png draws one position: give exactly one POSITION")
    return check_picture_target(args.png, "--png")


def _error_object(position: str, message: str) -> dict:
    """The JSON line of a position that cannot be explained (the same keys, the message as text)."""
    return {"position": position, "score": None, "claim": None, "rules": [], "line": "", "text": f"error: {message}"}
