"""``main.py`` and its options: clear errors before any window, and the measuring options."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from game.frames import FrameStats
from game.launch import main
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
STATS_LINE = re.compile(r"^frames \d+, median \d+\.\d ms, p99 \d+\.\d ms$")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--red", "nonsense"], "unknown agent 'nonsense'"),
        (["--yellow", "random:seed=x"], "seed='x'"),
        (["--cols", "12"], "columns must be a whole number from 4 to 9"),
        (["--cols", "4", "--moves", "9"], "9"),
        (["--red", "human", "--yellow", "human", "--moves", "1212121"], "already over"),
        (["--moves", "1212121"], "already over"),  # checked at once for the menu's games too
        (["--moves", "8"], "expected a column digit from 1 to 7"),
        (["--cols", "8", "--moves", "1111111"], "column 1 is full"),
    ],
)
def test_bad_options_get_one_line_and_status_2(argv, message, capsys, settings_file):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not settings_file.exists()  # no window was opened, nothing saved


def test_quit_after_the_first_frame_prints_frame_stats(capsys, settings_file):
    assert main(["--quit-after-first-frame", "--frame-stats"]) == 0
    out = capsys.readouterr().out.strip()
    assert STATS_LINE.match(out) and out.startswith("frames 1,")


def test_frame_log_writes_each_frame(tmp_path, settings_file):
    log = tmp_path / "frames.csv"
    assert main(["--quit-after-first-frame", "--frame-log", str(log)]) == 0
    header, first, *rest = log.read_text(encoding="utf-8").splitlines()
    assert header == "interval_ms,kind,shown,work_ms,draw_ms,show_ms" and not rest
    interval, kind, shown, *times = first.split(",")
    assert interval == "" and kind == "whole" and float(shown) == 1.0 and all(float(t) >= 0 for t in times)


def test_frame_stats_summary():
    stats = FrameStats()
    stats.frames = 5
    stats.intervals_ms = [16.0, 18.0, 16.5, 40.0]
    assert stats.summary() == "frames 5, median 17.2 ms, p99 40.0 ms"


def test_main_py_works_from_any_folder(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "--exit-after-game" in done.stdout and "random" in done.stdout


def test_main_py_explains_missing_libraries(monkeypatch, capsys):
    spec = importlib.util.spec_from_file_location("main_script", ROOT / "main.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "numba" else real_find_spec(name))
    assert script.missing_dependencies() == ["numba"]
    assert script.main() == 1
    out = capsys.readouterr().out
    assert "numba" in out and "-m pip install -r" in out and "requirements.txt" in out


def test_main_py_tells_the_classic_pygame_from_pygame_ce(monkeypatch):
    spec = importlib.util.spec_from_file_location("main_script", ROOT / "main.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)

    def version(name):
        if name == "pygame-ce":  # an environment where only the classic 'pygame' distribution provides the module
            raise importlib.metadata.PackageNotFoundError(name)
        return "1.0"

    monkeypatch.setattr(importlib.metadata, "version", version)
    assert script.missing_dependencies() == ["pygame-ce (the classic 'pygame' is installed: uninstall it first)"]


@pytest.mark.slow
def test_a_spectator_game_from_the_command_line(settings_file):
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "--red",
            "random:seed=1",
            "--yellow",
            "random:seed=2",
            "--cols",
            "4",
            "--rows",
            "4",
            "--connect",
            "3",
            "--exit-after-game",
            "--frame-stats",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "SDL_VIDEODRIVER": "dummy"},
    )
    assert done.returncode == 0, done.stderr
    assert STATS_LINE.match(done.stdout.strip())


def test_without_a_display_the_game_says_so_and_saves_nothing(tmp_path):
    settings = tmp_path / "settings.json"
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)  # no driver asked for: SDL would fall back to one that shows nothing
    env |= {"CONNECT_FOUR_SETTINGS": str(settings), "XDG_RUNTIME_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py")], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path
    )
    assert done.returncode == 1
    assert "error: cannot open the game window" in done.stderr and "Traceback" not in done.stderr
    assert not settings.exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to see the window's library loaded")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 0)])
def test_ctrl_c_or_a_polite_kill_closes_the_game_quietly(signum, status, tmp_path):
    settings = tmp_path / "settings.json"
    child = _start_game(settings)
    wait_until(lambda: _mapped(child, "llvmlite"), 120, "the game to load its engine")  # after its first frame
    child.send_signal(signum)
    _, err = child.communicate(timeout=60)
    assert child.returncode == status, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert settings.exists()  # closed as by its close button: the choices were saved


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to see the window's library loaded")
def test_a_polite_kill_while_the_window_opens_closes_it_as_soon_as_it_exists(tmp_path):
    settings = tmp_path / "settings.json"
    child = _start_game(settings)
    child.send_signal(signal.SIGTERM)  # the moment SDL is loaded: before its window, or its own signal handlers
    _, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert "Traceback" not in err
    assert settings.exists()  # the window closed as soon as it was there, as by its close button


def _start_game(settings: Path) -> subprocess.Popen[str]:
    """``main.py`` started headless, returned once it has loaded SDL (the window comes next)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "CONNECT_FOUR_SETTINGS": str(settings)}
    child = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    wait_until(lambda: _mapped(child, "libSDL2"), 60, "the game to load SDL")
    return child


def _mapped(child: subprocess.Popen[str], library: str) -> bool:
    """Whether the running game has loaded ``library`` (SDL opens the window; numba's LLVM, the engine the
    game loads on a thread of its own once its first frame is drawn: then it is in its frame loop)."""
    assert child.poll() is None, "the game ended before it started"
    return library in Path(f"/proc/{child.pid}/maps").read_text()


def test_a_seed_004_grid_file_starts_the_match(tmp_path):
    from engine.board import Board
    from engine.formats import parse_grid
    from game.launch import build_parser, options_from

    grid = "- - - - -\n- - - - -\n- - - - -\nX X - O O\n"
    path = tmp_path / "grid.txt"
    path.write_text(grid)
    options = options_from(build_parser().parse_args(["--grid", str(path), "--red", "human", "--yellow", "random"]))
    assert (options.match.geometry.cols, options.match.geometry.rows) == (5, 4)
    assert Board.from_moves(options.match.start_moves, options.match.geometry) == parse_grid(grid)


def test_a_bad_grid_file_is_one_line(capsys, settings_file, tmp_path):
    assert main(["--grid", str(tmp_path / "missing.txt"), "--red", "human", "--yellow", "random"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "cannot read the grid file" in err and err.count("\n") == 1


@pytest.mark.parametrize("text", ["٤", "４", "𝟒", "1e3", "-7"])
def test_board_sizes_are_ascii_whole_numbers(text, capsys, settings_file):
    with pytest.raises(SystemExit) as exit_info:
        main(["--cols", text])
    assert exit_info.value.code == 2
    assert f"--cols: {text!r} is not a whole number" in capsys.readouterr().err
    assert not settings_file.exists()


def test_the_classic_pygame_is_caught_before_a_window_opens(monkeypatch, capsys):
    """pip install kaggle-environments installs the classic pygame over pygame-ce's files: one line, status 1."""
    import types

    from game import launch

    classic = types.ModuleType("pygame")  # the classic pygame has no IS_CE
    monkeypatch.setitem(sys.modules, "pygame", classic)
    assert launch.pygame_problem() is not None
    assert launch._run(["--red", "random", "--yellow", "random"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "classic 'pygame'" in err and "pip uninstall -y pygame pygame-ce" in err
