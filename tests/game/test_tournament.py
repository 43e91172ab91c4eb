"""Tournament games played by the game's own window: the row says what happened on the board."""

from __future__ import annotations

import json

import pytest

from engine.board import Board, Side
from engine.experiments.games import GameTask
from game.tournament import SETTINGS, InGameTask, main


def test_a_game_in_the_window_gives_the_row_of_the_game_on_its_board(tmp_path) -> None:
    settings_path = tmp_path / "settings.json"
    settings_path.write_text(json.dumps(SETTINGS), encoding="utf-8")
    # The yellow player (easy) opens this game: it is red in the window, so the colours must be mapped back.
    task = GameTask(red="beginner", yellow="easy", opening="44", red_first=False, seed=3)
    row = InGameTask(task, settings_path).run()
    board = Board.from_moves(row["opening"] + row["moves"])
    assert board.is_over and row["plies"] == board.ply
    # The side that moved first is yellow here.
    expected = {None: "draw", Side.FIRST: "yellow", Side.SECOND: "red"}[board.winner]
    assert row["winner"] == expected
    assert row["yellow_moves"] + row["red_moves"] == len(row["moves"])


def test_an_interrupted_run_resumes_from_its_rows(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    argv = ["beginner", "novice", "--games", "2", "--out", str(out)]
    assert main(argv) == 0
    rows = (out / "progress.jsonl").read_text().splitlines()
    assert len(rows) == 2
    (out / "progress.jsonl").write_text(rows[0] + "\n")  # as if stopped after the first game
    assert main(argv) == 0
    resumed = (out / "progress.jsonl").read_text().splitlines()
    assert resumed[0] == rows[0] and len(resumed) == 2
    assert "beginner" in capsys.readouterr().out


def test_a_bad_spec_is_one_line_and_no_game(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["easy", "nosuch", "--out", str(tmp_path / "run")])
    assert exit_info.value.code == 2
    assert "unknown agent 'nosuch'" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_damaged_resume_file_is_one_line(tmp_path, capsys) -> None:
    (tmp_path / "progress.jsonl").mkdir()  # not a file: a reader must refuse it, not crash
    with pytest.raises(SystemExit) as stopped:
        main(["random", "greedy", "--games", "1", "--out", str(tmp_path)])
    assert stopped.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: resume file") and "progress.jsonl" in err[-1]
