"""``book`` on the studies' runner: the same bytes for any number of workers, here or on a Dask cluster,
a build killed in the middle that resumes to the same book, and ``--verify`` catching a tampered book."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.board import Board
from engine.geometry import Geometry
from engine.solver.book import DATA_BITS, Book, board_of_key, book_key, pack, unpack
from engine.solver.book_builder import BookBuilder, complete_plies, every_position, resume_path, verify_path
from engine.solver.book_tasks import CheckTask, PositionTask
from engine.solver.solver import Solver
from tests.engine.experiments.test_cluster_trust import (  # noqa: F401 (processes is a fixture)
    _engine,
    _env,
    _free_port,
    _start_scheduler,
    _start_worker,
    processes,
)
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
#: A small board whose book has judged leaves, solved positions and several plies: 126 positions.
#: (The solver looks at its node limit every 4,096 nodes, so a leaf budget below that judges alike.)
BOARD = ["--cols", "5", "--rows", "5", "--plies", "20", "--leaf-nodes", "5000", "--quiet"]
GEOMETRY = Geometry(5, 5, 4)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> bytes:
    """The bytes of the small board's book built here, in order (``--jobs 1``)."""
    from engine.cli import main

    path = tmp_path_factory.mktemp("reference") / "book.bin"
    assert main(["book", *BOARD, "--jobs", "1", "--output", str(path)]) == 0
    assert not resume_path(path).exists()  # a build that ends removes its resume file
    return path.read_bytes()


def test_the_reference_book_is_a_real_tree(reference, tmp_path) -> None:
    path = tmp_path / "book.bin"
    path.write_bytes(reference)
    book = Book.load(path)
    plies = {board.ply for board, _ in book.positions()}
    leaves = sum(entry.leaf for _, entry in book.positions())
    assert len(book) > 50 and max(plies) >= 6 and 0 < leaves < len(book)


@pytest.mark.slow
def test_two_local_workers_write_the_same_bytes(cli, reference, tmp_path) -> None:
    path = tmp_path / "book.bin"
    status, out, err = cli(["book", *BOARD, "--jobs", "2", "--output", str(path)])
    assert status == 0, err
    assert path.read_bytes() == reference
    assert "ply  0: 1 positions, 1 new" in out


def test_threads_2_writes_the_same_bytes(cli, reference, tmp_path) -> None:
    path = tmp_path / "book.bin"
    status, _, err = cli(["book", *BOARD, "--jobs", "1", "--threads", "2", "--output", str(path)])
    assert status == 0, err
    assert path.read_bytes() == reference


@pytest.mark.slow
def test_a_build_killed_in_the_middle_resumes_to_the_same_book(reference, tmp_path) -> None:
    path = tmp_path / "book.bin"
    resume = resume_path(path)
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", "book", *BOARD, "--jobs", "1", "--output", str(path)],
        cwd=ROOT,
        env=_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        past_ply_3 = lambda: resume.exists() and resume.read_bytes().count(b"\n") >= 20  # noqa: E731 - of 9 plies
        wait_until(lambda: process.poll() is not None or past_ply_3(), 240, "the build past ply 3")
        os.killpg(process.pid, signal.SIGKILL)  # no chance to save: as if the machine went down
    finally:
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL, "the build ended before it was killed"
    done = {json.loads(line)["key"] for line in resume.read_text().splitlines() if line.endswith("}")}
    assert 20 <= len(done) < len(Book.load(_copy(reference, tmp_path)))  # stopped in the middle
    status, _, err, _ = _engine(["book", *BOARD, "--jobs", "1", "--output", str(path)], _env())
    assert status == 0, err
    assert path.read_bytes() == reference
    assert not resume.exists()


@pytest.mark.slow
def test_the_cluster_writes_the_same_bytes(processes, reference, tmp_path) -> None:  # noqa: F811
    port = _free_port()
    env = _env()
    _start_scheduler(processes, port, env)
    _start_worker(processes, port, env)
    path = tmp_path / "book.bin"
    status, _, err, _ = _engine(
        ["book", *BOARD, "--cluster", f"tcp://127.0.0.1:{port}", "--output", str(path)],
        _env(ENGINE_CLUSTER_TIMEOUT="90"),
        timeout=240,
    )
    assert status == 0, err
    assert path.read_bytes() == reference


