"""``experiment``, ``tournament`` and ``report`` write and delete only their own files (DESIGN.md, "Trust").

A folder the user names with ``--out`` may hold a thesis and photos: they
survive ``--restart``, a command never replaces a file it did not write
(unless told with ``--force``), and ``--out ""`` is an error, not the current folder.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from engine.cli.runner_options import MARKER
from engine.experiments.report import page_files, rows_files
from engine.experiments.study import all_studies, find_study, study_files

EXPERIMENT = ["experiment", "random-games", "--quick", "--games", "2", "--jobs", "1", "--no-progress"]
TOURNAMENT = ["tournament", "random", "greedy", "--games", "1", "--cols", "4", "--rows", "4", "--jobs", "1"]
REPORT = ["report", "--quick", "--games", "2", "--only", "random-games", "--jobs", "1", "--no-progress"]


def _users_things(folder: Path) -> None:
    """What a user keeps in a folder: a thesis and a folder of photos."""
    (folder / "photos").mkdir(parents=True)
    (folder / "photos" / "a.jpg").write_bytes(b"\xff\xd8 a photo")
    (folder / "thesis.txt").write_text("chapter one\n")


def _still_there(folder: Path) -> bool:
    return (folder / "thesis.txt").read_text() == "chapter one\n" and (
        folder / "photos" / "a.jpg"
    ).read_bytes() == b"\xff\xd8 a photo"


def _one_error(status: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


def test_restart_in_a_folder_of_the_users_removes_nothing(cli, tmp_path) -> None:
    folder = tmp_path / "mine"
    _users_things(folder)
    line = _one_error(*cli([*EXPERIMENT, "--out", str(folder), "--restart"])[::2])
    assert "photos/" in line and "thesis.txt" in line and "nothing was removed" in line
    assert _still_there(folder) and sorted(os.listdir(folder)) == ["photos", "thesis.txt"]


def test_an_experiment_writes_beside_the_users_files_and_restart_removes_only_its_own(cli, tmp_path) -> None:
    folder = tmp_path / "mine"
    _users_things(folder)
    status, _, err = cli([*EXPERIMENT, "--out", str(folder)])
    assert status == 0, err
    assert _still_there(folder)
    written = set(os.listdir(folder)) - {"photos", "thesis.txt"}
    assert written <= {*study_files(find_study("random-games")), MARKER}
    assert {"rows.csv", "progress.jsonl", "README.md", MARKER} <= written
    # A row that no run makes: --restart must forget it (and only the command's files).
    with (folder / "progress.jsonl").open("a") as out:
        out.write(json.dumps({"key": "forgotten", "rows": []}) + "\n")
    (folder / "notes.md").write_text("my notes\n")  # added later, beside the command's files
    status, _, err = cli([*EXPERIMENT, "--out", str(folder), "--restart"])
    assert status == 0, err
    assert _still_there(folder) and (folder / "notes.md").read_text() == "my notes\n"
    assert "forgotten" not in (folder / "progress.jsonl").read_text()


def test_a_folder_of_the_users_is_never_overwritten_without_force(cli, tmp_path) -> None:
    folder = tmp_path / "mine"
    _users_things(folder)
    (folder / "README.md").write_text("my readme\n")
    line = _one_error(*cli([*TOURNAMENT, "--no-progress", "--out", str(folder)])[::2])
    assert "README.md" in line and "--force" in line
    assert (folder / "README.md").read_text() == "my readme\n" and not (folder / "progress.jsonl").exists()
    status, _, err = cli([*TOURNAMENT, "--no-progress", "--out", str(folder), "--force"])
    assert status == 0, err
    assert (folder / "README.md").read_text().startswith("# Tournament") and _still_there(folder)
    status, _, err = cli([*TOURNAMENT, "--no-progress", "--out", str(folder), "--restart"])  # its own now
    assert status == 0, err
    assert _still_there(folder)


def test_another_commands_folder_is_not_taken_over(cli, tmp_path) -> None:
    folder = tmp_path / "run"
    assert cli([*EXPERIMENT, "--out", str(folder)])[0] == 0
    readme = (folder / "README.md").read_text()
    line = _one_error(*cli([*TOURNAMENT, "--no-progress", "--out", str(folder)])[::2])
    assert "experiment random-games" in line
    assert (folder / "README.md").read_text() == readme


@pytest.mark.parametrize("argv", [EXPERIMENT, TOURNAMENT, REPORT], ids=["experiment", "tournament", "report"])
def test_an_empty_out_is_an_error_not_the_current_folder(cli, tmp_path, monkeypatch, argv) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("the user's readme\n")
    line = _one_error(*cli([*argv, "--out", ""])[::2])
    assert "--out" in line
    assert os.listdir(tmp_path) == ["README.md"] and (tmp_path / "README.md").read_text() == "the user's readme\n"


@pytest.mark.parametrize("argv", [EXPERIMENT, TOURNAMENT, REPORT], ids=["experiment", "tournament", "report"])
def test_out_dot_never_replaces_the_users_readme(cli, tmp_path, monkeypatch, argv) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("the user's readme\n")
    for extra in ([], ["--restart"]):
        line = _one_error(*cli([*argv, "--out", ".", *extra])[::2])
        assert "README.md" in line
    assert os.listdir(tmp_path) == ["README.md"] and (tmp_path / "README.md").read_text() == "the user's readme\n"


def test_report_restart_keeps_a_users_file_in_its_rows_folder(cli, tmp_path) -> None:
    folder = tmp_path / "report"
    status, _, err = cli([*REPORT, "--out", str(folder)])
    assert status == 0, err
    rows = folder / "rows"
    assert (rows / "random-games" / "progress.jsonl").exists()
    (rows / "notes.txt").write_text("keep me\n")
    (rows / "random-games" / "mine.csv").write_text("keep me too\n")
    with (rows / "random-games" / "progress.jsonl").open("a") as out:
        out.write(json.dumps({"key": "forgotten", "rows": []}) + "\n")
    status, _, err = cli([*REPORT, "--out", str(folder), "--restart"])
    assert status == 0, err
    assert (rows / "notes.txt").read_text() == "keep me\n"
    assert (rows / "random-games" / "mine.csv").read_text() == "keep me too\n"
    assert "forgotten" not in (rows / "random-games" / "progress.jsonl").read_text()
    assert (folder / "README.md").read_text().startswith("# Experiments report")


def test_restart_removes_links_not_what_they_point_at(cli, tmp_path) -> None:
    folder = tmp_path / "run"
    assert cli([*EXPERIMENT, "--out", str(folder)])[0] == 0
    precious = tmp_path / "precious.csv"
    precious.write_text("not yours\n")
    (folder / "rows.csv").unlink()
    (folder / "rows.csv").symlink_to(precious)
    status, _, err = cli([*EXPERIMENT, "--out", str(folder), "--restart"])
    assert status == 0, err
    assert precious.read_text() == "not yours\n" and not (folder / "rows.csv").is_symlink()


def test_stale_temporaries_of_its_own_files_are_cleaned_and_no_others(cli, tmp_path) -> None:
    folder = tmp_path / "run"
    assert cli([*EXPERIMENT, "--out", str(folder)])[0] == 0
    old = time.time() - 2 * 3600
    stale = folder / ".rows.csv.abcd1234.tmp"  # a killed write of rows.csv, two hours ago
    fresh = folder / ".table.md.wxyz9876.tmp"  # a write under way right now (another process)
    users = folder / ".notes.abcd1234.tmp"  # the user's, named like a temporary
    for path in (stale, fresh, users):
        path.write_text("x")
    for path in (stale, users):
        os.utime(path, (old, old))
    assert cli([*EXPERIMENT, "--out", str(folder)])[0] == 0
    assert not stale.exists() and fresh.exists() and users.exists()
    assert not [name for name in os.listdir(folder) if name.endswith(".tmp") and name not in (fresh.name, users.name)]


def test_a_damaged_marker_is_no_marker(cli, tmp_path) -> None:
    folder = tmp_path / "run"
    assert cli([*EXPERIMENT, "--out", str(folder)])[0] == 0
    (folder / MARKER).unlink()
    os.mkfifo(folder / MARKER)  # read without blocking, and not taken for the command's marker
    line = _one_error(*cli([*EXPERIMENT, "--out", str(folder)])[::2])
    assert "rows.csv" in line


def test_every_file_the_writers_produce_is_in_their_lists(tmp_path) -> None:
    """--restart's lists are whole: the report writes no file outside them.

    One study here; every study checks the charts it made against its list
    as it runs (``run_study``), and tests/engine/experiments/test_studies.py
    runs them all.
    """
    from engine.cli import main

    studies = [study for study in all_studies() if study.name == "random-games"]
    pages, rows = set(page_files(studies)), set(rows_files(studies))
    folder = tmp_path / "report"
    argv = ["report", "--quick", "--games", "2", "--jobs", "1", "--no-progress", "--out", str(folder), "--only"]
    assert main([*argv, *(study.name for study in studies)]) == 0
    written = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    page_written = {name for name in written if not name.startswith("rows/")} - {MARKER}
    rows_written = {name.removeprefix("rows/") for name in written if name.startswith("rows/")} - {MARKER}
    assert page_written == pages and rows_written == rows
