"""The exact solver: Pons's sets, small boards against an exhaustive search, limits, the table."""

from __future__ import annotations

import itertools
import random
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from engine.bench.solver import PONS
from engine.board import Board
from engine.errors import EngineError, PositionError
from engine.geometry import Geometry, centre_order
from engine.kernels.search import new_context
from engine.limits import Limits
from engine.score import Score
from engine.solver import parallel
from engine.solver import solver as solver_module
from engine.solver import table as tt
from engine.solver.arrays import new_scratch, new_table
from engine.solver.moves import centre_column
from engine.solver.parallel import solve_parallel
from engine.solver.settings import MIN_BITS
from engine.solver.solver import Solver
from engine.stats import new_stats
from engine.stop import StopFlag
from tests.engine.exhaustive import columns_of, make_solver, random_position

needs_pons = pytest.mark.skipif(not PONS.is_dir(), reason="shared/benchmarks/pons is not beside the repository")

#: (set, positions solved, positions analysed) in the default run. The sample is the
#: positions with the most stones among the first 100 of a set: the quickest to solve.
SAMPLES = [
    ("Test_L3_R1", 40, 10),
    ("Test_L2_R1", 40, 10),
    ("Test_L2_R2", 10, 2),
    ("Test_L1_R1", 20, 2),
    ("Test_L1_R2", 3, 1),
    ("Test_L1_R3", 1, 1),
]


def values(score: Score | None) -> int | None:
    """A typed exact score as the plain Pons integer the exhaustive search gives."""
    return None if score is None else int(score.value)


def pons_lines(name: str, suffix: str = ".txt", sample: int | None = None) -> list[list[str]]:
    lines = [line.split() for line in (PONS / f"{name}{suffix}").read_text().splitlines() if line.strip()]
    if sample is None:
        return lines
    return sorted(lines[:100], key=lambda fields: -len(fields[0]))[:sample]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(Geometry())


@needs_pons
@pytest.mark.parametrize(("name", "solved", "analysed"), SAMPLES)
def test_pons_sample_scores_and_analyses_are_exact(solver: Solver, name: str, solved: int, analysed: int) -> None:
    for moves, score in pons_lines(name, sample=solved):
        assert solver.solve_moves(moves).score == Score.pons(int(score)), moves
        # The same position through a Board (the other entry point) and weakly.
        assert solver.solve(Board.from_moves(moves), weak=True).score == Score.sign(int(np.sign(int(score))))
    for moves, *scores in pons_lines(name, ".analysis.txt", sample=analysed):
        expected = tuple(None if s == "x" else Score.pons(int(s)) for s in scores)
        assert solver.analyze(Board.from_moves(moves)).scores == expected, moves


@needs_pons
@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("name", [name for name, *_ in SAMPLES])
def test_pons_sets_in_full(name: str) -> None:
    solver = Solver(Geometry())
    lines = pons_lines(name)[: 50 if name == "Test_L1_R3" else None]
    assert [solver.solve_moves(moves).score for moves, _ in lines] == [Score.pons(int(score)) for _, score in lines]


# (cols, rows, connect, plies of the random start, positions): small enough for the plain search.
SMALL = [
    (4, 4, 3, 0, 1),
    (4, 4, 4, 2, 4),
    (5, 4, 4, 6, 6),
    (4, 5, 3, 3, 6),
    (6, 4, 5, 12, 4),
    (5, 5, 4, 11, 5),
    (4, 6, 4, 9, 5),
    (8, 8, 4, 50, 5),  # two-word bitboards
    (9, 7, 5, 50, 4),
]


@pytest.mark.parametrize(("cols", "rows", "connect", "plies", "count"), SMALL)
def test_small_boards_match_an_exhaustive_search(cols: int, rows: int, connect: int, plies: int, count: int) -> None:
    geometry = Geometry(cols, rows, connect)
    # A tiny table forces many replacements: an inexact key would show as a wrong score.
    solver = Solver(geometry, table_mb=0.01)
    score, column_scores, _ = make_solver(cols, rows, connect)
    rng = random.Random(cols * 100 + rows * 10 + connect)
    for _ in range(count):
        moves = random_position(geometry, plies, rng)
        board = Board.from_moves(moves, geometry)
        columns = columns_of(moves, cols)
        expected = score(columns, len(moves))
        assert solver.solve(board).score == Score.pons(expected), moves
        assert solver.solve(board, weak=True).score == Score.sign(int(np.sign(expected))), moves
        assert [values(s) for s in solver.analyze(board).scores] == column_scores(columns, len(moves)), moves
        best = solver.best_move(board)
        assert best.score == Score.pons(expected) and column_scores(columns, len(moves))[best.column] == expected


