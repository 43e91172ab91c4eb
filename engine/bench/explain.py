"""``bench explain``: how many positions get a checked reason, how long it takes, and that no claim is false.

Positions: Pons's six sets (``MOVES SCORE`` lines) and positions reached by
play on 7x6 - random play, and good play (each move one of those that keep
the position's exact value, chosen at random) - taken at 12 to 19 stones and
at 20 or more. For each set it prints the non-wins (the side to move cannot
win: score <= 0) and the wins, the share of each with a reason, and the CPU
seconds per position (median and 95th percentile; the exact solve included).

Every claim is re-checked: the claim about the position itself against the
set's score (a fresh solver's, for play positions), and each reason inside
it (the positions a reason that looks ahead ends in) by a second solver with
a table of its own. ``false`` counts the claims the solver contradicts; it
must be 0.
"""

from __future__ import annotations

import csv
import random
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from engine.bench.solver import PONS
from engine.board import Board
from engine.console import emit
from engine.explain.explainer import MAX_PLIES, PLIES, Explainer
from engine.explain.explanation import CANNOT_WIN, MOVER_WINS, OPPONENT_WINS, Explanation
from engine.explain.forcing import leaf_claims
from engine.explain.prove import RULE_NAMES, rules_from
from engine.geometry import Geometry
from engine.limits import Limits
from engine.solver.auto import AutoSolver
from engine.stop import StopFlag
from engine.validate import MAX_SECONDS, float_arg, int_arg

SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
#: Kinds of play, and the stone counts positions are taken at.
PLAY = ("random", "good")
BINS = ((12, 19), (20, 41))
#: How often (seconds) a CPU-time limit looks at the process's CPU time.
CPU_POLL = 0.01


def add_parser(benches) -> None:
    parser = benches.add_parser(
        "explain", help="reasons found (share of non-wins and wins), false claims, CPU per position"
    )
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated Pons sets ('' for none)")
    parser.add_argument("--limit", type=int_arg(0, 10**6), default=0, help="positions per set (default: all)")
    parser.add_argument("--pons-dir", type=Path, default=PONS, help="folder of the Test_*.txt files")
    parser.add_argument("--play", default=",".join(PLAY), help="comma-separated kinds of play ('' for none)")
    parser.add_argument("--games", type=int_arg(0, 100_000), default=300, help="games per kind of play (default 300)")
    parser.add_argument("--seed", type=int_arg(0, 2**32 - 1), default=1)
    parser.add_argument("--seconds", type=float_arg(0.001, MAX_SECONDS), default=10.0, help="per position (default 10)")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="count --seconds in this process's CPU time, not the clock's: figures that do not depend on what "
        "else the machine runs",
    )
    parser.add_argument("--plies", type=int_arg(0, MAX_PLIES), default=PLIES, help=f"look-ahead (default {PLIES})")
    parser.add_argument("--rules", default=",".join(RULE_NAMES), metavar="NAMES", help="the rules to use")
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="the figures with no rule, then after each rule added in turn (the rules of --rules, in order)",
    )
    parser.add_argument("--csv", type=Path, default=None, help="also write one row per position to this file")
    parser.add_argument(
        "--table",
        type=Path,
        default=None,
        metavar="CSV",
        help="explain nothing: print the Markdown table of a --csv file written before (docs/explain.md's tables)",
    )
    parser.set_defaults(run=run)


@dataclass
class Tally:
    """One set's figures."""

    name: str
    nonwins: int = 0
    nonwins_explained: int = 0
    wins: int = 0
    wins_explained: int = 0
    claims: int = 0
    false: int = 0
    cpu: list[float] = field(default_factory=list)

    def add(self, score: int, explained: bool, cpu: float) -> None:
        self.cpu.append(cpu)
        if score > 0:
            self.wins += 1
            self.wins_explained += explained
        else:
            self.nonwins += 1
            self.nonwins_explained += explained

    def merge(self, other: Tally) -> None:
        for key in ("nonwins", "nonwins_explained", "wins", "wins_explained", "claims", "false"):
            setattr(self, key, getattr(self, key) + getattr(other, key))
        self.cpu += other.cpu

    def cells(self) -> list[str]:
        """The row's figures, in HEADER's order."""
        cpu = sorted(self.cpu) or [0.0]
        p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
        return [
            self.name,
            str(len(self.cpu)),
            str(self.nonwins),
            _share(self.nonwins_explained, self.nonwins),
            str(self.wins),
            _share(self.wins_explained, self.wins),
            str(self.claims),
            str(self.false),
            f"{statistics.median(cpu):.3f}",
            f"{p95:.3f}",
        ]

    def row(self) -> str:
        name, *figures = self.cells()
        widths = (6, 7, 8, 6, 8, 7, 6, 8, 7)
        return f"{name:<16} " + " ".join(f"{figure:>{width}}" for figure, width in zip(figures, widths, strict=True))


