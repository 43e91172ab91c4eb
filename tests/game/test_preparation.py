"""Preparing the players: the match's first (their first move before the rest), the others later; a compiling
child ends with the game."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

import pygame
import pytest

from engine.board import Board
from engine.geometry import Geometry
from engine.stop import StopFlag
from game import catalog as catalog_module
from game import preparation
from game.app import App
from game.preparation import AHEAD_OF_TIME, Preparer, Progress, Task, is_compiled
from tests.waiting import wait_until

QUICK = [sys.executable, "-c", "pass"]


class Recorder:
    """The ``load`` of a preparer: remembers what was loaded, in order."""

    def __init__(self) -> None:
        self.loaded: list[str] = []
        self.event = threading.Event()

    def __call__(self, task: Task, stop: StopFlag) -> None:
        self.loaded.append(task.spec)
        self.event.set()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh numba cache folder: every player needs compiling, as on a first start."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    return tmp_path


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:  # a zombie (ended, not yet reaped) is not alive
            return stat.read().split()[2] != "Z"
    except (ProcessLookupError, FileNotFoundError):  # it ended (and was reaped) meanwhile
        return False


def test_urgent_players_come_first_and_each_is_compiled_once(cache, monkeypatch):
    commands: list[list[str]] = []
    monkeypatch.setattr(preparation, "compile_command", lambda task: commands.append([task.spec]) or QUICK)
    recorder = Recorder()
    preparer = Preparer(recorder)
    preparer.plan([Task("easy"), Task("hard"), Task("easy")])
    preparer.urgent([Task("expert", wide=True)])
    preparer.start()
    try:
        wait_until(lambda: len(recorder.loaded) == 3)
        assert recorder.loaded == ["expert", "easy", "hard"]
        assert commands == [["expert"], ["easy"], ["hard"]]
        assert is_compiled(Task("expert", wide=True)) and not is_compiled(Task("expert"))
        assert not preparer.waits_for(Task("hard"))
    finally:
        preparer.close()
    later = Preparer(Recorder())  # the next start finds them compiled: it only loads
    assert not later.waits_for(Task("easy"))


def test_a_students_file_is_never_prepared(cache, monkeypatch, tmp_path):
    student = tmp_path / "student.py"
    imported = tmp_path / "imported"
    student.write_text(f"open({str(imported)!r}, 'w').close()\ndef agent(board, player=1):\n    return 0\n")
    compiled: list[str] = []
    monkeypatch.setattr(preparation, "compile_command", lambda task: compiled.append(task.spec) or QUICK)
    recorder = Recorder()
    preparer = Preparer(recorder)
    preparer.start()
    try:
        preparer.plan([Task(f"{student}:agent"), Task("beginner")])
        wait_until(lambda: len(recorder.loaded) >= 1)
        assert recorder.loaded == compiled == ["beginner"] and not imported.exists()
        assert not preparer.waits_for(Task(f"{student}:agent"))  # its match never waits for a preparation
        preparer.wait(Task(f"{student}:agent"), StopFlag())  # returns at once
    finally:
        preparer.close()


def test_a_saved_student_agent_is_not_loaded_at_the_menu(settings_file, monkeypatch, tmp_path):
    student = tmp_path / "student.py"
    imported = tmp_path / "imported"
    student.write_text(f"open({str(imported)!r}, 'w').close()\ndef agent(board, player=1):\n    return 0\n")
    loaded: list[str] = []
    monkeypatch.setattr(catalog_module, "_load", lambda task, stop: loaded.append(task.spec))
    monkeypatch.setattr(preparation, "compile_command", lambda task: QUICK)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    settings_file.parent.mkdir(parents=True)
    saved = {"mode": "spectator", "red_agent": f"{student}:agent", "yellow_agent": "easy"}
    settings_file.write_text(json.dumps(saved), encoding="utf-8")
    app = App(settings_path=settings_file, fps=0)
    try:
        app.step()
        assert app.catalog.wait(30)
        wait_until(lambda: len(loaded) >= 6)  # the quick game's other player, then every difficulty level
        assert "easy" in loaded[:2] and f"{student}:agent" not in loaded  # the student's seat: the default level
        assert not imported.exists()
    finally:
        app.close()


def test_after_every_level_the_game_builds_the_search_ahead_of_time(settings_file, monkeypatch, tmp_path):
    from engine.agents.registry import presets

    loaded: list[Task] = []
    monkeypatch.setattr(catalog_module, "_load", lambda task, stop: loaded.append(task))
    monkeypatch.setattr(preparation, "compile_command", lambda task: QUICK)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    app = App(settings_path=settings_file, fps=0)
    try:
        app.step()
        assert app.catalog.wait(30)
        wait_until(lambda: AHEAD_OF_TIME in loaded)
        assert loaded[-1] == AHEAD_OF_TIME  # last, once every level is ready
        assert {task.spec for task in loaded[:-1]} >= {preset.name for preset in presets()}
    finally:
        app.close()


def test_a_search_that_cannot_be_built_here_is_tried_once_a_version(cache, monkeypatch, tmp_path):
    """On a machine without a C compiler: the real command fails at once, leaves its note, and the next start
    does not run it again."""
    from engine.solver import aot

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CC", "/nonexistent/cc")  # (numba's compiler looks for the C compiler there first)
    real_command = preparation.compile_command
    commands: list[list[str]] = []
    monkeypatch.setattr(
        preparation, "compile_command", lambda task: commands.append(real_command(task)) or commands[-1]
    )
    recorder = Recorder()
    preparer = Preparer(recorder)
    preparer.plan([AHEAD_OF_TIME])
    assert preparer.waits_for(AHEAD_OF_TIME)
    preparer.start()
    try:
        wait_until(lambda: recorder.loaded == [""], timeout=120)
    finally:
        preparer.close()
    assert commands[0][-1] == "--ahead-of-time-only" and "--parent" in commands[0]
    assert aot.note_path().read_text(encoding="utf-8").strip() and aot.load() is None
    later = Preparer(Recorder())
    assert not later.waits_for(AHEAD_OF_TIME) and is_compiled(AHEAD_OF_TIME)


def test_closing_ends_the_compiling_child_and_its_children_at_once(cache, monkeypatch, tmp_path):
    pids = tmp_path / "pids"
    script = (
        "import os, subprocess, sys, time\n"
        "grandchild = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{grandchild.pid}}')\n"
        "time.sleep(60)\n"
    )
    monkeypatch.setattr(preparation, "compile_command", lambda task: [sys.executable, "-c", script])
    preparer = Preparer(Recorder())
    preparer.plan([Task("hard")])
    preparer.start()
    wait_until(lambda: pids.exists() and len(pids.read_text().split()) == 2)
    child, grandchild = map(int, pids.read_text().split())
    stop = StopFlag()
    waiting = threading.Thread(target=preparer.wait, args=(Task("hard"), stop))
    waiting.start()
    preparer.close()
    waiting.join(2)
    assert not waiting.is_alive()  # a move waiting for the player is let go
    wait_until(lambda: not alive(child) and not alive(grandchild), timeout=2)


def test_an_urgent_player_interrupts_the_compiling_of_one_nobody_waits_for(cache, monkeypatch, tmp_path):
    def command(task: Task) -> list[str]:
        return [sys.executable, "-c", "import time; time.sleep(60)"] if task.spec == "expert" else QUICK

    monkeypatch.setattr(preparation, "compile_command", command)
    recorder = Recorder()
    preparer = Preparer(recorder)
    preparer.plan([Task("expert")])
    preparer.start()
    try:
        wait_until(lambda: (progress := preparer.progress()) is not None and progress.spec == "expert")
        wait_until(lambda: preparer._child is not None)
        stop = StopFlag()
        preparer.wait(Task("hard"), stop)  # a move of hard: returns once hard is compiled
        assert is_compiled(Task("hard")) and not is_compiled(Task("expert"))
        wait_until(lambda: preparer.progress() is not None and preparer.progress().spec == "expert")
        assert recorder.loaded == []  # the waiting move loads hard itself, at full priority
    finally:
        preparer.close()


def test_a_waiting_move_is_let_go_by_its_stop(cache, monkeypatch):
    monkeypatch.setattr(
        preparation, "compile_command", lambda task: [sys.executable, "-c", "import time; time.sleep(60)"]
    )
    preparer = Preparer(Recorder())
    preparer.start()
    stop, done = StopFlag(), threading.Event()
    waiter = threading.Thread(target=lambda: (preparer.wait(Task("hard"), stop), done.set()))
    waiter.start()
    try:
        assert not done.wait(0.3)
        stop.set()
        assert done.wait(2)
    finally:
        preparer.close()
        waiter.join()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads priorities from /proc")
def test_a_player_compiled_in_the_background_starts_again_at_full_priority_when_wanted(cache, monkeypatch, tmp_path):
    pids = tmp_path / "pids"
    script = f"import os, time\nopen({str(pids)!r}, 'a').write(f'{{os.getpid()}} ')\ntime.sleep(60)\n"
    monkeypatch.setattr(preparation, "compile_command", lambda task: [sys.executable, "-c", script])
    preparer = Preparer(Recorder())
    preparer.plan([Task("expert")])
    preparer.start()

    def nice(pid: int) -> int:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])

    try:
        wait_until(lambda: pids.exists() and len(pids.read_text().split()) == 1)
        background = int(pids.read_text().split()[0])
        wait_until(lambda: nice(background) > 0)  # nobody waits for it: it takes what is spare
        preparer.urgent([Task("expert")])  # a match with it starts
        wait_until(lambda: len(pids.read_text().split()) == 2)
        wait_until(lambda: not alive(background), timeout=2)
        assert nice(int(pids.read_text().split()[1])) == nice(os.getpid())
    finally:
        preparer.close()


def test_the_note_names_the_player_and_how_far_along_and_fits_the_default_window(start):
    driver = start(window_width=1024, window_height=720)
    driver.wait_for_catalog()
    progress = Progress("hard", compiling=True, opening=False, done=0, total=6, since=time.monotonic() - 12.2)
    driver.app.catalog.progress = lambda: progress  # as on a first start, twelve seconds in
    assert progress.sentence() == "First start: preparing Hard (1 of 6), 12 s"
    theme, width = driver.app.theme, driver.app.screen.get_width()
    assert theme.fit_text(progress.sentence(), 14, width - theme.px(40)) == progress.sentence()
    first_move = Progress("expert", compiling=True, opening=True, done=0, total=8, since=time.monotonic())
    assert theme.fit_text(first_move.sentence(), 14, width - theme.px(40)) == first_move.sentence()
    search = Progress("", compiling=True, opening=False, done=8, total=9, since=time.monotonic(), ahead_of_time=True)
    assert search.sentence() == "First start: building the solver's search for the command line (9 of 9), 0 s"
    assert theme.fit_text(search.sentence(), 14, width - theme.px(40)) == search.sentence()
    drawn = driver.app.frame_stats.frames
    driver.step()
    assert driver.app.frame_stats.frames == drawn + 1  # news from the preparation is drawn
    driver.press(driver.scene.play)  # the set-up screens draw it too
    driver.step()


def test_a_matchs_players_compile_their_first_move_first_and_its_moves_load_them(cache, monkeypatch):
    commands: list[list[str]] = []
    real_command = preparation.compile_command
    monkeypatch.setattr(preparation, "compile_command", lambda task: commands.append(real_command(task)) or QUICK)
    recorder = Recorder()
    preparer = Preparer(recorder)
    geometry = Geometry(7, 6, 4)
    preparer.urgent(catalog_module._match_tasks(["expert"], geometry), for_match=True)
    preparer.plan([Task("easy")])
    first = catalog_module._task_for("expert", Board.from_moves("4"))
    assert first == Task.first_move("expert", geometry) and preparer.waits_for(first)
    assert catalog_module._task_for("expert", Board.from_moves("44")) == Task("expert")  # later moves need all
    preparer.start()
    try:
        wait_until(lambda: recorder.loaded == ["easy"])  # the match's tasks are left to its moves
        opening = ["--opening", "7x6x4", "--jobs", str(preparation.OPENING_JOBS), "expert"]
        assert [command[5:] for command in commands] == [opening, ["expert"], ["easy"]]
        assert catalog_module._task_for("expert", Board.from_moves("4")) == Task("expert")  # all compiled now
    finally:
        preparer.close()


def test_the_note_says_when_only_the_first_move_is_prepared():
    progress = Progress("expert", compiling=True, opening=True, done=0, total=8, since=time.monotonic() - 2.2)
    assert progress.sentence() == "First start: preparing Expert's first move (1 of 8), 2 s"


def test_the_set_up_runs_once_beside_the_first_compiling_and_holds_nothing_up(cache, monkeypatch):
    release, ran = threading.Event(), []

    def set_up(task: Task) -> None:  # still running while both players are compiled and loaded
        ran.append((threading.current_thread().name, task))
        release.wait(30)

    monkeypatch.setattr(preparation, "compile_command", lambda task: QUICK)
    recorder = Recorder()
    preparer = Preparer(recorder, set_up)
    preparer.plan([Task("easy"), Task("hard")])
    preparer.start()
    try:
        wait_until(lambda: len(recorder.loaded) == 2)
        assert ran == [("engine-set-up", Task("easy"))]  # beside the first child, told what it compiles
    finally:
        release.set()
        preparer.close()


def test_the_game_sets_the_compiler_up_through_the_tasks_preparation(monkeypatch):
    from engine.startup import Preparation
    from engine.startup import preparation as engine_preparation

    started: list[Preparation] = []
    monkeypatch.setattr(Preparation, "start_compiler", lambda self: started.append(self))
    task = Task.first_move("hard", Geometry(7, 6, 4))
    catalog_module._start_compiler(task)  # the preparer's set-up in the game
    assert started == [engine_preparation("hard", opening=(7, 6, 4))]


def test_while_a_match_plays_no_other_player_is_loaded_into_the_game(cache, monkeypatch):
    monkeypatch.setattr(preparation, "compile_command", lambda task: QUICK)
    recorder = Recorder()
    preparer = Preparer(recorder)
    preparer.hold_loading(True)  # a match is on screen
    preparer.plan([Task("easy"), Task("hard")])
    preparer.start()
    try:
        wait_until(lambda: not preparer.waits_for(Task("hard")))  # compiled meanwhile, in a child process
        time.sleep(0.2)
        assert recorder.loaded == []  # but not loaded beside the match's frames
        preparer.hold_loading(False)  # back at the menu
        wait_until(lambda: recorder.loaded == ["easy", "hard"])
    finally:
        preparer.close()


def test_the_match_screen_holds_the_loading_while_it_is_shown(start):
    from tests.game.test_match import config, open_match

    driver = start()
    holds: list[bool] = []
    driver.app.catalog.hold_loading = holds.append
    open_match(driver, config(None, None))
    assert holds == [True]
    driver.key(pygame.K_ESCAPE)  # back to the menu
    driver.step()
    assert holds == [True, False]
