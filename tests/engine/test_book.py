"""Opening books: the file format, lookups through mirror images, and agreement with the solver."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.solver.book as book_module
from engine.agents.registry import create_agent
from engine.board import Board
from engine.geometry import Geometry
from engine.limits import Limits
from engine.score import Score
from engine.solver.book import (
    DATA_BITS,
    DEFAULT_PATH,
    Book,
    BookError,
    board_of_key,
    book_key,
    book_path,
    load_default,
    pack,
    unpack,
)
from engine.solver.book_builder import BookBuilder, check_book, complete_plies, edge_positions
from engine.solver.book_tasks import PositionTask
from engine.solver.solver import Solver, game_over_score, win_now_score


def test_keys_decode_to_their_positions() -> None:
    rng = random.Random(2)
    for geometry in (Geometry(), Geometry(6, 7, 4), Geometry(4, 4, 3)):
        for _ in range(50):
            board = Board(geometry)
            for _ in range(rng.randrange(0, 12)):
                if board.is_over:
                    break
                board.play(rng.choice(board.legal_columns()))
            if board.winner is None:
                assert board_of_key(board.key(), geometry) == board


def test_a_position_and_its_mirror_share_an_entry(tmp_path) -> None:
    board = Board.from_moves("112")
    mirror = Board.from_moves("776")
    key, mirrored = book_key(board)
    assert book_key(mirror)[0] == key and book_key(mirror)[1] != mirrored
    stored = 0 if not mirrored else 6  # column 1 as seen from board's side, in the key's orientation
    book = Book(Geometry(), np.array([pack(key, -3, stored, False)], dtype=np.uint64))
    book.save(tmp_path / "one.bin")
    loaded = Book.load(tmp_path / "one.bin")
    assert loaded.entry(board).column == 0 and loaded.entry(board).score == -3
    assert loaded.entry(mirror).column == 6
    assert loaded.entry(Board.from_moves("11")) is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not an opening book"),
        (b"C4BOOK 9 7 6 4 1\n", "format 9"),
        (b"C4BOOK 1 7 6 4 3\n\0\0", "format 1, which has no checksum"),
        (b"C4BOOK 2 7 6 4 " + b"9" * 5000 + b" 0\n", "is not a number"),
        (b"C4BOOK 2 12 6 4 0 00000000\n", "columns must be"),
        (b"C4BOOK 2 7 6 4 0 00000000\n", "checksum"),
    ],
)
def test_bad_book_files_are_one_clear_error(tmp_path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.bin"
    path.write_bytes(content)
    with pytest.raises(BookError, match=message):
        Book.load(path)
    with pytest.raises(BookError, match="cannot read"):
        Book.load(tmp_path / "missing.bin")


def test_a_built_book_agrees_with_the_solver(tmp_path) -> None:
    geometry = Geometry(5, 4, 4)
    book = BookBuilder(geometry, tmp_path / "b.bin", max_ply=5, leaf_nodes=0).run(progress=False)
    solver = Solver(geometry)
    for board, entry in book.positions():
        analysis = [None if s is None else s.value for s in solver.analyze(board).scores]
        assert entry.score == max(s for s in analysis if s is not None)
        assert analysis[entry.column] == entry.score
    # The agent's side of the tree: every reply to a stored best move is in the book.
    first = book.entry(Board(geometry))
    after = Board.from_moves([first.column], geometry)
    for reply in after.legal_columns():
        child = after.copy()
        child.play(reply)
        assert child.is_over or book.entry(child) is not None


shipped = pytest.mark.skipif(not DEFAULT_PATH.exists(), reason="no shipped book")


@shipped
def test_the_shipped_book_agrees_with_itself() -> None:
    """Each stored score is the minimax of the stored positions two plies on, where all are stored."""
    book = load_default(Geometry())
    assert book is not None and len(book) > 0
    best = Geometry().win_score(2 * 4 - 1)  # the earliest win: the first player's 4th stone
    low, high = -best, best
    for board, entry in book.positions():
        assert low <= entry.score <= high
        if entry.column is None:  # every position of 2 to 7 stones, off the tree: a score only
            assert 2 <= board.ply <= 7 and not entry.leaf
            continue
        assert board.is_legal(entry.column)
        after = board.copy()
        after.play(entry.column)
        if after.is_over:
            assert entry.score == win_now_score(board)
            continue
        outcomes = []  # our score after each reply
        for reply in after.legal_columns():
            if after.is_winning_move(reply):
                outcomes.append(-win_now_score(after))
                continue
            child = after.copy()
            child.play(reply)
            known = game_over_score(child) if child.is_over else book.score(child)
            outcomes.append(known)
        if None not in outcomes:
            assert entry.score == min(outcomes), board


@shipped
def test_the_shipped_book_holds_every_position_of_2_to_5_stones_and_each_agrees_with_its_children() -> None:
    """Every position of 2 to 5 stones is stored; each of up to 4 stones has the best of its children's
    scores (the tree's were solved on their own when it was built, the others derived from ply 5)."""
    book = load_default(Geometry())
    assert book is not None
    keys = {int(word) >> DATA_BITS for word in book.entries}
    assert {2, 3, 4, 5} <= complete_plies(keys, Geometry())
    early = [(board, entry) for board, entry in book.positions() if board.ply <= 4]
    assert len(early) >= 1 + 4 + 25 + 121 + 568
    for board, entry in early:
        scores = []
        for col in board.legal_columns():
            if board.is_winning_move(col):
                scores.append(win_now_score(board))
                continue
            board.play(col)
            known = game_over_score(board) if board.is_over else book.score(board)
            board.undo()
            assert known is not None, board
            scores.append(-known)
        assert max(scores) == entry.score, board


@pytest.mark.slow
@shipped
def test_a_sample_of_the_derived_positions_solves_to_its_stored_score() -> None:
    """Plies 2 to 4 were derived from ply 5 without a search: a few of them, solved afresh without the book
    (seconds each; the default run's sample is the builder's derived ply on a small board, every one solved)."""
    book = load_default(Geometry())
    assert book is not None
    derived = [(board, entry) for board, entry in book.positions() if 3 <= board.ply <= 4 and entry.column is None]
    solver = Solver(Geometry(), 64)
    for board, entry in random.Random(4).sample(derived, 3):
        solver.reset()
        assert solver.solve(board).score == Score.pons(entry.score), board


@shipped
@pytest.mark.slow
@pytest.mark.timeout(3600)  # opening positions take minutes each
def test_the_shipped_book_agrees_with_the_solver_on_its_deepest_positions() -> None:
    book = load_default(Geometry())
    deepest = sorted(book.positions(), key=lambda item: -item[0].ply)[:3]
    solver = Solver(Geometry(), table_mb=256)
    for board, entry in deepest:
        assert solver.solve(board).score == Score.pons(entry.score)
        board.play(entry.column)
        assert board.is_over or solver.solve(board).score == Score.pons(-entry.score)


def test_each_board_has_its_own_book_file() -> None:
    assert book_path(Geometry()) == DEFAULT_PATH and DEFAULT_PATH.name == "book_7x6.bin"
    assert (book_path(Geometry(6, 7)).name, book_path(Geometry(6, 5, 5)).name) == ("book_6x7.bin", "book_6x5_5.bin")
    assert load_default(Geometry(9, 9)) is None  # too wide for a book key: no book, no error


def _resaved(tmp_path, words: list[int]) -> Path:
    """A 7x6 book file with these entries and a correct checksum: damage the checksum cannot see."""
    path = tmp_path / "crafted.bin"
    Book(Geometry(), np.array(words, dtype=np.uint64)).save(path)
    return path


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ([pack(book_key(Board())[0], 1, 14, False)], "a stored column is above 7"),
        ([pack(book_key(Board.from_moves("444444"))[0], 0, 3, False)], "column 4 is full"),
        ([pack(book_key(Board())[0], 40, 3, False)], "beyond the board's range"),
        ([pack(book_key(Board.from_moves("4"))[0], 0, 3, False), pack(book_key(Board())[0], 1, 3, False)], "sorted"),
        ([pack((1 << 7) - 1, 0, None, False)], "more stones in column 1"),
    ],
)
def test_entries_are_checked_even_with_a_good_checksum(tmp_path, words: list[int], message: str) -> None:
    with pytest.raises(BookError, match=message):
        Book.load(_resaved(tmp_path, words))


