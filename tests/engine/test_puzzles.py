"""Puzzles: the finder's proofs, the checked JSON and file, the build's reproducibility, the shipped set."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.board import Board
from engine.geometry import Geometry
from engine.puzzles import store
from engine.puzzles.build import GameTask, build, counts, puzzle_of, row_of, select
from engine.puzzles.finder import band_of, find
from engine.puzzles.mistakes import from_review, lesson
from engine.puzzles.motifs import blocks
from engine.puzzles.puzzle import Puzzle, PuzzleError, from_json
from engine.puzzles.verify import check
from engine.review import review
from engine.solver.auto import AutoSolver
from engine.solver.solver import Solver

SMALL = Geometry(6, 5)


def scores(board: Board) -> list[int | None]:
    """Every column's exact score by a fresh solver without a book (independent of the finder's)."""
    analysis = Solver(board.geometry, 16).analyze(board)
    return [None if score is None else int(score.value) for score in analysis.scores]


def puzzles_of_games(geometry: Geometry, games: int, seed: int = 7) -> list[Puzzle]:
    rows = [row for game in range(games) for row in GameTask(geometry.cols, geometry.rows, 4, seed, game).run()]
    return [puzzle_of(row) for row in rows]


@pytest.fixture(scope="module")
def found() -> list[Puzzle]:
    return puzzles_of_games(SMALL, 6)


def test_every_puzzle_found_has_one_answer_proven_by_an_independent_solve(found) -> None:
    assert len(found) >= 5 and {p.kind for p in found} == {"win", "save"}
    for puzzle in found:
        values = scores(puzzle.board)
        winning = [col for col, score in enumerate(values) if score is not None and score > 0]
        holding = [col for col, score in enumerate(values) if score is not None and score == 0]
        if puzzle.kind == "win":
            assert winning == list(puzzle.solution)
        else:
            assert winning == [] and holding == list(puzzle.solution)


def test_a_win_line_is_the_only_way_through_against_the_slowest_defence(found) -> None:
    wins = [p for p in found if p.kind == "win" and len(p.line) > 1]
    assert wins
    for puzzle in wins:
        board = puzzle.board
        for index, col in enumerate(puzzle.line):
            values = scores(board)
            if index % 2 == 0:  # the winner: exactly this column wins
                assert [c for c, s in enumerate(values) if s is not None and s > 0] == [col]
            else:  # the program: a reply that loses slowest
                assert values[col] == max(s for s in values if s is not None)
            board.play(col)
        assert board.winner is not None
        assert f"win-in-{(len(puzzle.line) + 1) // 2}" in puzzle.motifs


def test_no_puzzle_where_two_columns_win_or_every_move_loses() -> None:
    rng = random.Random(5)
    solver = Solver(SMALL, 16)
    checked = 0
    while checked < 40:
        board = Board(SMALL)
        for _ in range(rng.randint(8, 20)):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_columns()))
        if board.is_over:
            continue
        checked += 1
        values = [s for s in scores(board) if s is not None]
        wins, draws = sum(s > 0 for s in values), sum(s == 0 for s in values)
        one_answer = wins == 1 or (wins == 0 and draws == 1)
        if not one_answer or len(values) < 2:
            assert find(board, solver) is None


def test_bands_grow_with_the_plies_to_see() -> None:
    assert [band_of(plies) for plies in (1, 2, 3, 4, 5, 6, 7, 10, 11, 30)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def test_a_forced_block_fills_the_cell_where_the_opponent_wins_next(found) -> None:
    tagged = [p for p in found if "forced-block" in p.motifs]
    assert tagged
    for puzzle in tagged:
        board, col = puzzle.board, puzzle.solution[0]
        assert blocks(board, col) and not board.is_winning_move(col)
        for other in board.legal_columns():  # any other stone, and the opponent wins in that column
            after = board.copy()
            after.play(other)
            if other != col and not after.is_over:
                assert after.is_winning_move(col)


def test_json_round_trip_and_every_bad_field_is_one_error(found) -> None:
    puzzle = found[0]
    data = puzzle.to_json()
    assert from_json(json.loads(json.dumps(data))) == puzzle
    assert set(data) == {"id", "cols", "rows", "connect", "position", "kind", "solution", "band", "motifs", "line"}
    bad = [
        {**data, "cols": 12},
        {**data, "kind": "draw"},
        {**data, "band": 6},
        {**data, "band": True},
        {**data, "solution": []},
        {**data, "solution": [0]},
        {**data, "motifs": ["magic"]},
        {**data, "position": "9"},
        {**data, "position": "1212121"},  # the game is over
        {**data, "line": [data["solution"][0], 1]},  # a line of an even length
        {**data, "id": "x" * 41},
        "not an object",
    ]
    bad.append({key: value for key, value in data.items() if key != "line"})
    for value in bad:
        with pytest.raises(PuzzleError):
            from_json(value)


def test_a_win_line_that_does_not_end_in_a_win_is_refused(found) -> None:
    puzzle = next(p for p in found if p.kind == "win" and len(p.line) >= 3)
    data = puzzle.to_json()
    with pytest.raises(PuzzleError, match="does not end in a win"):
        from_json({**data, "line": data["line"][:-2]})


def test_the_file_round_trips_and_damage_is_one_error_naming_it(found, tmp_path: Path) -> None:
    path = tmp_path / "set.txt"
    puzzle_set = store.PuzzleSet(tuple(found), 7, 6, 10, ("6x5x4",))
    store.save(puzzle_set, path)
    assert store.load(path) == puzzle_set
    text = path.read_text()
    damaged = [
        text.replace('"kind":"save"', '"kind":"win "', 1),  # the checksum no longer matches
        text[:-10],
        "",
        "{}\n",
        text.replace('"version":1', '"version":9', 1),
    ]
    for number, content in enumerate(damaged):
        (tmp_path / f"bad{number}.txt").write_text(content)
        with pytest.raises(PuzzleError) as caught:
            store.load(tmp_path / f"bad{number}.txt")
        assert f"bad{number}.txt" in str(caught.value)
    with pytest.raises(PuzzleError, match="not a regular file"):
        store.load(tmp_path)
    with pytest.raises(PuzzleError, match="no puzzle file"):
        store.load(tmp_path / "missing.txt")


def test_the_check_finds_a_tampered_puzzle(found) -> None:
    solver = Solver(SMALL, 16)
    puzzle = found[0]
    assert check(puzzle, solver) is None
    wrong = next(col for col in puzzle.board.legal_columns() if col not in puzzle.solution)
    tampered = Puzzle(puzzle.id, puzzle.geometry, puzzle.position, puzzle.kind, (wrong,), puzzle.band, (), (wrong,))
    problem = check(tampered, solver)
    assert problem is not None and puzzle.id in problem


def test_the_same_seed_builds_the_same_set_and_select_keeps_each_position_once() -> None:
    first, found = build([SMALL], seed=3, games=3, per_band=2, progress=False)
    second, _ = build([SMALL], seed=3, games=3, per_band=2, progress=False)
    assert first == second and found >= len(first)
    assert all(count <= 2 for count in counts(first)["6x5x4"])
    rows = [row_of(p, 0, 0.0) for p in first]
    assert select(rows + rows, per_band=100) == select(rows, per_band=100)
    task = GameTask(6, 5, 4, 3, 0)
    assert not task.fits([{**rows[0], "cols": 7}])
    assert not task.fits([{**rows[0], "line": "x"}])


def test_a_reviewed_games_mistakes_become_puzzles_that_keep_what_was_given_away() -> None:
    rng, board = random.Random(11), Board(SMALL)  # a game of random moves: mistakes on both sides
    while not board.is_over:
        board.play(rng.choice(board.legal_columns()))
    solver = AutoSolver(SMALL, table_mb=16)
    reviews = review(board, solver, seconds=None, budget=None)
    mistakes = [item for item in reviews if item.label in ("mistake", "blunder")]
    assert mistakes
    puzzles, unsolved = from_review(board, reviews, solver)
    assert unsolved == 0 and puzzles
    for puzzle in puzzles:
        values = scores(puzzle.board)
        best = max(s for s in values if s is not None)
        keep = [c for c, s in enumerate(values) if s is not None and (s > 0) == (best > 0) and (s >= 0) == (best >= 0)]
        assert list(puzzle.solution) == keep and puzzle.id.startswith("mine-6x5x4-")
        assert check(puzzle, solver) is None
        assert lesson(puzzle.board, solver) == puzzle


SHIPPED = store.DEFAULT_PATH


@pytest.mark.skipif(not SHIPPED.exists(), reason="the shipped set is built by `python -m engine puzzles build`")
def test_the_shipped_set_is_large_varied_small_and_a_sample_checks() -> None:
    puzzle_set = store.load(SHIPPED)
    puzzles = puzzle_set.puzzles
    table = counts(puzzles)
    assert len(puzzles) >= 1000 and len(table) >= 5 and "7x6x4" in table
    assert {p.band for p in puzzles} == {1, 2, 3, 4, 5}
    assert all(len(p.solution) == 1 for p in puzzles)
    assert SHIPPED.stat().st_size <= 2 * 2**20
    solvers: dict[Geometry, Solver] = {}
    for puzzle in random.Random(1).sample(puzzles, 12):
        solver = solvers.setdefault(puzzle.geometry, Solver(puzzle.geometry, 16))
        assert check(puzzle, solver) is None


@pytest.mark.slow
@pytest.mark.skipif(not SHIPPED.exists(), reason="the shipped set is built by `python -m engine puzzles build`")
def test_every_shipped_puzzle_checks(cli) -> None:
    status, out, _ = cli(["puzzles", "build", "--verify", "--quiet"])
    assert status == 0, out


@pytest.mark.skipif(not SHIPPED.exists(), reason="the shipped set is built by `python -m engine puzzles build`")
def test_the_docs_figures_of_the_set_are_the_files() -> None:
    """docs/puzzles.md's table, counts and size, re-derived from the shipped file."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "puzzles.md").read_text(encoding="utf-8")
    puzzle_set = store.load(SHIPPED)
    puzzles = puzzle_set.puzzles
    for name, row in counts(puzzles).items():
        cols, rows, _ = name.split("x")
        cells = " | ".join(str(count) for count in row)
        assert f"| {cols}x{rows} | {cells} | {sum(row)} |" in text
    motif = {
        m: sum(m in p.motifs for p in puzzles) for m in ("forced-block", "double-threat", "odd-threat", "claimeven")
    }
    kinds = {kind: sum(p.kind == kind for p in puzzles) for kind in ("win", "save")}
    assert f"{len(puzzles):,} puzzles ({kinds['win']:,} wins, {kinds['save']:,} saves" in text
    assert f"{motif['forced-block']} forced blocks, {motif['double-threat']} double threats" in text
    assert f"{motif['odd-threat']} odd\nthreats, {motif['claimeven']} claimeven" in text
    assert f"({SHIPPED.stat().st_size:,} bytes)" in text
    assert (puzzle_set.seed, puzzle_set.games, puzzle_set.per_band) == (46, 400, 60)
    assert "--seed 46 --games 400 --per-band 60" in text
