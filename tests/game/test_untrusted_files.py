"""Files from other people: saved games, settings and pasted text run nothing, and hostile files never
hang the game, crash the Saved games screen or hide the other games."""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import pygame
import pytest

from engine.agents.registry import runs_a_file
from engine.files import STALE_SECONDS
from game import pasting, preparation, saves, settings
from game.app import App
from game.launch import build_parser, main, options_from
from game.model import Colour
from game.players import config_from_settings
from game.scenes.match import MatchScene
from game.scenes.saved_games import SavedGames
from game.settings import Settings
from tests.game.test_match import config
from tests.game.untrusted_files import STUDENT_SOURCE
from tests.waiting import wait_until

CTRL = pygame.KMOD_CTRL
GOOD = {
    "format": "connect-four game",
    "version": 1,
    "date": "2026-11-22T23:40:05+00:00",
    "cols": 7,
    "rows": 6,
    "connect": 4,
    "first": "red",
    "red": {"name": "Ann", "agent": None},
    "yellow": {"name": "Computer", "agent": "hard"},
    "start": "",
    "moves": "4453",
    "result": "unfinished",
}


@pytest.fixture
def student(tmp_path):
    """A student's agent file that leaves ``RAN`` beside itself if it is ever imported or asked for a move."""
    folder = tmp_path / "course"
    folder.mkdir()
    path = folder / "student.py"
    path.write_text(STUDENT_SOURCE, encoding="utf-8")
    return path


def student_specs(student) -> list[str]:
    return [f"{student}:agent", "student.py:agent", f"classroom:path={student},function=agent"]


@pytest.mark.parametrize(
    ("spec", "runs"),
    [
        ("bot.py:agent", True),
        ("/home/ann/course/bot.py:play,timeout=2", True),
        (r"C:\course\bot.py:agent", True),
        ("  bot.py:agent  ", True),
        ("classroom:path=bot.py,function=agent", True),
        ("Classroom : path=bot.py", True),
        ("classroom", True),
        ("hard", False),
        ("mcts:time=1.0", False),
        ("alphabeta:depth=4,eval=f4", False),
        ("human", False),
        ("", False),
        ("bot.txt:agent", False),  # no agent of that name: nothing to run
    ],
)
def test_the_engine_tells_which_specs_run_a_file(spec, runs):
    assert runs_a_file(spec) is runs


# -- saved games ----------------------------------------------------------------------------------
def test_a_saved_student_seat_opens_as_a_person_with_a_note(tmp_path, student, monkeypatch):
    monkeypatch.chdir(student.parent)  # so that the relative spec would find the file too
    for index, spec in enumerate(student_specs(student)):
        path = tmp_path / f"game{index}.json"
        path.write_text(json.dumps({**GOOD, "yellow": {"name": "Bot", "agent": spec}}), encoding="utf-8")
        game = saves.load(path)
        assert game.config.yellow.is_human and game.config.yellow.name == "Yellow player"
        assert game.students == ((Colour.YELLOW, "student.py"),)
        (note,) = game.notes
        assert note.startswith("Yellow was a student's agent (student.py): it plays as a person here")
    assert not (student.parent / "RAN").exists()


def test_saving_a_game_a_student_played_keeps_only_the_file_name(tmp_path, student):
    path = saves.save(saves.SavedGame(config(None, f"{student}:agent"), "44"), tmp_path)
    text = path.read_text(encoding="utf-8")
    assert json.loads(text)["yellow"] == {"name": "", "agent": None, "student": "student.py"}
    assert ".py:" not in text and str(student.parent) not in text
    game = saves.load(path)
    assert game.config.yellow.is_human and game.notes[0].startswith("Yellow was a student's agent (student.py)")
    again = saves.load(saves.save(game, tmp_path))  # saved again: the note stays, still not a spec
    assert again.students == game.students and again.config.yellow.is_human