@shipped
@given(st.data())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_damage_to_the_shipped_book_is_a_book_error(tmp_path, data) -> None:
    original = DEFAULT_PATH.read_bytes()
    damaged = bytearray(original)
    if data.draw(st.booleans(), label="truncate"):
        damaged = damaged[: data.draw(st.integers(0, len(original) - 1), label="length")]
    else:
        where = data.draw(st.integers(0, len(original) - 1), label="where")
        damaged[where] ^= data.draw(st.integers(1, 255), label="bits")
    path = tmp_path / "damaged.bin"
    path.write_bytes(bytes(damaged))
    with pytest.raises(BookError):
        Book.load(path)


def test_files_that_are_not_books_are_refused_without_reading_them(tmp_path) -> None:
    with pytest.raises(BookError, match="not a regular file"):
        Book.load(tmp_path)  # a folder
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        with pytest.raises(BookError, match="not a regular file"):
            Book.load(tmp_path / "fifo")  # opening it would wait for a writer forever


@shipped
def test_a_damaged_shipped_book_leaves_the_solver_and_the_agent_working(tmp_path, monkeypatch, cli) -> None:
    damaged = tmp_path / "book_7x6.bin"
    damaged.write_bytes(DEFAULT_PATH.read_bytes()[:-3])  # truncated
    monkeypatch.setattr(book_module, "ASSETS", tmp_path)
    monkeypatch.setattr(book_module, "_warned", set())
    status, out, err = cli(["solve", "3246313", "573154743"])
    assert status == 0 and out.splitlines() == ["3246313 -2", "573154743 2"]
    assert err.count("going on without the opening book") == 1
    move = create_agent("perfect:seconds=5").choose(Board.from_moves("3246313"))
    assert move.score == Score.pons(-2)


