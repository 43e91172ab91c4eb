"""Fuzzed saved games and settings files: the readers refuse cleanly or accept something that works.

Property: reading any file raises nothing but the module's own one-line error
(SaveFileError naming the file; for settings, nothing at all), what is
accepted can be shown, played and saved again, and a valid file is never
refused or changed. A sample runs by default; ``-m slow`` runs 10,000 of each.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings

from engine.agents.registry import runs_a_file
from game import saves
from game import settings as settings_module
from game.model import Colour
from game.saves import SavedGame, SaveFileError
from game.scenes.saved_games import describe
from game.settings import Settings
from tests.game.untrusted_files import saved_game_files, settings_files

SAMPLE, SLOW = 300, 10_000
QUIET = list(HealthCheck)  # function-scoped tmp_path (one file, rewritten), large examples: both on purpose


def check_saved_game(folder, raw: bytes, expected) -> None:
    path = folder / "game.json"
    path.write_bytes(raw)
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        data = None
    if data is not None:  # the checks themselves, without the reader's last-resort net
        with contextlib.suppress(SaveFileError):
            SavedGame.from_json(data)
    try:
        game = saves.load(path)
    except SaveFileError as exc:
        assert expected is None, f"a valid saved game was refused: {exc}"
        assert str(exc).startswith("game.json: ") and "\n" not in str(exc)
        return
    describe(game)  # what the Saved games screen shows, what opening it plays, what saving it writes
    assert game.board.ply == game.config.start_board().ply + len(game.moves)
    assert game.result in ("red", "yellow", "draw", "unfinished")
    assert not any(player.spec and runs_a_file(player.spec) for player in (game.config.red, game.config.yellow))
    again = saves.load(saves.save(game, folder / "again"))
    assert (again.config, again.moves, again.students) == (game.config, game.moves, game.students)
    if expected is not None:
        assert game.config.geometry == expected.geometry and game.moves == expected.moves
        assert (game.config.start_grid or game.config.start_moves) == expected.start
        assert (game.config.red.spec, game.config.yellow.spec) == expected.specs
        assert tuple(colour in dict(game.students) for colour in Colour) == expected.students


def check_settings(folder, raw: bytes, expected) -> None:
    path = folder / "settings.json"
    path.write_bytes(raw)
    loaded, problem = settings_module.load(path)  # nothing may escape
    assert isinstance(loaded, Settings) and (problem is None or "\n" not in problem)
    assert not any(runs_a_file(loaded.agent(colour)) for colour in Colour)
    json.dumps(loaded.to_json())
    loaded.geometry()
    loaded.drop_file_agents()  # as the game does once the engine is loaded: the rest is written as read
    written = folder / "again.json"
    assert settings_module.save(loaded, written) is None
    assert settings_module.load(written) == (loaded, None)
    if expected is not None:
        assert problem is None, f"valid settings were refused: {problem}"
        assert {name: loaded.to_json()[name] for name in expected} == expected


@given(example=saved_game_files())
@settings(max_examples=SAMPLE, deadline=None, suppress_health_check=QUIET)
def test_fuzzed_saved_games(tmp_path, example):
    check_saved_game(tmp_path, *example)


@given(example=settings_files())
@settings(max_examples=SAMPLE, deadline=None, suppress_health_check=QUIET)
def test_fuzzed_settings(tmp_path, example):
    check_settings(tmp_path, *example)


@pytest.mark.slow
@given(example=saved_game_files())
@settings(max_examples=SLOW, deadline=None, suppress_health_check=QUIET)
def test_fuzzed_saved_games_at_length(tmp_path, example):
    check_saved_game(tmp_path, *example)


@pytest.mark.slow
@given(example=settings_files())
@settings(max_examples=SLOW, deadline=None, suppress_health_check=QUIET)
def test_fuzzed_settings_at_length(tmp_path, example):
    check_settings(tmp_path, *example)
