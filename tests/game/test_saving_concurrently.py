"""Two copies of the game saving at the same moment: no saved game is lost, the settings file stays whole."""

from __future__ import annotations

import json
import multiprocessing
import sys
from pathlib import Path

import pytest

from engine.geometry import Geometry
from game import saves, settings
from game.model import Colour
from game.players import MatchConfig, Player
from game.settings import Settings

SAVES = 100  # games each process saves
WRITES = 150  # settings each process writes


def save_games(folder: str, process: int, go) -> None:
    """Save SAVES games, all with the same players (so the same file names), each with its own date."""
    match = MatchConfig(Player(Colour.RED, "Ann"), Player(Colour.YELLOW, "Computer", "hard"), Geometry(7, 6, 4))
    go.wait()
    for index in range(SAVES):
        saves.save(saves.SavedGame(match, "4453", date=f"{process}-{index}"), Path(folder))


def write_settings(path: str, process: int, go) -> None:
    """Write settings of a size that changes every time (a torn write would show)."""
    go.wait()
    for index in range(WRITES):
        chosen = Settings(cols=4 + process, rows=4 + index % 6, player_name="x" * (index % 40))
        assert settings.save(chosen, Path(path)) is None


def run_together(target, where: str) -> list:
    context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
    go = context.Event()
    processes = [context.Process(target=target, args=(where, number, go)) for number in range(2)]
    for process in processes:
        process.start()
    go.set()  # both start at once
    return processes


def test_two_instances_saving_at_once_lose_no_game(tmp_path):
    for process in run_together(save_games, str(tmp_path)):
        process.join(120)
        assert process.exitcode == 0
    files = sorted(tmp_path.glob("*.json"))
    games = [saves.load(path) for path in files]  # every one whole and valid
    assert len(files) == 2 * SAVES
    assert {game.date for game in games} == {f"{p}-{i}" for p in range(2) for i in range(SAVES)}
    assert [path.name for path in tmp_path.iterdir() if path.suffix != ".json"] == []  # no temporary file left


def test_two_instances_writing_settings_never_leave_a_damaged_file(tmp_path):
    path = tmp_path / "settings.json"
    assert settings.save(Settings(), path) is None
    processes = run_together(write_settings, str(path))
    reads = 0
    while any(process.is_alive() for process in processes) or reads == 0:
        loaded, problem = settings.load(path)  # every read while they write: a whole, valid file
        assert problem is None, problem
        assert loaded.cols in (4, 5, 7)
        reads += 1
    for process in processes:
        process.join(120)
        assert process.exitcode == 0
    assert json.loads(path.read_text(encoding="utf-8"))["cols"] in (4, 5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]  # no backup: it was never damaged


@pytest.mark.skipif(not hasattr(__import__("os"), "link"), reason="hard links")
def test_a_save_never_replaces_a_file_that_has_its_name(tmp_path, monkeypatch):
    """Without hard links (FAT) the name is taken with an exclusive create: still never a replace."""
    import os

    def no_links(*args, **kwargs):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    match = MatchConfig(Player(Colour.RED, "A"), Player(Colour.YELLOW, "B"), Geometry(7, 6, 4))
    paths = [saves.save(saves.SavedGame(match, moves, date=moves), tmp_path) for moves in ("4", "44", "444")]
    assert len(set(paths)) == 3 and [saves.load(path).moves for path in paths] == ["4", "44", "444"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(path.name for path in paths)
