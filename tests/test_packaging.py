"""Installing the project as an application: the commands, the packaged assets, the Linux desktop entry."""

from __future__ import annotations

import configparser
import importlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_commands_point_at_functions_that_exist():
    data = project()["project"]
    scripts = {**data["scripts"], **data["gui-scripts"]}
    assert set(scripts) == {"connect-four", "connect-four-engine"}
    for target in scripts.values():
        module, function = target.split(":")
        assert callable(getattr(importlib.import_module(module), function))


def read_entry(path: Path) -> configparser.SectionProxy:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(path, encoding="utf-8")
    return entry["Desktop Entry"]


def game_command(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, XDG_DATA_HOME=str(data), SDL_VIDEODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "main.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )


def test_the_desktop_entry_is_installed_and_removed_by_the_game(tmp_path):
    done = game_command("--install-desktop-entry", data=tmp_path)
    assert done.returncode == 0, done.stderr
    entry_file = tmp_path / "applications" / "connect-four.desktop"
    icon = tmp_path / "icons" / "hicolor" / "256x256" / "apps" / "connect-four.png"
    desktop = read_entry(entry_file)
    assert desktop["Type"] == "Application" and desktop["Name"] == "Connect Four"
    program = shlex.split(desktop["Exec"])
    assert Path(program[0]).is_file() and program[-1] == "%f"  # this Python (or the installed command) ...
    assert program[1:-1] in ([str(ROOT / "main.py")], ["-m", "game"], [])  # ... starting this game
    assert desktop["Icon"] == "connect-four" and icon.read_bytes() == (ROOT / "assets" / "icon.png").read_bytes()
    assert desktop["Terminal"] == "false" and "Game;" in desktop["Categories"]

    assert game_command("--remove-desktop-entry", data=tmp_path).returncode == 0
    assert not entry_file.exists() and not icon.exists()


def test_removing_leaves_an_entry_it_did_not_write(tmp_path):
    entry_file = tmp_path / "applications" / "connect-four.desktop"
    entry_file.parent.mkdir(parents=True)
    entry_file.write_text("[Desktop Entry]\nType=Application\nName=Someone else's\nExec=true\n", encoding="utf-8")
    done = game_command("--remove-desktop-entry", data=tmp_path)
    assert done.returncode == 0 and "left as it is" in done.stdout
    assert "Someone else's" in entry_file.read_text(encoding="utf-8")


def test_a_built_wheel_installs_commands_that_find_the_books_and_fonts(tmp_path):
    """Build the wheel, install it in a new virtual environment, and run both commands away from the checkout.

    The new environment sees the packages of the environment running the tests (numpy, numba,
    pygame-ce), so that nothing is downloaded but the build's own setuptools; the project itself
    comes only from the wheel. It is given them by a ``.pth`` file naming this environment's
    folders, not by ``--system-site-packages``: that option shows the *base* interpreter's
    packages, which a newcomer's virtual environment does not have.
    """
    wheels = tmp_path / "wheels"
    build = run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(wheels)], ROOT)
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = wheels.glob("connect_four-*.whl")
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", str(venv)], tmp_path).returncode == 0
    bin_folder = venv / ("Scripts" if os.name == "nt" else "bin")
    see_these_packages(bin_folder / "python")
    install = run([str(bin_folder / "python"), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], tmp_path)
    assert install.returncode == 0, install.stderr[-2000:]

    where = run([str(bin_folder / "python"), "-c", "import engine, game.theme as t; print(engine.__file__, t.ASSETS)"])
    assert where.returncode == 0, where.stderr[-2000:]
    engine_file, assets = where.stdout.split()
    assert Path(engine_file).is_relative_to(venv) and Path(assets).is_relative_to(venv)  # not the checkout
    assert (Path(assets) / "fonts" / "DejaVuSans.ttf").is_file()

    solved = run([str(bin_folder / "connect-four-engine"), "solve", ""], tmp_path, timeout=120)
    assert solved.returncode == 0 and solved.stdout.split() == ["1"], solved.stderr  # from the book, at once
    first_frame = run([str(bin_folder / "connect-four"), "--quit-after-first-frame"], tmp_path, timeout=120)
    assert first_frame.returncode == 0, first_frame.stderr[-2000:]