def test_best_move_prefers_the_centre_among_equal_moves() -> None:
    geometry = Geometry(4, 4, 3)
    solver = Solver(geometry)
    _, column_scores, _ = make_solver(4, 4, 3)
    rng = random.Random(5)
    for _ in range(10):
        moves = random_position(geometry, rng.randrange(0, 6), rng)
        scores = column_scores(columns_of(moves, 4), len(moves))
        top = max(s for s in scores if s is not None)
        centre_first = [1, 2, 0, 3]  # (the centre lies between columns 1 and 2: left before right)
        expected = next(col for col in centre_first if scores[col] == top)
        assert solver.best_move(Board.from_moves(moves, geometry)).column == expected


def test_finished_games_score_by_the_last_stone() -> None:
    solver = Solver(Geometry())
    won = Board.from_moves("1212121")  # X's 7th stone wins: the side to move has lost
    assert solver.solve(won).score == Score.pons(-((42 + 2 - 7) // 2))
    assert solver.analyze(won).scores == (None,) * 7
    with pytest.raises(PositionError):
        solver.solve_moves("12121212")


def test_limits_report_unfinished_never_a_guess() -> None:
    solver = Solver(Geometry())
    board = Board.from_moves("44")
    assert not solver.solve(board, Limits(5000)).finished
    stop = StopFlag()
    stop.set()
    assert solver.solve(board, Limits(stop=stop)).score is None
    assert not solver.analyze(board, Limits(seconds=0.01)).finished
    assert not solver.best_move(board, Limits(5000)).finished
    # The table is still sound afterwards.
    assert solver.solve_moves("3246313").score == Score.pons(-2)


#: The data bits of a table slot (below the check bits).
DATA = (1 << tt.DATA_BITS) - 1


@pytest.mark.parametrize("geometry", [Geometry(), Geometry(8, 8, 4), Geometry(9, 9, 5)])
def test_table_never_answers_for_another_position(geometry: Geometry) -> None:
    table = new_table(MIN_BITS, geometry.wide)
    rng = random.Random(3)
    stored: dict[int, int] = {}
    boards = []
    for index in range(1000):
        board = Board.from_moves(random_position(geometry, rng.randrange(0, 40), rng), geometry)
        current, mask = board.kernel_state()
        data = tt.pack(index % 40 - 20, (tt.UPPER, tt.LOWER, tt.EXACT)[index % 3], -41, index % 16)
        tt.store(table, current, mask, data)
        stored[board.key()] = data
        boards.append(board)
    hits = 0
    for board in boards:
        word = int(tt.probe(table, *board.kernel_state()))
        if word:
            hits += 1
            assert word & DATA == stored[board.key()]
    assert hits > 0


def test_solve_on_the_wrong_board_size_is_refused() -> None:
    with pytest.raises(ValueError):
        Solver(Geometry()).solve(Board(Geometry(8, 8, 4)))


def test_pons_path_is_where_the_tests_look() -> None:
    assert isinstance(PONS, Path)


@pytest.mark.parametrize("geometry", [Geometry(), Geometry(8, 8, 4), Geometry(4, 9, 4), Geometry(9, 9, 4)])
def test_the_unrolled_connect4_winning_cells_equal_the_generic_ones(geometry: Geometry) -> None:
    from engine.kernels.rules import winning_cells4, winning_cells_generic

    rng = random.Random(11)
    for _ in range(200):
        board = Board(geometry)
        for _ in range(rng.randrange(0, geometry.cells)):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_columns()))
        g, (current, mask) = geometry.kernel, board.kernel_state()
        for bits in (current, geometry.to_kernel(board.current ^ board.mask)):
            fast = geometry.from_kernel(winning_cells4(bits, mask, g))
            assert fast == geometry.from_kernel(winning_cells_generic(bits, mask, g))


