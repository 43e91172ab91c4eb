"""``solve``, ``analyze`` and ``book`` from the command line (docs/cli.md contracts)."""

from __future__ import annotations

from engine.geometry import Geometry
from engine.solver.book import Book


def test_solve_answers_arguments_and_reports_bad_ones(cli) -> None:
    status, out, err = cli(["solve", "--no-book", "3246313", "44444444", "573154743", "8"])
    assert status == 1
    assert out.splitlines() == ["3246313 -2", "44444444 ?", "573154743 2", "8 ?"]
    assert "argument 2 '44444444': move 7 (column 4): column 4 is full" in err
    assert "argument 4 '8': move 1 is '8'" in err


def test_solve_reads_stdin_line_by_line_and_weak_prints_the_sign(cli) -> None:
    stdin = "3246313\nabc\n573154743\n121212121\n"
    status, out, err = cli(["solve", "--weak", "--no-book"], stdin=stdin)
    assert status == 1
    assert out.splitlines() == ["3246313 -1", "abc ?", "573154743 1", "121212121 ?"]
    assert "line 2 'abc'" in err and "line 4 '121212121': move 8 (column 2): the game is over" in err


def test_solve_on_another_board_and_the_empty_line_is_the_empty_board(cli) -> None:
    status, out, _ = cli(["solve", "--cols", "4", "--rows", "4"], stdin="\n11\n")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == " 0" and lines[1].startswith("11 ")


def test_analyze_prints_every_column_with_x_for_full_ones(cli) -> None:
    status, out, err = cli(["analyze", "--no-book", "3246313", "4444442", "99"])
    assert status == 1
    assert out.splitlines()[0] == "3246313 -17 -17 -2 -17 -17 -17 -17"
    fields = out.splitlines()[1].split()
    assert fields[0] == "4444442" and fields[4] == "x" and len(fields) == 8
    assert out.splitlines()[2] == "99 ?"
    assert "argument 3 '99'" in err
    status, out, err = cli(["analyze", "--no-book", "1212121"])  # X has won: no column is "full"
    assert (status, out) == (1, "1212121 ?\n") and "the game is already over" in err


def test_a_node_limit_that_is_too_small_is_reported_not_guessed(cli) -> None:
    late = "7422341735647741166133573473242566"  # an end game: a few dozen nodes
    status, out, err = cli(["solve", "--no-book", "--nodes", "5000", "44", late])
    assert status == 1
    assert out.splitlines() == ["44 ?", f"{late} 1"]
    assert "argument 1 '44': not solved within the limit" in err


def test_book_builds_and_resumes(cli, tmp_path) -> None:
    path = tmp_path / "small.bin"
    argv = ["book", "--cols", "5", "--rows", "4", "--plies", "4", "--leaf-nodes", "0", "--quiet", "--output", str(path)]
    status, out, _ = cli(argv)
    assert status == 0 and "solved in this run" in out
    book = Book.load(path)
    assert book.geometry == Geometry(5, 4, 4) and len(book) > 10
    status, out, _ = cli(argv)  # nothing left to do
    assert status == 0 and ", 0 solved in this run" in out
    assert "at ply 4 need more than 0 nodes: deepen" in out  # no position is a leaf at a budget of 0 nodes
    assert Book.load(path).entries.tolist() == book.entries.tolist()


def test_bench_solver_runs_a_small_sample(cli) -> None:
    from engine.bench.solver import PONS
    from engine.solver import parallel

    parts = ["games"] + (["sets"] if PONS.is_dir() else [])
    argv = ["bench", "solver", "--parts", ",".join(parts), "--sets", "Test_L3_R1", "--limit", "3"]
    argv += ["--games", "2", "--agent", "perfect:seconds=0.3", "--opponents", "random"]
    sharing = parallel.SPLIT_DEPTH, parallel.PART_LEVELS, parallel.BESIDE
    status, out, _ = cli([*argv, "--split-depth", "0", "--part-levels", "1", "--no-beside"])
    assert status == 0
    assert sharing == (parallel.SPLIT_DEPTH, parallel.PART_LEVELS, parallel.BESIDE)  # for that run only
    if PONS.is_dir():
        assert any(line.startswith("Test_L3_R1") and line.split()[2] == "0" for line in out.splitlines())
    assert "vs random: 2 games" in out and "peak memory" in out


def test_the_early_set_is_the_one_its_seed_gives() -> None:
    """engine/bench/early_7x6.txt (``bench solver --make-early FILE --seed 30``) holds 60 distinct
    positions after 4 to 12 random moves in which nobody can win at once, re-derived from the seed."""
    from engine.bench.search import random_positions
    from engine.bench.solver import EARLY

    shipped = [line.split()[0] for line in EARLY.read_text().splitlines() if line.strip()]
    boards = random_positions(60, 30, Geometry(), (4, 12), distinct=True)
    assert [board.move_string for board in boards] == shipped
    assert len(set(shipped)) == 60 and all(4 <= board.ply <= 12 for board in boards)
    assert not any(board.is_winning_move(col) for board in boards for col in board.legal_columns())


def test_make_early_refuses_a_file_that_exists_before_any_solve(cli, tmp_path) -> None:
    target = tmp_path / "early.txt"
    target.write_text("mine\n")
    status, out, err = cli(["bench", "solver", "--make-early", str(target)])
    assert (status, out) == (2, "") and "the file exists" in err and target.read_text() == "mine\n"


def test_grid_files_that_cannot_be_a_board_say_what_is_wrong(cli, tmp_path) -> None:
    (tmp_path / "line.txt").write_text("X X X X - - -\n")
    for argv, message in (
        (["solve", "--grid", str(tmp_path / "line.txt")], "a grid 7 wide and 1 high: boards are 4 to 9 wide"),
        (["solve", "--grid", str(tmp_path / "none.txt")], "none.txt': no such file"),
        (["solve", "--grid", str(tmp_path)], "not a regular file"),
        (["solve", "--grid", ""], "the grid file has no name"),
    ):
        status, out, err = cli(argv)
        assert (status, out) == (2, "") and message in err, err


def test_book_ply_range_options_that_check_nothing_are_errors(cli, tmp_path) -> None:
    output = ["--output", str(tmp_path / "b.book"), "--cols", "4", "--rows", "4"]
    status, _, err = cli(["book", *output, "--verify", "--from-ply", "3", "--to-ply", "1"])
    assert status == 2 and "--from-ply 3 is above --to-ply 1" in err
    status, _, err = cli(["book", *output, "--from-ply", "3"])
    assert status == 2 and "give one of them" in err and not (tmp_path / "b.book").exists()


def test_bench_commands_times_each_command_as_a_fresh_process(capsys) -> None:
    """Two early positions (one labelled wrongly on purpose) and two explored ones: the wrong label is caught,
    every explored column comes back with a value, and each run is timed."""
    from engine.bench.commands import bench_commands

    bench_commands([("532532522655", 13), ("532532522655", 0)], seed=3, explore_count=2)
    out = capsys.readouterr().out
    assert "solve 532532522655: 13 (expected 13)" in out and "solve 532532522655: 13 (expected 0)" in out
    assert "wrong scores: 1" in out
    assert out.count("  explore ") == 2 and "positions with a column not answered: 0" in out
    assert "solve, 2 early positions" in out and "explore, 2 positions of 0 to 6 stones" in out