def test_the_saved_games_screen_opens_a_student_seat_as_a_person(start, student, monkeypatch):
    monkeypatch.chdir(student.parent)
    driver = start()
    driver.wait_for_catalog()
    folder = saves.games_folder()
    folder.mkdir(parents=True)
    for index, spec in enumerate(student_specs(student)):
        seat = {"name": "Bot", "agent": spec}
        (folder / f"game{index}.json").write_text(json.dumps({**GOOD, "red": seat, "yellow": seat}), encoding="utf-8")
    driver.key(pygame.K_o, mod=CTRL)
    screen = driver.scene
    assert isinstance(screen, SavedGames) and len(screen.items) == 3
    assert all(item.text == "student.py (as a person) vs student.py (as a person)" for item in screen.items)
    for index in range(3):
        driver.press(screen.items[index])
        match = driver.scene
        assert isinstance(match, MatchScene) and match.turns.config.red.is_human and match.turns.config.yellow.is_human
        assert match.turns.model.board.move_string == "4453"
        assert any(m.startswith("Red was a student's agent (student.py)") for m in driver.app.messages)
        assert any(m.startswith("Yellow was a student's agent (student.py)") for m in driver.app.messages)
        driver.step(20)
        driver.key(pygame.K_ESCAPE)
        assert driver.scene is screen
    assert not (student.parent / "RAN").exists()


def test_a_saved_student_seat_from_the_command_line(start, student, capsys):
    path = saves.games_folder()
    path.mkdir(parents=True)
    path = path / "game.json"
    path.write_text(json.dumps({**GOOD, "yellow": {"name": "", "agent": f"{student}:agent"}}), encoding="utf-8")
    options = options_from(build_parser().parse_args([str(path)]))
    assert options.match is not None and options.match.yellow.is_human
    driver = start(options)
    driver.step(5)
    assert isinstance(driver.scene, MatchScene) and driver.scene.turns.model.board.move_string == "4453"
    assert any(m.startswith("Yellow was a student's agent (student.py)") for m in driver.app.messages)
    assert main([str(path), "--quit-after-first-frame"]) == 0
    assert not (student.parent / "RAN").exists()


def test_pasted_text_naming_a_student_file_is_not_a_position(start, student):
    driver = start()
    driver.wait_for_catalog()
    for text in [*student_specs(student), f"4453\n{student}:agent", "4" * 100_000]:
        pygame.scrap.put_text(text)
        driver.key(pygame.K_v, mod=CTRL)
        assert not isinstance(driver.scene, MatchScene)
        with pytest.raises(saves.SaveFileError, match="not a position"):
            pasting.pasted_position(text, config(None, None))
    assert not (student.parent / "RAN").exists()


def test_moves_with_anything_but_column_digits_are_refused(tmp_path):
    path = tmp_path / "game.json"
    for moves, message in [("4453 ", "move 5 is ' '"), ("44\n", "move 3"), ("４4", "move 1 is '４'"), ("0", "move 1")]:
        path.write_text(json.dumps({**GOOD, "moves": moves}), encoding="utf-8")
        with pytest.raises(saves.SaveFileError, match=message):
            saves.load(path)