def test_a_bucket_keeps_the_costliest_result_and_the_newest() -> None:
    table = new_table(MIN_BITS, wide=False)
    # Keys whose mixed values share their top bits (the bucket) and differ below:
    # mixed = key * MIX, so key = mixed * MIX^-1 (MIX is odd, hence invertible mod 2^64).
    inverse = pow(int(tt.MIX), -1, 2**64)
    bucket_top = 12345 << 48
    keys = [(bucket_top | low) * inverse % 2**64 for low in (1, 2, 3, 4)]
    costly, small, newest, costlier = (np.uint64(key) for key in keys)
    zero = np.uint64(0)

    def data(work: int) -> int:
        return int(tt.pack(3, tt.UPPER, -22, work))

    tt.store(table, zero, costly, data(8))
    tt.store(table, zero, small, data(1))
    tt.store(table, zero, newest, data(0))
    assert int(tt.probe(table, zero, costly)) & DATA == data(8)  # survives the smaller results
    assert int(tt.probe(table, zero, newest)) & DATA == data(0)
    assert tt.probe(table, zero, small) == 0  # the older small result made way
    tt.store(table, zero, costlier, data(9))
    assert int(tt.probe(table, zero, costlier)) & DATA == data(9)
    # A new result for a position already in the first slot replaces it there, whatever its work.
    tt.store(table, zero, costlier, data(2))
    assert int(tt.probe(table, zero, costlier)) & DATA == data(2)


@needs_pons
@pytest.mark.parametrize("threads", [2, 5])
def test_threads_give_the_same_exact_scores(monkeypatch: pytest.MonkeyPatch, threads: int) -> None:
    """Every solve goes parallel at once (a tiny threshold) and still finds Pons's scores, strong and weak."""
    monkeypatch.setattr(solver_module, "PARALLEL_AFTER_NODES", 200)
    solver = Solver(Geometry(), 8, threads=threads)
    for moves, score in pons_lines("Test_L2_R2", sample=12) + pons_lines("Test_L1_R1", sample=12):
        assert solver.solve_moves(moves).score == Score.pons(int(score)), moves
        assert solver.solve(Board.from_moves(moves), weak=True).score == Score.sign(int(np.sign(int(score))))


@pytest.mark.parametrize(
    ("cols", "rows", "connect", "plies", "threads"),
    [(9, 5, 4, 16, 2), (7, 7, 4, 20, 3), pytest.param(8, 6, 5, 22, 2, marks=pytest.mark.slow)],
)
def test_threads_agree_with_one_on_other_boards(
    monkeypatch: pytest.MonkeyPatch, cols: int, rows: int, connect: int, plies: int, threads: int
) -> None:
    """Questions shared out from the first node on other boards, wide ones (8x8, 9x7: two-word
    bitboards) too: the scores one thread finds, strong and weak."""
    monkeypatch.setattr(solver_module, "PARALLEL_AFTER_NODES", 1)
    shared = []  # the solves that went to several threads (a search of a few nodes ends before)

    def counted(*args, **kwargs):
        shared.append(args)
        return solve_parallel(*args, **kwargs)

    monkeypatch.setattr(solver_module, "solve_parallel", counted)
    geometry = Geometry(cols, rows, connect)
    one, two = Solver(geometry, 8), Solver(geometry, 8, threads=threads)
    rng = random.Random(cols * 100 + rows * 10 + connect)
    for _ in range(6):
        board = Board.from_moves(random_position(geometry, plies, rng), geometry)
        for weak in (False, True):
            one.reset()
            two.reset()
            assert two.solve(board, weak=weak).score == one.solve(board, weak=weak).score, board.move_string
    assert len(shared) >= 4


@pytest.mark.parametrize(
    ("cols", "rows", "threads"),
    [pytest.param(8, 8, 3, marks=pytest.mark.slow), (9, 7, 4), pytest.param(9, 9, 2, marks=pytest.mark.slow)],
)
def test_threads_agree_with_one_on_wide_boards(
    monkeypatch: pytest.MonkeyPatch, cols: int, rows: int, threads: int
) -> None:
    """Boards of two-word bitboards, their table shared by the threads (see "Threads" in
    engine.solver.table): positions that one thread solves in 5,000 to 300,000 nodes (random play
    leaves most positions decided at once), strong and weak, the same scores on several threads."""
    monkeypatch.setattr(solver_module, "PARALLEL_AFTER_NODES", 1)
    geometry = Geometry(cols, rows)
    one, many = Solver(geometry, 8), Solver(geometry, 8, threads=threads)
    rng, compared = random.Random(cols * 10 + rows), 0
    while compared < 3:
        board = Board.from_moves(random_position(geometry, rng.randint(14, 30), rng), geometry)
        one.reset()
        found = one.solve(board, Limits(300_000))
        if not found.finished or found.nodes < 5000:
            continue
        compared += 1
        for weak in (False, True):
            one.reset()
            many.reset()
            assert many.solve(board, weak=weak).score == one.solve(board, weak=weak).score, board.move_string


