"""Installing the project as an application: the commands, the packaged assets, the Linux desktop entry."""

from __future__ import annotations

import configparser
import importlib
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


def test_the_desktop_entry_starts_the_command_with_the_icon():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(ROOT / "packaging" / "linux" / "connect-four.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application" and desktop["Exec"].split()[0] == "connect-four"
    assert desktop["Icon"] == "connect-four" and (ROOT / "assets" / "icon.png").is_file()
    assert desktop["Terminal"] == "false" and "Game;" in desktop["Categories"]
