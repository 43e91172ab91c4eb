"""The command line contracts of docs/cli.md: count, move, match, play, errors."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_count_matches_the_known_sequence(cli) -> None:
    status, out, _ = cli(["count", "--plies", "6"])
    assert status == 0
    assert out.split("\n")[:-1] == ["0 1", "1 7", "2 49", "3 238", "4 1120", "5 4263", "6 16422"]


def test_count_on_a_small_board_reaches_the_full_board_and_stops_there(cli) -> None:
    _, out, _ = cli(["count", "--cols", "4", "--rows", "4", "--plies", "99999999999"])
    counts = dict(line.split() for line in out.splitlines())
    assert counts["1"] == "4" and counts["2"] == "16" and "16" in counts
    assert len(counts) == 17  # plies 0..16: a 4x4 board holds 16 stones, no more lines follow


def test_move_answers_arguments_and_reports_bad_ones(cli) -> None:
    status, out, err = cli(["move", "--agent", "random:seed=1", "44", "4444444", "12121212", "9"])
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 4 and lines[0].startswith("44 ")
    assert lines[1:] == ["4444444 ?", "12121212 ?", "9 ?"]  # one answer per input, in order
    _position, column, *stats = lines[0].split(" ")
    assert (
        1 <= int(column) <= 7
        and any(s.startswith("nodes=") for s in stats)
        and any(s.startswith("time_ms=") for s in stats)
    )
    assert "argument 2 '4444444': move 7 (column 4): column 4 is full" in err
    assert "argument 3 '12121212': move 8 (column 2): the game is over" in err
    assert "argument 4 '9': move 1 is '9'" in err


def test_move_refuses_a_column_the_agent_may_not_play(cli, tmp_path) -> None:
    """A student's file may answer anything: ``move`` reports it as ``match`` would, never prints it."""
    (tmp_path / "far.py").write_text("def agent(board, player=1):\n    return 99\n")
    (tmp_path / "middle.py").write_text("def agent(board, player=1):\n    return 3\n")
    status, out, err = cli(["move", "--agent", f"classroom:path={tmp_path / 'far.py'}", "4453"])
    assert (status, out.splitlines()) == (1, ["4453 ?"])
    assert "chose column 100 (it answered 99, counted from 0): there is no column 100" in err
    status, out, err = cli(["move", "--agent", f"classroom:path={tmp_path / 'middle.py'}", "444444", "1"])
    assert status == 1 and out.splitlines()[0] == "444444 ?" and out.splitlines()[1].startswith("1 4 ")
    assert "chose column 4 (it answered 3, counted from 0): column 4 is full" in err


def test_move_reads_stdin_line_by_line_and_an_empty_line_is_the_empty_board(cli) -> None:
    status, out, err = cli(["move", "--agent", "random"], stdin="4\n\nxyz\n1212121\n")
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 4 and lines[0].startswith("4 ") and lines[1].startswith(" ")
    assert lines[2:] == ["xyz ?", "1212121 ?"]
    assert "line 3 'xyz'" in err and "line 4 '1212121': the game is already over" in err


def test_match_ends_with_the_two_summary_lines(cli) -> None:
    status, out, _ = cli(["match", "--red", "random", "--yellow", "random", "--games", "6", "--seed", "2"])
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 8 and all(line.startswith(f"game {i + 1}: ") for i, line in enumerate(lines[:6]))
    red, yellow, draws = (int(n) for n in re.fullmatch(r"red (\d+), yellow (\d+), draws (\d+)", lines[6]).groups())
    first, second = (int(n) for n in re.fullmatch(r"first (\d+), second (\d+)", lines[7]).groups())
    assert red + yellow + draws == 6 and first + second + draws == 6


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["move", "--agent", "nosuch", "4"], "unknown agent 'nosuch'"),
        (["move", "--agent", "random:seed=x", "4"], "expected a whole number"),
        (["count", "--cols", "12", "--plies", "2"], "columns must be a whole number from 4 to 9"),
        (["count", "--connect", "8", "--plies", "2"], "connect must be a whole number from 3 to 6"),
        (["match", "--red", "random", "--yellow", "random", "--games", "0"], "--games: must be a whole number from 1"),
        (["match", "--red", "random", "--yellow", "random", "--moves", "1212121"], "already over"),
    ],
)
def test_bad_arguments_are_one_clear_line(cli, argv: list[str], message: str) -> None:
    status, _out, err = cli(argv)
    assert status == 2 and message in err and "Traceback" not in err and err.count("\n") == 1