def see_these_packages(python: Path) -> None:
    """Let the environment of ``python`` import the packages of the environment running this test."""
    ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site_packages = Path(run([str(python), "-c", ask]).stdout.strip())
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))  # in order, once each
    (site_packages / "the-tests-environment.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")


def run(command: list[str], cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    environment.pop("PYTHONPATH", None)
    return subprocess.run(
        command, cwd=cwd or Path.home(), env=environment, capture_output=True, text=True, timeout=timeout
    )


def unquote_exec(value: str) -> list[str]:
    """The arguments of an Exec value, read back as the Desktop Entry Specification says (a reader's view)."""
    text = value.replace("\\\\", "\x00").replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r")
    text = text.replace("\x00", "\\")  # (the string's own escapes first)
    arguments, current, quoted, index, started = [], "", False, 0, False
    while index < len(text):
        character = text[index]
        if quoted and character == "\\" and index + 1 < len(text):
            current, index = current + text[index + 1], index + 2
            continue
        if character == '"':
            quoted, started = not quoted, True
        elif character == " " and not quoted:
            if started or current:
                arguments.append(current)
            current, started = "", False
        else:
            current += character
        index += 1
    if started or current:
        arguments.append(current)
    return [argument.replace("%%", "%") for argument in arguments]


AWKWARD_PATHS = ["/opt/My Games/connect four/bin/python", "/home/a/100% done/main.py", '/tmp/a"b$c`d\\e/main.py']


@pytest.mark.parametrize("path", AWKWARD_PATHS)
def test_the_desktop_entrys_exec_line_quotes_paths_as_the_specification_says(path, tmp_path, monkeypatch):
    from game import desktop_entry

    monkeypatch.setattr(desktop_entry, "command", lambda: [path, "--flag"])
    entry = desktop_entry.entry_text()
    exec_value = next(line for line in entry.splitlines() if line.startswith("Exec="))[len("Exec=") :]
    assert unquote_exec(exec_value) == [path, "--flag", "%f"]
    validator = shutil.which("desktop-file-validate")
    if validator is None:
        return  # (the reading above is the check where the freedesktop tool is not installed)
    file = tmp_path / "connect-four.desktop"
    file.write_text(entry, encoding="utf-8")
    done = subprocess.run([validator, str(file)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "error" not in done.stdout.lower(), done.stdout + done.stderr


def test_the_extras_read_their_requirements_files_and_the_base_install_is_light():
    dynamic = project()["tool"]["setuptools"]["dynamic"]
    assert set(dynamic["optional-dependencies"]) == {"studies", "cluster", "kaggle"}
    for table in dynamic["optional-dependencies"].values():
        for name in table["file"]:
            lines = [line for line in (ROOT / name).read_text().splitlines() if line and not line.startswith("#")]
            assert lines and not any(line.startswith("-") for line in lines), name  # (setuptools reads no -r)
    base = (ROOT / "requirements.txt").read_text()
    assert all(name not in base for name in ("matplotlib", "tqdm"))
    assert "setuptools" in base  # (the game builds the solver's search ahead of time with it: numba's compiler)
    from engine.optional import EXTRAS

    assert {extra: table["file"] for extra, table in dynamic["optional-dependencies"].items()} == {
        extra: [file] for extra, file in EXTRAS.items()
    }


def test_the_package_says_what_it_is():
    data = project()["project"]
    assert "version" in data["dynamic"] and any("Board Games" in item for item in data["classifiers"])
    from engine.version import VERSION

    for command in ([sys.executable, "-m", "engine", "--version"], [sys.executable, "main.py", "--version"]):
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stdout.strip() == f"connect-four {VERSION}", done.stderr


@pytest.mark.parametrize(
    ("argv0", "typed"),
    [
        ("/x/engine/__main__.py", "python -m engine"),
        ("/venv/bin/connect-four-engine", "connect-four-engine"),
        ("-c", "python -m engine"),
    ],
)
def test_usage_names_the_command_that_was_typed(argv0, typed):
    from engine.version import typed_name

    assert typed_name("engine", argv0) == typed
    done = subprocess.run(
        [sys.executable, "-m", "engine", "solve", "--bogus"], cwd=ROOT, capture_output=True, text=True
    )
    assert "(see python -m engine --help)" in done.stderr
