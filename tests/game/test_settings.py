"""Settings survive a restart; a damaged file never stops the game."""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from game import settings
from game.app import App
from game.model import Colour, Mode
from game.scenes.menu import MainMenu
from game.settings import Settings


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


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


# -- damaged and hostile files: every class is read safely, reported, and kept aside ---------------------
def fifo(path):
    os.mkfifo(path)


def dev_zero(path):
    path.symlink_to("/dev/zero")


def huge(path):
    with open(path, "wb") as file:  # 300 MB that take no room on disk
        file.truncate(300 * 1024 * 1024)


DAMAGE = {
    "nested 100,000 deep": lambda path: path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8"),
    "a 5,000-digit integer": lambda path: path.write_text('{"cols": ' + "9" * 5000 + "}", encoding="utf-8"),
    "not UTF-8": lambda path: path.write_bytes(b'{"mode": "\xff\xfe"}'),
    "a list": lambda path: path.write_text("[1, 2]", encoding="utf-8"),
    "a symbolic link to /dev/zero": dev_zero,
    "a named pipe": fifo,
    "300 MB": huge,
}


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes and /dev/zero")
@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_file_means_defaults_a_message_and_a_backup(damage, tmp_path):
    path = tmp_path / "settings.json"
    damage(path)
    before = os.lstat(path)
    done = threading.Event()
    result = []
    reader = threading.Thread(target=lambda: (result.append(settings.load(path)), done.set()), daemon=True)
    reader.start()
    assert done.wait(30), "reading the settings hung"
    loaded, problem = result[0]
    assert loaded == Settings() and "damaged" in problem and "settings.json.bak" in problem
    chosen = Settings(cols=8, rows=8)
    assert settings.save(chosen, path) is None
    kept = os.lstat(tmp_path / "settings.json.bak")
    assert (kept.st_ino, kept.st_mode) == (before.st_ino, before.st_mode)  # moved aside as it was, not read
    assert settings.load(path) == (chosen, None)


def test_a_byte_order_mark_is_not_damage(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"cols": 8, "rows": 8}).encode())
    loaded, problem = settings.load(path)
    assert (loaded.cols, loaded.rows, problem) == (8, 8, None)


def test_a_good_file_is_not_moved_aside(tmp_path):
    path = tmp_path / "settings.json"
    settings.save(Settings(cols=5), path)
    settings.save(Settings(cols=6), path)
    assert not (tmp_path / "settings.json.bak").exists()


@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
@hyp_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_bytes_load_without_an_exception(tmp_path, raw):
    path = tmp_path / "settings.json"
    path.write_bytes(raw)
    loaded, _problem = settings.load(path)
    assert isinstance(loaded, Settings)


@given(st.dictionaries(st.sampled_from([f.name for f in fields(Settings)]), JSON_VALUES, max_size=6))
@hyp_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_field_values_give_usable_settings(tmp_path, data):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded, problem = settings.load(path)
    for f in fields(Settings):
        assert type(getattr(loaded, f.name)) is type(getattr(Settings(), f.name))
    kept = loaded.to_json()  # compared with their types: 0 is not a valid False, nor 1.0 a valid 1
    same = all(type(kept[name]) is type(value) and kept[name] == value for name, value in data.items())
    assert (problem is None) == same


def test_a_board_the_game_cannot_play_is_reset_and_the_menu_says_what_starts(start):
    driver = start(cols=42, rows=6, connect=4)
    driver.wait_for_catalog()
    driver.step()
    assert (driver.app.settings.cols, driver.app.settings.rows) == (7, 6)
    assert any("cols" in message for message in driver.app.messages)
    assert "7×6" in driver.scene.quick.detail
    driver = start(cols=4, rows=4, connect=6)  # each in range, but no line of six fits
    driver.wait_for_catalog()
    driver.step()
    assert (driver.app.settings.cols, driver.app.settings.connect) == (7, 4)
    assert any("connect" in message for message in driver.app.messages)


def test_bad_look_and_sound_values_fall_back(tmp_path):
    path = tmp_path / "settings.json"
    values = {"look": "neon", "animation": "warp", "muted": "yes", "volume": 70, "colour_blind": True}
    path.write_text(json.dumps(values), encoding="utf-8")
    loaded, problem = settings.load(path)
    assert (loaded.look, loaded.animation, loaded.muted) == (Settings().look, Settings().animation, False)
    assert loaded.colour_blind is True and loaded.volume == 70
    assert "look" in problem and "animation" in problem and "muted" in problem


def test_a_combination_of_keys_no_agent_takes_is_reset_with_a_message(start):
    """Each key of the spec is valid alone; together they are not (mode= only goes with eval=seed000)."""
    driver = start(yellow_agent="greedy:eval=zero,mode=2", red_agent="greedy:eval=seed000,mode=2")
    driver.wait_for_catalog()
    driver.step()
    assert (driver.app.settings.yellow_agent, driver.app.settings.red_agent) == ("", "greedy:eval=seed000,mode=2")
    assert any("were invalid and were reset: yellow_agent" in m for m in driver.app.messages)