# -- hostile files in the games folder ---------------------------------------------------------------
def hostile_folder(folder):
    """Two good games and every kind of file that used to hang, crash or empty the list."""
    folder.mkdir(parents=True, exist_ok=True)
    good = [saves.save(saves.SavedGame(config(None, None), moves), folder) for moves in ("4", "44")]
    os.mkfifo(folder / "fifo.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "dangling.json").symlink_to(folder / "nowhere")
    (folder / "loop1.json").symlink_to(folder / "loop2.json")
    (folder / "loop2.json").symlink_to(folder / "loop1.json")
    (folder / "deep.json").write_text("[" * 40_000 + "]" * 40_000, encoding="utf-8")  # under the size limit
    (folder / "digits.json").write_text(json.dumps(GOOD).replace('"cols": 7', '"cols": ' + "9" * 5000))
    (folder / "folder.json").mkdir()
    with open(folder / "huge.json", "wb") as file:
        file.truncate(300 * 1024 * 1024)  # takes no room on disk
    (folder / "bom.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode())  # Notepad's: a good game
    damaged = {"fifo", "zero", "dangling", "loop1", "loop2", "deep", "digits", "folder", "huge"}
    return {path.name for path in good} | {"bom.json"}, {f"{name}.json" for name in damaged}


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes, /dev/zero and symbolic links")
def test_hostile_files_are_listed_as_damaged_and_hide_nothing(tmp_path):
    good, damaged = hostile_folder(tmp_path / "games")
    result: list = []
    reader = threading.Thread(target=lambda: result.append(saves.saved_games(tmp_path / "games")), daemon=True)
    reader.start()
    reader.join(60)
    assert result, "listing the saved games hung"
    entries = {path.name: entry for path, entry in result[0]}
    assert set(entries) == good | damaged
    assert all(isinstance(entries[name], saves.SavedGame) for name in good)
    for name in damaged:
        assert isinstance(entries[name], str) and entries[name].startswith(f"{name}: "), entries[name]
    assert "not a regular file" in entries["fifo.json"] and "not a regular file" in entries["zero.json"]
    assert "link to nothing" in entries["dangling.json"] and "nested too deep" in entries["deep.json"]
    assert "a number too long" in entries["digits.json"]


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes, /dev/zero and symbolic links")
def test_the_saved_games_screen_lists_the_others_and_marks_the_damaged(start):
    driver = start()
    driver.wait_for_catalog()
    good, damaged = hostile_folder(saves.games_folder())
    began = time.monotonic()
    driver.key(pygame.K_o, mod=CTRL)
    screen = driver.scene
    assert isinstance(screen, SavedGames) and time.monotonic() - began < 30
    texts = [item.text for item in screen.items]
    assert len(texts) == len(good) + len(damaged)
    assert {text.removeprefix("Damaged: ") for text in texts if text.startswith("Damaged: ")} == damaged
    assert texts.count("Red player vs Yellow player") == 2 and texts.count("Ann vs Hard") == 1
    damaged_row = texts.index("Damaged: fifo.json")
    screen.focus_item(damaged_row)  # scrolled into view
    driver.key(pygame.K_RETURN)
    assert driver.scene is screen and any("fifo.json: not a regular file" in m for m in driver.app.messages)
    driver.key(pygame.K_DELETE)  # a pipe can be deleted like any damaged file, and brought back
    assert len(screen.items) == len(texts) - 1
    driver.key(pygame.K_z, mod=CTRL)
    assert len(screen.items) == len(texts)


def test_undoing_a_delete_never_replaces_a_game_saved_meanwhile(tmp_path):
    first = saves.save(saves.SavedGame(config(None, None), "4"), tmp_path)
    aside = saves.delete(first)
    first.write_text(json.dumps({**GOOD, "moves": "1"}), encoding="utf-8")  # another game took the name
    with pytest.raises(FileExistsError):
        saves.undelete(aside)
    assert saves.load(first).moves == "1" and aside.exists()


def test_stale_temporary_files_are_removed_and_fresh_ones_kept(start, tmp_path):
    folder = saves.games_folder()
    folder.mkdir(parents=True)
    stale = [folder / "2026-01-01 10-00-00 Ann vs Bob.tmp", folder / ".2026-01-01 Ann vs Bob.x1y2.tmp"]
    fresh = [folder / "2026-01-01 10-00-01 Ann vs Bob.tmp", folder / ".2026-01-01 Ann vs Bob.a1b2.tmp"]
    others = [folder / "notes.tmp", folder / ".notes.txt.k3j4.tmp", folder / "2026-01-01 10-00-00 Ann vs Bob.json"]
    for path in stale + fresh + others:
        path.write_text("{", encoding="utf-8")
    for path in stale + others:
        os.utime(path, (time.time() - 2 * STALE_SECONDS,) * 2)
    driver = start()
    driver.key(pygame.K_o, mod=CTRL)
    assert isinstance(driver.scene, SavedGames)
    assert not any(path.exists() for path in stale) and all(path.exists() for path in fresh + others)


def test_stale_temporary_settings_files_are_removed_at_start(tmp_path):
    path = tmp_path / "settings.json"
    stale = [tmp_path / "settings.tmp", tmp_path / ".settings.json.k3j4_x9z.tmp"]
    fresh = [tmp_path / ".settings.json.abcd1234.tmp"]
    others = [tmp_path / ".other.json.k3j4_x9z.tmp", tmp_path / "notes.tmp"]
    for file in stale + fresh + others:
        file.write_text("{", encoding="utf-8")
    for file in stale + others:
        os.utime(file, (time.time() - 2 * STALE_SECONDS,) * 2)
    assert settings.load(path) == (Settings(), None)
    assert not any(file.exists() for file in stale) and all(file.exists() for file in fresh + others)


# -- settings -------------------------------------------------------------------------------------
def test_a_student_agent_in_the_settings_is_never_used_nor_written(tmp_path, student):
    path = tmp_path / "settings.json"
    for spec in student_specs(student):
        path.write_text(json.dumps({"mode": "spectator", "red_agent": spec, "yellow_agent": "easy"}))
        loaded, problem = settings.load(path)
        assert problem is None and loaded.agent(Colour.RED) == "" and loaded.agent(Colour.YELLOW) == "easy"
        assert loaded.drop_file_agents() == ["red_agent"] and loaded.red_agent == ""
        chosen = Settings(tally={"players": [["computer", spec], ["person", "Ann"]], "red": 1, "yellow": 0})
        chosen.set_agent(Colour.YELLOW, spec)  # chosen in the engine editor: it plays in this session ...
        assert chosen.agent(Colour.YELLOW) == spec and chosen.drop_file_agents() == []
        assert settings.save(chosen, path) is None  # ... but is never written
        stored = json.loads(path.read_text(encoding="utf-8"))
        assert stored["yellow_agent"] == "" and stored["tally"] == {} and ".py" not in path.read_text()
    assert not (student.parent / "RAN").exists()


def test_the_menu_drops_a_student_agent_from_the_settings(start, student):
    driver = start(mode="spectator", red_agent=f"{student}:agent", yellow_agent="random:seed=1")
    assert driver.app.settings.agent(Colour.RED) == ""  # before the engine has looked: already not used
    driver.wait_for_catalog()
    driver.step(3)
    assert driver.app.settings.red_agent == ""
    assert any("reset: red_agent" in m for m in driver.app.messages)
    match = config_from_settings(driver.app.settings, driver.app.catalog.resolve)
    assert not runs_a_file(match.red.spec or "") and match.yellow.spec == "random:seed=1"
    driver.app.save_settings()
    assert ".py" not in driver.app.settings_path.read_text(encoding="utf-8")
    assert not (student.parent / "RAN").exists()


QUICK = [sys.executable, "-c", "pass"]


def test_no_student_agent_reaches_the_warm_up_at_the_menu(settings_file, monkeypatch, tmp_path, student):
    from game import catalog as catalog_module

    loaded: list[str] = []
    compiled: list[str] = []
    monkeypatch.setattr(catalog_module, "_load", lambda task, stop: loaded.append(task.spec))
    monkeypatch.setattr(preparation, "compile_command", lambda task: compiled.append(task.spec) or QUICK)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    settings_file.parent.mkdir(parents=True)
    spec = f"classroom:path={student},function=agent"
    settings_file.write_text(json.dumps({"mode": "spectator", "red_agent": spec, "yellow_agent": spec}))
    app = App(settings_path=settings_file, fps=0)
    try:
        app.step()
        assert app.catalog.wait(30)
        wait_until(lambda: len(loaded) >= 6, 60, "the players to load", step=app.step)
        assert not any(runs_a_file(spec) for spec in loaded + compiled)
    finally:
        app.close()
    assert not preparation.preparable(spec) and not preparation.preparable("student.py:agent")
    assert not (student.parent / "RAN").exists()