def test_an_idle_thread_splits_the_search_another_is_on_for_good() -> None:
    """A thread left without a question splits the one another thread is searching into the
    questions it comes down to: that search stops, and the threads take the parts, distinct
    and not jittered, instead of searching one part twice (see engine.solver.parallel)."""
    geometry = Geometry()
    g = geometry.kernel
    board = Board.from_moves("44433")
    current, mask = board.kernel_state()
    question = parallel._Question(current, mask, board.ply, 0)
    _, parts = parallel._parts(question, g)
    assert len(parts) >= 2
    asked: list[tuple[tuple, int]] = []
    stopped = threading.Event()
    lock = threading.Lock()
    real_ask = parallel._ask

    def ask(current, mask, ply, value, jitter, g, ctx):
        key = (int(current), int(mask))
        if key == (int(question.current), int(question.mask)):
            for _ in range(1000):  # the busy thread: a long search, until another splits it
                if ctx.flag[0]:
                    stopped.set()
                    break
                time.sleep(0.01)
        else:
            with lock:
                asked.append((key, jitter))
        return real_ask(current, mask, ply, value, jitter, g, ctx)

    batch = parallel._Batch([question], g, new_table(16, False), [new_scratch(geometry) for _ in range(3)])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parallel, "_ask", ask)
        assert batch.run(StopFlag())
    assert stopped.is_set()
    first_two = [key for key, _ in asked[:2]]
    assert len(set(first_two)) == 2
    assert set(first_two) <= {(int(part.current), int(part.mask)) for part in parts}
    assert [jitter for _, jitter in asked[:2]] == [0, 0]
    assert question.bound is not None
    assert (question.bound > 0) == (one_thread_bound(question, geometry) > 0)


def one_thread_bound(question: parallel._Question, geometry: Geometry) -> int:
    """The bound one thread's search of ``question`` returns (above its value exactly when "yes")."""
    ctx = parallel.SolveContext(parallel.new_stats(), StopFlag().array, new_table(16, False), new_scratch(geometry))
    return parallel._ask(question.current, question.mask, question.ply, question.value, 0, geometry.kernel, ctx)


def test_a_split_question_is_answered_from_its_parts() -> None:
    """Questions split two levels down and answered from their parts' one-thread answers, part by
    part as threads would: the "yes" or "no" a whole search gives, and a bound on the score's
    right side. Every kind of split is met: the opponent's moves, the replies to our most
    promising move, and (once that move fails) our moves one by one."""
    geometry = Geometry()
    g = geometry.kernel
    solver, rng, kinds = Solver(geometry, 16), random.Random(7), set()

    def settle(batch: parallel._Batch, question: parallel._Question, levels: int) -> None:
        if levels == 0 or not batch._split(question):
            batch._settle(question, one_thread_bound(question, geometry))
            return
        while question.bound is None:  # (a failed "most promising move" gives new parts)
            kinds.add(question.kind)
            settle(batch, next(part for part in question.parts or () if not part.flag.is_set()), levels - 1)

    for _ in range(12):
        board = Board.from_moves(random_position(geometry, rng.randint(8, 14), rng), geometry)
        score = int(solver.solve(board).score.value)
        for value in (score - 1, score):  # a "yes", then a "no"
            current, mask = board.kernel_state()
            question = parallel._Question(current, mask, board.ply, value)
            batch = parallel._Batch([question], g, new_table(16, False), [new_scratch(geometry)])
            with batch.flags:
                settle(batch, question, 2)
            assert question.bound is not None
            assert (question.bound > value) == (score > value), board.move_string
            assert question.bound <= score if score > value else question.bound >= score, board.move_string
    assert kinds == {parallel.EVERY, parallel.BEST, parallel.ANY}