def _engine(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_play_answers_bad_input_and_ends_cleanly_at_end_of_input() -> None:
    done = _engine("play", "--yellow", "random:seed=1", stdin="abc\n0\n8\n4\n4\n4\n4\n4\n4\n")
    assert done.returncode == 0, done.stderr
    assert "Please type a column number from 1 to 7" in done.stdout
    assert "there is no column 0" in done.stdout and "there is no column 8" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stdout.rstrip().endswith(("Bye!", "Tie game!"))


def test_play_between_two_agents_prints_every_board_and_the_result() -> None:
    done = _engine(
        "play", "--red", "random:seed=1", "--yellow", "random:seed=2", "--cols", "5", "--rows", "4", "--connect", "3"
    )
    assert done.returncode == 0
    assert done.stdout.count(" 1 2 3 4 5") >= 2 and ("Win for" in done.stdout or "Tie game!" in done.stdout)


def test_quit_with_q() -> None:
    done = _engine("play", stdin="q\n")
    assert done.returncode == 0 and "Bye!" in done.stdout


def test_help_lists_the_agents() -> None:
    done = _engine("move", "--help")
    assert done.returncode == 0 and "random" in done.stdout and "seed=" in done.stdout


def test_a_command_imports_its_own_module_only() -> None:
    code = (
        "import sys\n"
        "from engine.cli import main\n"
        "main(['solve', '32164625'])\n"
        "print(sorted(name for name in sys.modules if name.startswith(('engine.cli.', 'engine.experiments'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["32164625 11", "['engine.cli.common', 'engine.cli.solve', 'engine.cli.solver_options']"]


def test_a_person_who_quits_a_match_gets_a_goodbye_and_commands_without_one_refuse_human(cli, tmp_path) -> None:
    status, out, err = cli(["match", "--red", "human", "--yellow", "random"], stdin="")
    assert (status, err) == (0, "") and out.rstrip().endswith("End of input: bye!")
    status, out, _ = cli(["match", "--red", "random", "--yellow", "human", "--seed", "3"], stdin="q\n")
    assert status == 0 and out.rstrip().endswith("Bye!")
    for argv in (
        ["tournament", "human", "random", "--out", str(tmp_path / "t"), "--jobs", "1"],
        ["bench", "soak", "--minutes", "0.01", "--agents", "random;human"],
    ):
        status, _, err = cli(argv)
        assert status == 2 and "'human' needs a person at the keyboard" in err
    assert not (tmp_path / "t").exists()
    status, _, err = cli(["bench", "soak", "--minutes", "0.01", "--agents", " ; ;"])
    assert status == 2 and "--agents names no agent" in err


def test_help_texts_show_a_percent_sign_once() -> None:
    for argv in (["--help"], ["tournament", "--help"]):
        done = _engine(*argv)
        assert "95% intervals" in done.stdout and "%%" not in done.stdout


def test_play_from_two_grids_or_moves_and_a_grid_says_which(cli, tmp_path) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text("\n".join(["- - - - - - -"] * 5 + ["- - - X - - -"]) + "\n")
    status, _, err = cli(["play", "--grid", str(grid), "--grid", str(grid)])
    assert status == 2 and "give --grid once" in err
    status, _, err = cli(["play", "--grid", str(grid), "--moves", "4"])
    assert status == 2 and "give --moves or --grid, not both" in err


def test_seeds_are_whole_numbers_from_zero_everywhere(cli) -> None:
    """Python's random made seed -1 the same as 1; the studies already refused negative seeds."""
    negative = (["move", "--agent", "random", "--seed", "-1", "4"], ["match", "--seed", "-2"], ["play", "--seed", "-3"])
    for argv in negative:
        status, out, err = cli(argv)
        assert (status, out) == (2, "") and "must be a whole number from 0 to 4,294,967,295" in err
    status, out, err = cli(["move", "--agent", "random:seed=-5", "4"])
    assert (status, out) == (2, "") and "seed=" in err