HEADER = (
    f"{'set':<16} {'positions':>6} {'non-wins':>7} {'reason':>8} {'wins':>6} {'reason':>8} {'claims':>7} "
    f"{'false':>6} {'cpu med':>8} {'p95 s':>7}"
)


COLUMNS = ("set", "positions", "non-wins", "reason", "wins", "reason", "claims", "false", "cpu med s", "p95 s")


def markdown(rows: str) -> str:
    """The Markdown tables of a ``--csv`` file's rows: one per set of rules, a row per set and one for all."""
    stages: dict[str, dict[str, Tally]] = {}
    for row in csv.DictReader(rows.splitlines()):
        tally = stages.setdefault(row["rules"], {}).setdefault(row["set"], Tally(row["set"]))
        tally.add(int(row["score"]), row["claim"] != "", float(row["cpu_seconds"]))
        tally.claims += int(row["claims"])
        tally.false += int(row["false"])
    tables = []
    for rules, sets in stages.items():
        total = Tally("all")
        for tally in sets.values():
            total.merge(tally)
        lines = [f"rules: {rules}", "", "| " + " | ".join(COLUMNS) + " |", "|---" * len(COLUMNS) + "|"]
        lines += ["| " + " | ".join(tally.cells()) + " |" for tally in [*sets.values(), total]]
        tables.append("\n".join(lines))
    return "\n\n".join(tables)


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def run(args) -> int:
    if args.table is not None:
        emit(markdown(args.table.read_text(encoding="utf-8")))
        return 0
    geometry = Geometry()
    rules = rules_from(args.rules)
    checker = AutoSolver(geometry)  # a table of its own: the re-checks share nothing with the explanations
    checker.compiled.warm_up()  # (compile or load the search outside the clock)
    sets = list(_sets(args, geometry, checker))  # (the positions of play are made once, for every stage)
    stages = [rules[:count] for count in range(len(rules) + 1)] if args.ladder else [rules]
    out = args.csv.open("w", newline="", encoding="utf-8") if args.csv else None
    writer = None if out is None else csv.writer(out)
    if writer is not None:
        writer.writerow(["rules", "set", "position", "score", "claim", "cpu_seconds", "claims", "false"])
    try:
        for stage in stages:
            solver = AutoSolver(geometry)  # each stage starts from an empty table: its CPU figures compare
            solver.compiled.warm_up()
            explainer = Explainer(geometry, solver=solver, plies=args.plies, rules=stage)
            names = ",".join(rule.NAME for rule in stage) or "none"
            clock = "CPU s" if args.cpu else "s"
            emit(f"rules: {names}; look-ahead {args.plies} plies; {args.seconds:g} {clock} a position")
            emit(HEADER)
            total = Tally("all")
            for name, positions in sets:
                tally = _run_set(name, positions, explainer, checker, (args.seconds, args.cpu), writer, names)
                emit(tally.row())
                total.merge(tally)
            emit(total.row())
            emit(f"claims re-checked by the solver: {total.claims:,}; false claims: {total.false}")
    finally:
        if out is not None:
            out.close()
    return 0


def _run_set(
    name: str, positions, explainer: Explainer, checker: AutoSolver, limit: tuple[float, bool], writer, rules: str
):
    """One set explained, every claim re-checked: its figures (``limit``: seconds a position, of CPU time?)."""
    geometry = explainer.geometry
    tally = Tally(name)
    seconds, cpu_time = limit
    for moves, score in positions:
        start = time.process_time()
        if cpu_time:
            with cpu_limit(seconds) as limits:
                explanation = explainer.explain(moves, limits)
        else:
            explanation = explainer.explain(moves, Limits(seconds=seconds))
        cpu = time.process_time() - start
        checked, false = recheck(moves, score, explanation, checker, geometry)
        tally.add(score, explanation.claim is not None, cpu)
        tally.claims += checked
        tally.false += false
        if writer is not None:
            writer.writerow([rules, name, moves, score, explanation.claim or "", f"{cpu:.4f}", checked, false])
    return tally