def _tampered(reference: bytes, tmp_path: Path) -> tuple[Path, Board, int]:
    """The reference book with one stored column replaced by a worse one (checksum still right)."""
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "book.bin"
    path.write_bytes(reference)
    book = Book.load(path)
    solver = Solver(GEOMETRY)
    for board, entry in book.positions():
        scores = solver.analyze(board).scores
        worse = [col for col, score in enumerate(scores) if score is not None and score.value < entry.score]
        if board.ply >= 3 and worse:
            words = book.entries.copy()
            key = book_key(board)[0]
            assert not book_key(board)[1]  # positions() gives the stored image: its columns are the stored ones
            words[words == pack(key, entry.score, entry.column, entry.leaf)] = pack(
                key, entry.score, worse[0], entry.leaf
            )
            Book(GEOMETRY, words).save(path)
            return path, board, entry.score
    raise AssertionError("no position with a worse column")


def test_verify_passes_a_built_book_and_fails_a_tampered_one(cli, reference, tmp_path) -> None:
    good = tmp_path / "good.bin"
    good.write_bytes(reference)
    status, out, err = cli(
        ["book", "--cols", "5", "--rows", "4", "--verify", "--jobs", "1", "--quiet", "--output", str(good)]
    )
    assert status == 0, err
    assert f"{len(Book.load(good))} positions checked: every stored score is exact" in out
    path, board, score = _tampered(reference, tmp_path / "bad")
    status, out, err = cli(
        ["book", "--cols", "5", "--rows", "4", "--verify", "--jobs", "1", "--quiet", "--output", str(path)]
    )
    assert status == 1
    assert out.count("wrong: ") == 1 and f"(ply {board.ply}): stored score {score}" in out
    assert "1 of " in out and "--repair" in out


def test_a_stopped_check_goes_on_where_it_was(cli, reference, tmp_path, monkeypatch) -> None:
    path, board, _ = _tampered(reference, tmp_path)
    args = ["book", *BOARD, "--verify", "--jobs", "1", "--output", str(path)]
    checked = CheckTask.run
    runs: list[int] = []

    def counted(task: CheckTask):
        runs.append(task.position)
        if len(runs) == 5 and stop_at_five:
            raise KeyboardInterrupt  # as Ctrl-C in the fifth solve
        return checked(task)

    monkeypatch.setattr(CheckTask, "run", counted)
    stop_at_five = True
    status, out, _ = cli(args)
    assert status == 130 and "run again to continue" in out
    assert len(verify_path(path).read_text().splitlines()) == 4  # the four checked before the interrupt
    total = len(Book.load(path))
    stop_at_five, runs[:] = False, []
    status, out, _ = cli(args)
    assert status == 1 and f"(ply {board.ply})" in out
    assert len(runs) == total - 4  # the four were not solved again
    runs.clear()
    assert cli(args)[0] == 1 and runs == []  # a failed check keeps its rows (for --repair, or a look again)
    assert cli([*args, "--restart"])[0] == 1 and len(runs) == total  # --restart forgets them
    good = tmp_path / "good.bin"
    good.write_bytes(reference)
    status, _, err = cli(["book", *BOARD, "--verify", "--jobs", "1", "--output", str(good)])
    assert status == 0, err
    assert not verify_path(good).exists()  # a check that passes leaves nothing behind


def test_repair_solves_the_wrong_position_again(cli, reference, tmp_path) -> None:
    path, _, _ = _tampered(reference, tmp_path)
    status, out, err = cli(["book", *BOARD, "--repair", "--jobs", "1", "--output", str(path)])
    assert status == 0, err
    assert "1 stored positions were wrong" in out
    assert path.read_bytes() == reference