def test_threads_stop_on_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time limit that runs out in the parallel part ends every thread and reports no score."""
    monkeypatch.setattr(solver_module, "PARALLEL_AFTER_NODES", 200)
    before = threading.active_count()
    solver = Solver(Geometry(), 8, threads=4)
    assert not solver.solve(Board(), Limits(seconds=0.5)).finished
    assert solver.solve_moves("3246313").score == Score.pons(-2)  # and the solver goes on soundly
    assert threading.active_count() == before  # no thread left searching


def test_two_searches_counters_never_share_a_cache_line() -> None:
    """Each search writes its node count at every node: arrays made one after another (as the
    threads make theirs), freed and made again, each keep their cache lines (64 bytes) to themselves."""
    arrays = [new_stats(seed=i, extra=i % 3) for i in range(200)]
    del arrays[::2]
    arrays += [new_stats() for _ in range(100)]
    spans = sorted((a.ctypes.data, a.ctypes.data + a.nbytes) for a in arrays)
    assert all(end + 64 <= start for (_, end), (start, _) in itertools.pairwise(spans))


def test_an_analysis_on_threads_finishes_every_column() -> None:
    """Every column's solve of one run goes on threads: the first one's switch to them must not
    leave the next ones a node limit (an unlimited analysis once came back unfinished)."""
    solver = Solver(Geometry(), 8, threads=2)
    analysis = solver.analyze(Board.from_moves("3246313"))
    assert analysis.finished
    assert [None if s is None else s.value for s in analysis.scores] == [-17, -17, -2, -17, -17, -17, -17]


@pytest.mark.parametrize("threads", [0, -1, 1.5, True])
def test_threads_must_be_a_whole_number_from_one(threads) -> None:
    with pytest.raises(EngineError, match="threads must be a whole number"):
        Solver(Geometry(), 8, threads=threads)


def test_wide_table_slot_held_by_a_writer_is_neither_read_nor_written() -> None:
    """The seqlock of a wide board's slot (see engine.solver.table): an odd sequence number means a
    writer is between its two writes, so a reader misses and another writer gives its result up."""
    geometry = Geometry(8, 8)
    table = new_table(MIN_BITS, wide=True)

    def data(work: int) -> int:
        return int(tt.pack(3, tt.UPPER, -33, work))

    current, mask = geometry.to_kernel(0), geometry.to_kernel(1)
    tt.store(table, current, mask, data(3))
    assert int(tt.probe(table, current, mask)) & DATA == data(3)
    slots, high_words = table
    (index,) = np.flatnonzero(slots)
    sequence = int(high_words[index]) >> 32
    assert sequence % 2 == 0 and sequence > 0  # published with an even number
    held = high_words[index] + np.uint64(1 << 32)
    high_words[index] = held  # a writer holds it
    assert tt.probe(table, current, mask) == 0
    tt.store(table, current, mask, data(4))
    assert high_words[index] == held and int(slots[index]) & DATA == data(3)  # not written
    high_words[index] = held + np.uint64(1 << 32)  # released
    assert int(tt.probe(table, current, mask)) & DATA == data(3)


@needs_pons
def test_solve_many_agrees_with_one_by_one_and_passes_bad_strings_on() -> None:
    lines = pons_lines("Test_L3_R1", sample=20) + pons_lines("Test_L2_R1", sample=20)
    solver = Solver(Geometry(), 8)
    texts = [moves for moves, _ in lines]
    solutions = solver.solve_many(texts)
    assert [s.score for s in solutions] == [Score.pons(int(score)) for _, score in lines]
    assert all(s.nodes >= 0 and s.seconds >= 0 for s in solutions)
    assert [s.score for s in solver.solve_many(texts, weak=True)] == [
        Score.sign(int(np.sign(int(score)))) for _, score in lines
    ]
    # A finished game is scored as solve_moves scores it; a bad string raises as solve_moves does.
    assert solver.solve_many(["4455667"])[0].score == solver.solve_moves("4455667").score
    with pytest.raises(PositionError):
        solver.solve_many(["3246313", "44444444"])


@pytest.mark.parametrize("cols", range(4, 10))
def test_one_centre_first_order_for_every_search(cols: int) -> None:
    """Left before right at the same distance from the centre, on odd and even widths alike; the solver's
    kernels and alpha-beta's move order are this one order."""
    order = centre_order(cols)
    assert sorted(order) == list(range(cols))
    distances = [abs(2 * col - (cols - 1)) for col in order]
    assert distances == sorted(distances)
    assert all(order[k] < order[k + 1] for k in range(cols - 1) if distances[k] == distances[k + 1])
    assert tuple(centre_column(Geometry(cols, 6).kernel, i) for i in range(cols)) == order
    assert tuple(new_context(cols, 6, "center", 0).base_order) == order


def test_the_centre_first_order_on_seven_and_eight_columns() -> None:
    assert centre_order(7) == (3, 2, 4, 1, 5, 0, 6)
    assert centre_order(8) == (3, 4, 2, 5, 1, 6, 0, 7)
