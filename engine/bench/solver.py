"""``bench solver``: the solver on the Pons sets, the empty board, and the perfect agent's move times.

Its parts (``--parts``):

* ``sets``: every position of the six Pons sets (or ``--limit N`` of each),
  without the book: mismatches with the known scores, mean time and nodes
  per position, and the ratio to the C++ reference solver measured on the
  same machine (:data:`REFERENCE`, seconds per position), or to any solver
  that answers Pons's way (``POSITION SCORE`` for each line of its standard
  input, such as Pons's ``c4solver``) run on the same positions in the same
  run with ``--reference COMMAND``.
* ``empty``: the empty 7x6 board solved strongly, then weakly (``--empty-kinds``), without a
  book, at each thread count of ``--empty-threads`` (e.g. ``1,2,4,8,16``).
* ``early``: the seeded positions after 4 to 12 random moves in :data:`EARLY` (their scores
  labelled by the solver without a book), each solved by a fresh solver (a new table, as a new
  process has) with the book, on ``--early-threads`` threads: how many took over 1 s and over
  5 s, the worst, the median, and any score that differs from its label.
* ``commands``: the same positions with ``solve``, and positions of up to 6 stones with
  ``explore``, each a fresh process as a person's command is (:mod:`engine.bench.commands`).
* ``wide``: positions of ``--wide-stones`` stones made by seeded random play
  on the boards of ``--wide-boards`` (default 9x5, 8x6 and 7x7), each solved
  with a fresh table: the slowest, the median and how many took over 10 s.
* ``games``: the perfect agent over ``--games`` full games against each
  ``--opponents`` spec, half of them moving first: its time for every move,
  how many moves were exact, and the peak memory of the process.
* ``sizes``: the same on every board of up to 42 cells (connect ``--connects``),
  where every move of the perfect agent must be exact, against each
  ``--size-opponents`` spec.
* ``edge``: on those boards, the positions just past each shipped opening
  book (:func:`~engine.solver.book_builder.edge_positions`; the empty board
  and the first moves where there is no book), each solved as the agent
  meets it: a fresh table of its size, the book loaded. The slowest of them
  bounds the agent's move time, whatever its opponent plays.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.agents.perfect import exact_in_time
from engine.agents.registry import create_agent
from engine.bench.commands import bench_commands
from engine.bench.search import random_positions
from engine.board import Board
from engine.console import emit
from engine.errors import EngineError
from engine.files import write_atomic
from engine.formats import format_moves
from engine.geometry import Geometry
from engine.limits import Limits
from engine.match import play_game
from engine.resources import available_cores
from engine.score import Score
from engine.solver import parallel
from engine.solver.book import load_default
from engine.solver.book_builder import edge_positions
from engine.solver.settings import DEFAULT_TABLE_MB, MAX_TABLE_MB, MAX_THREADS, MIN_TABLE_MB
from engine.solver.solver import Solver
from engine.startup.warmup import warm_up
from engine.validate import MAX_GAMES, MAX_SECONDS, float_arg, int_arg


def find_pons_dir() -> Path:
    """``shared/benchmarks/pons`` beside the repository (or beside one of its parent folders)."""
    here = Path(__file__).resolve()
    for folder in here.parents[2:]:
        candidate = folder / "shared" / "benchmarks" / "pons"
        if candidate.is_dir():
            return candidate
    return here.parents[3] / "shared" / "benchmarks" / "pons"


PONS = find_pons_dir()
#: Pons's C++ solver (``c4solver``, no book) on this machine: seconds per position, its
#: process start not counted (``--reference`` on 2026-11-25; L1_R2 over its first 300
#: positions, L1_R3 over its first 20). The figures here before counted its start, about
#: 50 ms a run: 50 us more for each of 1000 end-game positions.
REFERENCE = {
    "Test_L3_R1": 8e-6,
    "Test_L2_R1": 50e-6,
    "Test_L2_R2": 4.59e-3,
    "Test_L1_R1": 334e-6,
    "Test_L1_R2": 0.133,
    "Test_L1_R3": 3.22,
}
#: The early-position set: ``MOVES SCORE`` lines (see the ``early`` part and :func:`make_early_set`).
EARLY = Path(__file__).with_name("early_7x6.txt")
PARTS = ("sets", "empty", "early", "commands", "wide", "games", "sizes", "edge")
#: Every board of up to 42 cells (the connect-4 boards the perfect agent plays exactly).
EXACT_SIZES = tuple(Geometry(c, r) for c in range(4, 10) for r in range(4, 10) if c * r <= 42)


def exact_sizes(connects: list[int]) -> list[Geometry]:
    """The boards of up to 42 cells where the perfect agent plays every move exactly, for each connect-N
    (N no longer than the board's longer side; see :func:`~engine.agents.perfect.exact_in_time`)."""
    boards = [Geometry(g.cols, g.rows, n) for n in connects for g in EXACT_SIZES if n <= max(g.cols, g.rows)]
    return [g for g in boards if exact_in_time(g, load_default(g))]


def add_parser(benches) -> None:
    parser = benches.add_parser(
        "solver", help="solver speed on the Pons sets, the empty board, perfect-agent move times"
    )
    parser.add_argument("--parts", default="sets,games", help=f"comma-separated parts of {','.join(PARTS)}")
    parser.add_argument("--limit", type=int_arg(0, 10**6), default=0, help="positions per set (default: all)")
    parser.add_argument("--sets", default=",".join(REFERENCE), help="comma-separated set names")
    parser.add_argument("--pons-dir", type=Path, default=PONS, help="folder of the Test_*.txt files")
    parser.add_argument(
        "--table-mb", type=float_arg(MIN_TABLE_MB, MAX_TABLE_MB), default=8, help="table size for the sets (default 8)"
    )
    parser.add_argument(
        "--empty-table-mb",
        type=float_arg(MIN_TABLE_MB, MAX_TABLE_MB),
        default=8,
        help="table size for the empty board (default 8)",
    )
    parser.add_argument(
        "--empty-seconds",
        type=float_arg(0.001, MAX_SECONDS),
        default=3600,
        help="give up on the empty board after this",
    )
    parser.add_argument(
        "--empty-threads",
        type=_thread_counts,
        default=[1],
        help="comma-separated thread counts for the empty board, e.g. 1,2,4,8,16 (default 1)",
    )
    parser.add_argument(
        "--empty-kinds", default="strong,weak", help="strong, weak or both (default strong,weak) for the empty board"
    )
    parser.add_argument(
        "--early-threads", type=int_arg(1, MAX_THREADS), default=2, help="threads of the early part (default 2)"
    )
    parser.add_argument("--early-no-book", action="store_true", help="the early part without the opening book")
    parser.add_argument(
        "--make-early",
        type=Path,
        default=None,
        metavar="FILE",
        help="write a new early-position set (60 seeded positions from --seed, labelled without a book) and stop",
    )
    parser.add_argument(
        "--split-depth",
        type=int_arg(0, 10),
        default=None,
        help="how many levels down the first question is asked on all threads (default: the solver's own)",
    )
    parser.add_argument(
        "--part-levels",
        type=int_arg(0, 10),
        default=None,
        help="how many levels down idle threads split the searches of other threads (default: the solver's own)",
    )
    parser.add_argument(
        "--no-beside",
        action="store_true",
        help="a thread with nothing left to split leaves the question instead of searching beside another",
    )
    parser.add_argument(
        "--reference",
        default="",
        metavar="COMMAND",
        help="a solver that reads positions on stdin and prints POSITION SCORE (e.g. Pons's c4solver), "
        "timed on the same positions for the ratio",
    )
    parser.add_argument("--wide-boards", default="9x5,8x6,7x7", help="boards of the wide part (default 9x5,8x6,7x7)")
    parser.add_argument("--wide-stones", type=int_arg(0, 80), default=6, help="stones of its positions (default 6)")
    parser.add_argument(
        "--wide-positions", type=int_arg(1, 10_000), default=10, help="positions per board (default 10)"
    )
    parser.add_argument(
        "--threads",
        type=int_arg(1, MAX_THREADS),
        default=1,
        help="threads of the sets and the wide part (default 1; above 1 the sets' positions are solved one "
        "call each, and a position goes on threads once it has searched 1.5 million nodes)",
    )
    parser.add_argument(
        "--wide-table-mb",
        type=float_arg(MIN_TABLE_MB, MAX_TABLE_MB),
        default=DEFAULT_TABLE_MB,
        help=f"table size of the wide part (default {DEFAULT_TABLE_MB})",
    )
    parser.add_argument(
        "--games", type=int_arg(1, MAX_GAMES), default=10, help="games against each opponent (default 10)"
    )
    parser.add_argument("--opponents", default="mcts,random", help="comma-separated opponent specs")
    parser.add_argument("--agent", default="perfect", help="the agent whose move times are measured")
    parser.add_argument(
        "--size-opponents",
        nargs="+",
        default=["random", "alphabeta:depth=4,eval=threats"],
        metavar="SPEC",
        help="opponents of the sizes part (default: random and alphabeta:depth=4,eval=threats)",
    )
    parser.add_argument("--connects", default="4", help="comma-separated connect-N of the sizes and edge parts")
    parser.add_argument("--boards", default="", help="only these boards in the sizes and edge parts, e.g. 6x7,8x5")
    parser.add_argument(
        "--edge-limit", type=int_arg(0, 10**6), default=0, help="edge positions per board, a seeded sample (0: all)"
    )
    parser.add_argument(
        "--edge-seconds", type=float_arg(0.01, MAX_SECONDS), default=60, help="give up on an edge position after this"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.set_defaults(run=run)


def run(args) -> int:
    parts = [part.strip() for part in args.parts.split(",") if part.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise EngineError(f"unknown part(s) {', '.join(sorted(unknown))}: choose from {', '.join(PARTS)}")
    if args.make_early is not None:
        if os.path.lexists(args.make_early):  # (said now, not after minutes of solving; a set is never replaced)
            raise EngineError(f"--make-early {args.make_early}: the file exists; give a new name (it is kept)")
        make_early_set(args.make_early, args.seed)
        return 0
    with _sharing(args):
        _run_parts(args, parts)
    return 0


@contextlib.contextmanager
def _sharing(args):
    """The threads' way of sharing a question as ``--split-depth``, ``--part-levels`` and
    ``--no-beside`` ask, for this run only (see engine.solver.parallel)."""
    saved = parallel.SPLIT_DEPTH, parallel.PART_LEVELS, parallel.BESIDE
    if args.split_depth is not None:
        parallel.SPLIT_DEPTH = args.split_depth
    if args.part_levels is not None:
        parallel.PART_LEVELS = args.part_levels
    parallel.BESIDE = saved[2] and not args.no_beside
    try:
        yield
    finally:
        parallel.SPLIT_DEPTH, parallel.PART_LEVELS, parallel.BESIDE = saved


def _run_parts(args, parts: list[str]) -> None:
    emit(f"figures from a shared machine: compare ratios, not absolute times ({available_cores()} cores)")
    if "sets" in parts:
        bench_sets(args)
    if "empty" in parts:
        kinds = [kind.strip() for kind in args.empty_kinds.split(",") if kind.strip()]
        if not kinds or set(kinds) - {"strong", "weak"}:
            raise EngineError("--empty-kinds is strong, weak or strong,weak")
        for threads in args.empty_threads:
            bench_empty(args.empty_table_mb, args.empty_seconds, threads, kinds)
    if "early" in parts:
        bench_early(args.early_threads, not args.early_no_book)
    if "commands" in parts:
        bench_commands(load_set(EARLY, 0), args.seed)
    if "wide" in parts:
        for geometry in _geometries(args.wide_boards):
            bench_wide(geometry, args.wide_stones, args.wide_positions, args.seed, args.wide_table_mb, args.threads)
    if "games" in parts:
        for spec in filter(None, (s.strip() for s in args.opponents.split(","))):
            bench_games(args.agent, spec, args.games, args.seed)
    boards = _boards(args)
    if "sizes" in parts:
        for geometry in boards:
            for spec in args.size_opponents:
                bench_games(args.agent, spec, args.games, args.seed, geometry)
    if "edge" in parts:
        for geometry in boards:
            bench_edge(geometry, args.edge_limit, args.edge_seconds, args.seed)
    emit(f"peak memory {peak_rss_mb():.0f} MB")


def _boards(args) -> list[Geometry]:
    try:
        connects = [int(text) for text in args.connects.split(",") if text.strip()]
        wanted = {tuple(int(n) for n in text.split("x")) for text in args.boards.split(",") if text.strip()}
    except ValueError:
        raise EngineError("--connects is numbers like 4,5 and --boards sizes like 6x7,8x5") from None
    return [g for g in exact_sizes(connects) if not wanted or (g.cols, g.rows) in wanted]


def bench_edge(geometry: Geometry, limit: int, seconds: float, seed: int) -> None:
    """The perfect agent's cold solve of every position just past the board's book (or a sample)."""
    book = load_default(geometry)
    if book is None:
        empty = Board(geometry)
        positions = [empty] + [Board.from_moves([col], geometry) for col in range(geometry.cols // 2 + 1)]
    else:
        positions = edge_positions(book)
    total = len(positions)
    if 0 < limit < total:
        positions = sorted(random.Random(seed).sample(positions, limit), key=lambda board: board.ply)
    solver = Solver(geometry, DEFAULT_TABLE_MB, book=book)
    solver.warm_up()
    times, nodes, unfinished = [], [], 0
    slowest = (0.0, "")
    for board in positions:
        solver.reset()  # cold, as the agent meets a position past its book
        best = solver.best_move(board, Limits(seconds=seconds))
        unfinished += not best.finished
        times.append(best.seconds)
        nodes.append(best.nodes)
        if best.seconds > slowest[0]:
            slowest = (best.seconds, board.move_string or "")
    book_text = "no book" if book is None else f"book of {len(book):,} positions"
    emit(
        f"{geometry.cols}x{geometry.rows} connect {geometry.connect}: {book_text}, {total:,} edge positions, "
        f"{len(positions):,} solved cold; time max {max(times):.3f} s, median {statistics.median(times):.3f} s, "
        f"over 2 s: {sum(t > 2 for t in times)}, unfinished in {seconds:g} s: {unfinished}; "
        f"nodes max {max(nodes):,}; slowest {slowest[1] or '(empty)'}"
    )


def load_set(path: Path, limit: int) -> list[tuple[str, int]]:
    if not path.exists():
        raise EngineError(f"no benchmark file {path}")
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            rows.append((moves, int(score)))
    return rows[:limit] if limit > 0 else rows


def bench_sets(args) -> None:
    solver = Solver(Geometry(), args.table_mb, threads=args.threads)
    solver.solve_many(["4453"])  # compile (or load the compiled kernels) first, of both ways below
    solver.solve_moves("4453")
    emit(
        f"{args.threads} thread(s); mean time is wall-clock, cpu the process's own time "
        "(on a busy machine wall time includes the wait)"
    )
    reference_name = "reference" if args.reference else "C++"
    emit(
        f"{'set':<11} {'positions':>9} {'mismatches':>10} {'mean time':>11} {'mean cpu':>11} {'mean nodes':>12} "
        f"{reference_name:>10} {'ratio':>6} {'cpu ratio':>9}"
    )
    for name in filter(None, (s.strip() for s in args.sets.split(","))):
        rows = load_set(args.pons_dir / f"{name}.txt", args.limit)
        solver.reset()
        start, cpu_start = time.perf_counter(), time.process_time()
        if args.threads == 1:  # in one kernel call: an end game takes less than a call from Python
            solutions = solver.solve_many([moves for moves, _ in rows])
        else:  # one at a time, as `solve --threads N` does: solve_many runs on one thread
            solutions = [solver.solve_moves(moves) for moves, _ in rows]
        mean = (time.perf_counter() - start) / len(rows)
        nodes = sum(solution.nodes for solution in solutions)
        mismatches = 0
        for (moves, expected), solution in zip(rows, solutions, strict=True):
            if solution.score != Score.pons(expected):
                mismatches += 1
                print(f"mismatch: {moves} solved {solution.score}, expected {expected}", file=sys.stderr)
        cpu = (time.process_time() - cpu_start) / len(rows)
        reference = time_reference(args.reference, rows) if args.reference else REFERENCE.get(name)
        ratio = f"{mean / reference:6.2f} {cpu / reference:9.2f}" if reference else f"{'-':>6} {'-':>9}"
        emit(
            f"{name:<11} {len(rows):>9} {mismatches:>10} {_duration(mean):>11} {_duration(cpu):>11} "
            f"{nodes / len(rows):>12,.0f} {_duration(reference) if reference else '-':>10} {ratio}"
        )


def time_reference(command: str, rows: list[tuple[str, int]]) -> float:
    """Seconds per position of another solver given every position on its standard input.

    Its start (a run with no input, taken from the time) is not counted: ours is not either.
    Three runs: a long set takes three times as long as ours alone.
    Its answers are checked too: a wrong or missing score is an error, not a figure.
    """
    # The quickest of three runs each: a start takes tens of milliseconds, as long as a whole end-game set.
    start_up = min(_run_reference(command, "")[0] for _ in range(3))
    runs = [_run_reference(command, "".join(f"{moves}\n" for moves, _ in rows)) for _ in range(3)]
    for _, out in runs:
        answers = [line.split()[:2] for line in out.splitlines()]
        if answers != [[moves, str(score)] for moves, score in rows]:
            raise EngineError(f"the reference solver {command!r} did not answer every position with its known score")
    return max(1e-9, min(seconds for seconds, _ in runs) - start_up) / len(rows)


def _run_reference(command: str, stdin: str) -> tuple[float, str]:
    """``(seconds, standard output)`` of one run of the reference solver."""
    start = time.perf_counter()
    try:
        done = subprocess.run(shlex.split(command), input=stdin, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise EngineError(f"cannot run the reference solver {command!r}: {exc}") from None
    return time.perf_counter() - start, done.stdout


def _geometries(text: str) -> list[Geometry]:
    return [Geometry.parse(size) for size in text.split(",") if size.strip()]


def bench_wide(geometry: Geometry, stones: int, count: int, seed: int, table_mb: float, threads: int) -> None:
    """Positions of ``stones`` stones on a wider board, each solved with a fresh table, no book."""
    solver = Solver(geometry, table_mb, threads=threads)
    solver.warm_up()
    times = []
    for board in random_positions(count, seed, geometry, stones):
        solver.reset()
        solution = solver.solve(board)
        times.append(solution.seconds)
        emit(f"  {board.move_string} {solution.score} {solution.nodes:,} nodes {solution.seconds:.2f} s")
    if not times:
        emit(f"{geometry}: no game of {stones} stones is still going on")
        return
    emit(
        f"{geometry}: {len(times)} positions of {stones} stones, {threads} thread(s), {table_mb:g} MB: "
        f"slowest {max(times):.2f} s, median {statistics.median(times):.2f} s, over 10 s: {sum(t > 10 for t in times)}"
    )


def _thread_counts(text: str) -> list[int]:
    """An argparse ``type=`` for comma-separated thread counts."""
    parse = int_arg(1, MAX_THREADS)
    counts = [parse(part.strip()) for part in text.split(",") if part.strip()]
    if not counts:
        raise argparse.ArgumentTypeError("give thread counts such as 1,2,4")
    return counts


def make_early_set(path: Path, seed: int, count: int = 60) -> None:
    """Write ``count`` positions after 4 to 12 seeded random moves on 7x6 (nobody able to win at once,
    no two the same), each with its exact score from the solver without a book, on every core."""
    rows = list[str]()
    solver = Solver(Geometry(), 256, threads=available_cores())
    for board in random_positions(count, seed, Geometry(), (4, 12), distinct=True):
        solver.reset()
        solution = solver.solve(board)
        assert solution.score is not None
        rows.append(f"{board.move_string} {solution.score.value}")
        emit(f"  {board.move_string} {solution.score.value} ({solution.seconds:.1f} s)")
    write_atomic(path, "\n".join(rows) + "\n")
    emit(f"{len(rows)} positions in {path}")


def bench_early(threads: int, with_book: bool) -> None:
    """The early-position set, each position on a fresh solver (a new table, as a new process has)."""
    rows = load_set(EARLY, 0)
    book = load_default(Geometry()) if with_book else None
    times, wrong = [], 0
    for moves, expected in rows:
        solver = Solver(Geometry(), DEFAULT_TABLE_MB, book=book, threads=threads)
        solver.warm_up()
        solution = solver.solve(Board.from_moves(moves))
        times.append(solution.seconds)
        if solution.score != Score.pons(expected):
            wrong += 1
            print(f"mismatch: {moves} solved {solution.score}, expected {expected}", file=sys.stderr)
        emit(f"  {moves} {solution.score} {solution.nodes:,} nodes {solution.seconds:.2f} s")
    emit(
        f"early positions: {len(rows)}, {threads} thread(s), {'book' if with_book else 'no book'}: "
        f"over 1 s {sum(t > 1 for t in times)}, over 5 s {sum(t > 5 for t in times)}, "
        f"worst {max(times):.2f} s, median {statistics.median(times):.2f} s, wrong scores {wrong}"
    )


def bench_empty(table_mb: float, seconds: float, threads: int, kinds: list[str]) -> None:
    """The empty 7x6 board solved strongly, then weakly (each with a fresh table, no book)."""
    for weak in (kind == "weak" for kind in kinds):
        solver = Solver(Geometry(), table_mb, threads=threads)
        solver.warm_up()  # (compiling or loading the kernels is not the solve)
        cpu = time.process_time()
        solution = solver.solve(Board(), Limits(seconds=seconds), weak=weak)
        cpu = time.process_time() - cpu
        outcome = f"score {solution.score}" if solution.finished else "not finished"
        emit(
            f"empty 7x6 board, {'weak' if weak else 'strong'}, no book: {outcome} after {solution.seconds:.1f} s "
            f"({cpu:.1f} s cpu), {solution.nodes:,} nodes, {table_mb:g} MB table, {threads} thread(s)"
        )


def bench_games(agent_spec: str, opponent_spec: str, games: int, seed: int, geometry: Geometry | None = None) -> None:
    warm_up([agent_spec, opponent_spec])  # compile (or load) the kernels first, as the game does at start-up
    agent = create_agent(agent_spec, seed=seed)
    opponent = create_agent(opponent_spec, seed=seed + 1)
    times: list[float] = []
    slowest = (0.0, "")  # the longest move and the position it was played in
    exact = total = wins = draws = 0
    try:
        for game in range(games):
            agent.new_game(seed + game)
            opponent.new_game(seed + 1000 + game)
            agent_first = game % 2 == 0
            start = Board(geometry or Geometry())
            record = play_game(*((agent, opponent) if agent_first else (opponent, agent)), start)
            mine = record.results[0 if agent_first else 1 :: 2]
            times.extend(result.seconds for result in mine)
            for index in range(0 if agent_first else 1, len(record.moves), 2):
                seconds = record.results[index].seconds
                if seconds > slowest[0]:
                    slowest = (seconds, format_moves(record.moves[:index]))
            exact += sum(result.exact is True for result in mine)
            total += len(mine)
            if record.winner is None:
                draws += 1
            elif (record.winner.value == 0) == agent_first:
                wins += 1
    finally:
        agent.close()
        opponent.close()
    board = "" if geometry is None else f"{geometry.cols}x{geometry.rows} "
    emit(
        f"{board}{agent_spec} vs {opponent_spec}: {games} games, "
        f"won {wins}, drew {draws}, lost {games - wins - draws}; "
        f"{total} moves, {exact} exact; time per move max {max(times):.3f} s, median {statistics.median(times):.3f} s, "
        f"mean {statistics.fmean(times):.3f} s, over 2 s: {sum(t > 2 for t in times)}; "
        f"slowest in position {slowest[1] or '(empty)'}"
    )


def peak_rss_mb() -> float:
    """The process's peak resident memory (Linux reports KB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2**20 if sys.platform == "darwin" else 2**10)


def _duration(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} us"