def test_a_tampered_score_is_caught_too(reference, tmp_path) -> None:
    path = tmp_path / "book.bin"
    path.write_bytes(reference)
    book = Book.load(path)
    word = int(book.entries[len(book) // 2])
    entry_score = (word & 0x7F) - 64
    lie = word - entry_score + (entry_score + 1 if entry_score < 5 else entry_score - 1)  # the score field only
    row = CheckTask(5, 5, 4, lie, table_mb=16).run()
    assert row["ok"] is False and row["exact"] == entry_score
    assert CheckTask(5, 5, 4, word, table_mb=16).run()["ok"] is True


def test_rows_that_are_not_the_tasks_are_refused() -> None:
    """A resume file or a worker sends rows: a row of another position, an illegal column, not a bool, is refused."""
    board = Board.from_moves("33333", GEOMETRY)  # column 3 is full
    key = book_key(board)[0]
    task = PositionTask(5, 5, 4, key, leaf_nodes=0, table_mb=16)
    row = task.run()
    assert task.fits([row])
    assert board_of_key(key, GEOMETRY).is_legal(row["column"])
    for change in ({"position": key + 1}, {"column": 2}, {"column": 9}, {"leaf": 1}, {"score": 99}, {"nodes": -1}):
        assert not task.fits([{**row, **change}]), change
    assert not task.fits([row, row]) and not task.fits([])


def test_an_off_tree_task_makes_no_judging_solver() -> None:
    """Off the agent's tree a position gets a score only: nothing is judged, so the process keeps no
    judging solver (a table) for it; a task on the tree does."""
    from engine.solver import book_tasks

    board = Board.from_moves("3344523", GEOMETRY)
    key = book_key(board)[0]
    book_tasks._SOLVERS.clear()
    row = PositionTask(5, 5, 4, key, leaf_nodes=None, table_mb=16, judge_table_mb=4).run()
    assert row["column"] is None and row["solved"] and not row["leaf"]
    assert [table_mb for _, _, table_mb, _ in book_tasks._SOLVERS] == [16.0]
    PositionTask(5, 5, 4, key, leaf_nodes=0, table_mb=16, judge_table_mb=4).run()
    assert sorted(table_mb for _, _, table_mb, _ in book_tasks._SOLVERS) == [4.0, 16.0]


def test_a_resume_file_with_a_forged_row_runs_that_position_again(reference, tmp_path) -> None:
    path = tmp_path / "book.bin"
    resume = resume_path(path)
    empty = book_key(Board(GEOMETRY))[0]
    forged = {"position": empty, "score": 0, "column": 7, "leaf": True, "solved": False, "nodes": 0, "seconds": 0.0}
    key = PositionTask(5, 5, 4, empty, leaf_nodes=5000).key
    resume.write_text(json.dumps({"key": key, "rows": [forged]}) + "\nnot json\n")
    builder = BookBuilder(GEOMETRY, path, max_ply=20, leaf_nodes=5000, table_mb=16)
    builder.run(progress=False)
    assert path.read_bytes() == reference


def test_a_resume_file_that_is_not_a_regular_file_is_one_line(cli, tmp_path) -> None:
    path = tmp_path / "book.bin"
    os.mkfifo(resume_path(path))
    status, _, err = cli(["book", *BOARD, "--jobs", "1", "--output", str(path)])
    assert status == 2 and len(err.strip().splitlines()) == 1 and "not a regular file" in err, err


def test_restart_forgets_the_book_and_the_resume_file(cli, reference, tmp_path) -> None:
    path = tmp_path / "book.bin"
    other = np.array(sorted(int(w) ^ (1 << 11) for w in Book.load(_copy(reference, tmp_path)).entries), dtype=np.uint64)
    Book(GEOMETRY, other).save(path)  # every leaf flag flipped: resumed, it would be taken as it is
    status, _, err = cli(["book", *BOARD, "--jobs", "1", "--restart", "--output", str(path)])
    assert status == 0, err
    assert path.read_bytes() == reference


def _copy(data: bytes, folder: Path) -> Path:
    path = folder / "copy.bin"
    path.write_bytes(data)
    return path


# -- every position of one ply (--every-ply) --------------------------------------------------
LAYER = 4  # 5x5 has 177 positions of 4 stones, mirror images once; a second's work


@pytest.fixture(scope="module")
def layered(reference, tmp_path_factory) -> bytes:
    """The small board's book with every position of ``LAYER`` stones, built on the reference book."""
    from engine.cli import main

    path = tmp_path_factory.mktemp("layered") / "book.bin"
    path.write_bytes(reference)
    assert main(["book", *BOARD, "--jobs", "1", "--every-ply", str(LAYER), "--output", str(path)]) == 0
    return path.read_bytes()


def test_every_ply_stores_every_position_and_keeps_the_tree(reference, layered, tmp_path) -> None:
    (tmp_path / "tree").mkdir()
    tree, book = Book.load(_copy(reference, tmp_path / "tree")), Book.load(_copy(layered, tmp_path))
    tree_words = {int(word) for word in tree.entries}
    layer_words = {int(word) for word in book.entries}
    assert tree_words <= layer_words  # the tree's entries, flags and columns unchanged
    keys = {word >> DATA_BITS for word in layer_words}
    expected = set(every_position(GEOMETRY, LAYER))
    assert expected is not None and len(expected) > 100 and expected <= keys
    added = [unpack(word, GEOMETRY, False) for word in layer_words - tree_words]
    assert len(added) == len(expected - {word >> DATA_BITS for word in tree_words})
    assert all(entry.column is None and not entry.leaf for entry in added)  # off the tree: a score only
    assert complete_plies(keys, GEOMETRY) == {LAYER}


def test_complete_plies_finds_each_whole_ply_and_no_partial_one() -> None:
    """Every position of 2 and of 4 stones, most of 3 and a few of 5: plies 2 and 4 are whole."""
    two, three, four, five = (set(every_position(GEOMETRY, ply)) for ply in (2, 3, 4, 5))
    partial = set(sorted(three)[1:]) | set(sorted(five)[:10])
    assert complete_plies(two | four | partial, GEOMETRY) == {2, 4}
    assert complete_plies(two | three | four | five, GEOMETRY) == {2, 3, 4, 5}
    assert complete_plies(set(), GEOMETRY) == set()


def test_the_solver_answers_every_position_of_the_two_plies_at_once(layered, tmp_path) -> None:
    """The layer's own positions from the book, those a ply before by one move of look-ahead: exact."""
    book = Book.load(_copy(layered, tmp_path))
    with_book, without = Solver(GEOMETRY, 8, book=book), Solver(GEOMETRY, 8)
    for ply in (LAYER - 1, LAYER):
        keys = every_position(GEOMETRY, ply)
        assert keys
        for key in sorted(keys)[::5]:
            board = board_of_key(key, GEOMETRY)
            solution = with_book.solve(board)
            assert solution.nodes == 0, board.move_string
            without.reset()
            assert solution.score == without.solve(board).score, board.move_string


def test_a_later_build_without_the_option_keeps_the_layer(cli, layered, tmp_path) -> None:
    path = _copy(layered, tmp_path)
    status, out, err = cli(["book", *BOARD, "--jobs", "1", "--output", str(path)])
    assert status == 0, err
    assert path.read_bytes() == layered
    assert f"ply  {LAYER}: " in out


def test_verify_checks_a_layer_by_its_scores(cli, layered, tmp_path) -> None:
    path = _copy(layered, tmp_path)
    args = ["book", *BOARD, "--verify", "--jobs", "1", "--from-ply", str(LAYER), "--to-ply", str(LAYER)]
    status, out, err = cli([*args, "--output", str(path)])
    assert status == 0, err
    book = Book.load(path)
    layer = [word for word in map(int, book.entries) if board_of_key(word >> DATA_BITS, GEOMETRY).ply == LAYER]
    assert f"{len(layer)} positions checked" in out
    # One off-tree score made wrong (a score only, so only its score can be wrong) is caught.
    word = next(w for w in layer if unpack(w, GEOMETRY, False).column is None)
    entry = unpack(word, GEOMETRY, False)
    wrong = pack(word >> DATA_BITS, entry.score + (1 if entry.score < 0 else -1), None, False)
    words = np.array(sorted({*map(int, book.entries)} - {word} | {wrong}), dtype=np.uint64)
    Book(GEOMETRY, words).save(path)
    status, out, _ = cli([*args, "--output", str(path)])
    assert status == 1
    assert "1 of" in out and "are wrong" in out


def test_a_ply_below_a_whole_one_is_derived_without_a_search_and_is_exact(layered, tmp_path, capsys) -> None:
    from engine.cli import main

    path = _copy(layered, tmp_path)
    before = {int(word) for word in Book.load(path).entries}
    assert main(["book", *BOARD, "--jobs", "1", "--quiet", "--every-ply", str(LAYER - 1), "--output", str(path)]) == 0
    assert "0 solved in this run" in capsys.readouterr().out
    book = Book.load(path)
    added = [int(word) for word in book.entries if int(word) not in before]
    assert added and LAYER - 1 in complete_plies({word >> DATA_BITS for word in book.entries}, GEOMETRY)
    solver = Solver(GEOMETRY, 8)
    for word in added:
        board = board_of_key(word >> DATA_BITS, GEOMETRY)
        assert board.ply == LAYER - 1
        solver.reset()
        assert solver.solve(board).score.value == unpack(word, GEOMETRY, False).score, board