@contextmanager
def cpu_limit(seconds: float) -> Iterator[Limits]:
    """Limits whose stop flag is set once this process has spent ``seconds`` more of CPU time.

    A clock's seconds on a shared machine are partly other people's: counted
    in CPU time, a limit gives every position the same work, whatever else runs.
    """
    stop, done = StopFlag(), threading.Event()
    end = time.process_time() + seconds

    def watch() -> None:
        while not done.wait(CPU_POLL):
            if time.process_time() >= end:
                stop.set()
                return

    watcher = threading.Thread(target=watch, name="cpu-limit", daemon=True)
    watcher.start()
    try:
        yield Limits(stop=stop)
    finally:
        done.set()
        watcher.join()


def recheck(
    moves: str, score: int, explanation: Explanation, checker: AutoSolver, geometry: Geometry
) -> tuple[int, int]:
    """(claims checked, claims the solver contradicts) of one explanation: its claim and every reason inside it."""
    if explanation.claim is None:
        return 0, 0
    false = 0
    if explanation.score != score or not _fits(explanation.claim, score):
        false += 1
    checked = 1
    board = Board.from_moves(moves, geometry)
    if explanation.proof is not None:
        for after, defender_wins in leaf_claims(board, explanation.proof):
            position = Board.from_moves(moves + after, geometry)
            found = checker.solve(position).score
            checked += 1
            value = None if found is None else int(found.value)
            if value is None or value > 0 or (defender_wins and value >= 0):
                false += 1
    return checked, false


def _fits(claim: str, score: int) -> bool:
    return {MOVER_WINS: score > 0, CANNOT_WIN: score <= 0, OPPONENT_WINS: score < 0}[claim]


def _sets(args, geometry: Geometry, solver: AutoSolver):
    """(name, [(moves, exact score)]) of every set asked for."""
    for name in [name for name in args.sets.split(",") if name]:
        lines = (args.pons_dir / f"{name}.txt").read_text(encoding="ascii").split("\n")
        rows = [line.split() for line in lines if line.strip()]
        if args.limit:
            rows = rows[: args.limit]
        yield name, [(moves, int(score)) for moves, score in rows]
    for kind in [kind for kind in args.play.split(",") if kind]:
        if kind not in PLAY:
            raise ValueError(f"--play: {kind!r} is not one of {', '.join(PLAY)}")
        found = _play_positions(kind, args.games, args.seed, geometry, solver)
        for low, high in BINS:
            label = f"{kind} {low}-{high}" if high < geometry.cells - 1 else f"{kind} {low}+"
            yield label, found[(low, high)]


def _play_positions(kind: str, games: int, seed: int, geometry: Geometry, solver: AutoSolver) -> dict:
    """One position per game in each stone-count bin (not over), with its exact score."""
    rng = random.Random(f"{kind}-{seed}")
    found: dict[tuple[int, int], list[tuple[str, int]]] = {bin_: [] for bin_ in BINS}
    for _ in range(games):
        board = Board(geometry)
        history: list[str] = []
        while not board.is_over:
            board.play(_next_move(kind, board, rng, solver))
            if not board.is_over:
                history.append(board.move_string or "")
        for low, high in BINS:
            candidates = [moves for moves in history if low <= len(moves) <= high]
            if candidates:
                moves = rng.choice(candidates)
                score = solver.solve(moves).score
                if score is not None:
                    found[(low, high)].append((moves, int(score.value)))
    return found


def _next_move(kind: str, board: Board, rng: random.Random, solver: AutoSolver) -> int:
    legal = board.legal_columns()
    if kind == "random":
        return rng.choice(legal)
    scores = solver.analyze(board).scores
    values = {col: int(score.value) for col in legal if (score := scores[col]) is not None}
    best = max(values.values())
    target = (best > 0) - (best < 0)  # keep the value: any move with the best score's sign
    keep = [col for col, value in values.items() if (value > 0) - (value < 0) == target] if target != -1 else []
    return rng.choice(keep or [col for col, value in values.items() if value == best])
