"""Settings survive a restart; a damaged file never stops the game."""

from __future__ import annotations

import json

from game import settings
from game.app import App
from game.scenes.menu import MainMenu
from game.settings import Colour, Mode, Settings


def test_settings_round_trip(tmp_path):
    path = tmp_path / "deep" / "folder" / "settings.json"
    chosen = Settings(mode=Mode.SPECTATOR, first=Colour.YELLOW, red_agent="random:seed=4", cols=8, rows=8)
    assert settings.save(chosen, path) is None
    loaded, problem = settings.load(path)
    assert loaded == chosen and problem is None


def test_a_missing_file_means_defaults_quietly(tmp_path):
    assert settings.load(tmp_path / "nothing.json") == (Settings(), None)


def test_a_corrupt_file_means_defaults_and_a_message(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b"{ this is not json \x00")
    loaded, problem = settings.load(path)
    assert loaded == Settings()
    assert "damaged" in problem


def test_bad_values_are_reset_one_by_one(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"mode": "chess", "cols": "seven", "rows": 8, "first": "yellow"}), encoding="utf-8")
    loaded, problem = settings.load(path)
    assert (loaded.mode, loaded.cols, loaded.rows, loaded.first) == (Mode.HUMAN_VS_AI, 7, 8, Colour.YELLOW)
    assert "mode" in problem and "cols" in problem


def test_an_impossible_board_falls_back_to_the_classic_one():
    assert Settings(cols=4, rows=4, connect=6).geometry() == Settings().geometry()


def test_a_file_that_cannot_be_written_is_reported(tmp_path):
    folder = tmp_path / "settings.json"
    folder.mkdir()  # a folder where the file should be
    problem = settings.save(Settings(), folder)
    assert problem.startswith("Could not save your settings")


def test_the_game_starts_with_a_corrupt_file_and_repairs_it(settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text('{"mode": ', encoding="utf-8")
    app = App(settings_path=settings_file, fps=0, warm_up=False)
    try:
        app.step()
        assert isinstance(app.scene, MainMenu)
        assert (app.settings.mode, app.settings.cols) == (Mode.HUMAN_VS_AI, 7)
        assert any("damaged" in message for message in app.messages)
    finally:
        app.close()
    assert json.loads(settings_file.read_text(encoding="utf-8"))["mode"] == "human_vs_ai"