def test_a_version_1_book_is_refused(tmp_path) -> None:
    """Without a checksum, damage reads as wrong "exact" answers: such a book is built again, not trusted."""
    entry = pack(book_key(Board())[0], 1, 3, False)
    path = tmp_path / "old.bin"
    path.write_bytes(b"C4BOOK 1 7 6 4 1\n" + np.array([entry], dtype="<u8").tobytes())
    with pytest.raises(BookError, match="format 1"):
        Book.load(path)


@pytest.mark.slow
def test_every_position_just_past_a_built_book_solves_cold_within_the_budget(tmp_path) -> None:
    """The builder's promise: what the agent meets past the book, a fresh table answers in ``leaf_nodes``."""
    geometry, budget = Geometry(5, 5, 4), 3000
    book = BookBuilder(geometry, tmp_path / "b.bin", max_ply=25, leaf_nodes=budget, table_mb=16).run(progress=False)
    edge = edge_positions(book)
    assert len(book) > 10 and len(edge) > 10  # a real tree, stopped by the budget and not by max_ply
    cold = Solver(geometry, 16)
    for board in edge:
        cold.reset()
        assert cold.best_move(board, Limits(budget)).finished, board.move_string


@pytest.mark.slow
def test_a_resumed_build_keeps_its_positions_unless_told_to_judge_them_again(tmp_path) -> None:
    geometry, path = Geometry(5, 4, 4), tmp_path / "b.bin"
    first = BookBuilder(geometry, path, max_ply=30, leaf_nodes=10**6, table_mb=16).run(progress=False)
    assert all(entry.leaf for _, entry in first.positions())  # the whole board is cheap with this budget
    # A small budget makes fewer positions leaves: only a new judgement can see that.
    resumed = BookBuilder(geometry, path, max_ply=30, leaf_nodes=0, table_mb=16)
    assert (resumed.run(progress=False).entries == first.entries).all() and resumed.solved == 0
    rejudged = BookBuilder(geometry, path, max_ply=30, leaf_nodes=0, table_mb=16, rejudge=True).run(progress=False)
    assert len(rejudged) > len(first)


def test_a_judgement_of_one_image_answers_for_the_other_in_its_own_columns() -> None:
    """Mirror images share a key: the column stored for one must be a best move of the other, mirrored."""
    geometry = Geometry(6, 5, 4)
    board, mirror = Board.from_moves("1424445", geometry), Board.from_moves("6353332", geometry)
    key = book_key(board)[0]
    assert book_key(mirror)[0] == key
    solver = Solver(geometry, 16)
    assert (
        solver.best_move(board).column != solver.best_move(mirror).column
    )  # one image's column is wrong for the other
    row = PositionTask(6, 5, 4, key, leaf_nodes=500_000, table_mb=16).run()
    word = pack(key, row["score"], row["column"], row["leaf"])
    for image in (board, mirror):
        column = unpack(word, geometry, book_key(image)[1]).column
        assert solver.analyze(image).scores[column].value == row["score"]


def test_check_book_finds_a_stored_column_that_is_not_best_and_the_build_solves_it_again(tmp_path) -> None:
    geometry, path = Geometry(5, 4, 4), tmp_path / "b.bin"
    built = BookBuilder(geometry, path, max_ply=5, leaf_nodes=0).run(progress=False)
    assert check_book(built, progress=False) == []
    solver = Solver(geometry)
    board, entry = next((b, e) for b, e in built.positions() if b.ply == 2)
    scores = solver.analyze(board).scores
    worse = next(col for col, score in enumerate(scores) if score is not None and score.value < entry.score)
    words = built.entries.copy()
    words[words == pack(book_key(board)[0], entry.score, entry.column, entry.leaf)] = pack(
        book_key(board)[0], entry.score, worse, entry.leaf
    )
    Book(geometry, words).save(path)
    wrong = check_book(Book.load(path), progress=False)
    assert [row["position"] for row in wrong] == [book_key(board)[0]]
    builder = BookBuilder(geometry, path, max_ply=5, leaf_nodes=0)
    builder.drop([row["position"] for row in wrong])
    repaired = builder.run(progress=False).entry(board)
    assert repaired is not None and scores[repaired.column].value == entry.score


def test_positions_where_the_other_side_moves_are_answered_from_their_children() -> None:
    """Not stored, but every reply is: one ply of lookahead in the book gives the exact score at once."""
    book = load_default(Geometry())
    assert book is not None
    solver = Solver(Geometry(), 1, book=book)
    answered = 0
    for board, entry in [(board, entry) for board, entry in book.positions() if entry.column is not None][:200]:
        board.play(entry.column)
        replies = []
        for col in board.legal_columns():
            board.play(col)
            replies.append(board.is_over or book.entry(board) is not None)
            board.undo()
        if board.is_over or book.entry(board) is not None or not all(replies):
            continue
        assert solver.solve(board, Limits(1)).score == Score.pons(-entry.score)  # one node: no search
        answered += 1
    assert answered > 10
