"""The player's choices, remembered between runs in a small JSON file.

The file lives in the usual per-user configuration folder (or wherever
``CONNECT_FOUR_SETTINGS`` points). Reading it can never stop the game: a
missing file means defaults, an unreadable or corrupt one means defaults plus
a message for the menu, and a field with a bad value falls back to its own
default. Writing is atomic (a temporary file then a rename), so a crash while
saving cannot leave a half-written file behind.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass, fields
from enum import Enum
from pathlib import Path
from typing import Any

APP_FOLDER = "connect-four"
ENV_PATH = "CONNECT_FOUR_SETTINGS"


class Mode(str, Enum):
    """Who plays: a person against the computer, two computers, or two people."""

    HUMAN_VS_AI = "human_vs_ai"
    SPECTATOR = "spectator"
    HOTSEAT = "hotseat"

    @property
    def title(self) -> str:
        return {"human_vs_ai": "You vs Computer", "spectator": "Computer vs Computer", "hotseat": "Two players"}[
            self.value
        ]


class Colour(str, Enum):
    """The two disc colours; which one moves first is a setting."""

    RED = "red"
    YELLOW = "yellow"

    @property
    def other(self) -> Colour:
        return Colour.YELLOW if self is Colour.RED else Colour.RED

    @property
    def title(self) -> str:
        return self.value.capitalize()


@dataclass
class Settings:
    """Everything the set-up screens choose. Agents are spec strings (``""``: the default difficulty)."""

    mode: Mode = Mode.HUMAN_VS_AI
    human_colour: Colour = Colour.RED  # your colour when playing the computer
    first: Colour = Colour.RED  # the colour that moves first
    red_agent: str = ""
    yellow_agent: str = ""
    player_name: str = ""  # your name against the computer ("": You)
    red_name: str = ""  # the names of two people playing each other ("": Red player, Yellow player)
    yellow_name: str = ""
    spectator_speed: str = "normal"  # how fast two computers' games go by: slow, normal, fast, instant
    cols: int = 7
    rows: int = 6
    connect: int = 4
    window_width: int = 1024
    window_height: int = 720

    def agent(self, colour: Colour) -> str:
        return self.red_agent if colour is Colour.RED else self.yellow_agent

    def set_agent(self, colour: Colour, spec: str) -> None:
        if colour is Colour.RED:
            self.red_agent = spec
        else:
            self.yellow_agent = spec

    def name(self, colour: Colour) -> str:
        """The name of the person playing ``colour`` in the chosen mode ("" for none)."""
        if self.mode is Mode.HUMAN_VS_AI:
            return self.player_name if colour is self.human_colour else ""
        return self.red_name if colour is Colour.RED else self.yellow_name

    def set_name(self, colour: Colour, name: str) -> None:
        """Name one of two people playing each other."""
        if colour is Colour.RED:
            self.red_name = name
        else:
            self.yellow_name = name

    def geometry(self):
        """The board size as an engine :class:`~engine.geometry.Geometry` (the default if invalid)."""
        from engine.errors import GeometryError
        from engine.geometry import DEFAULT, Geometry

        try:
            return Geometry(self.cols, self.rows, self.connect)
        except GeometryError:
            return DEFAULT

    def is_human(self, colour: Colour) -> bool:
        if self.mode is Mode.HOTSEAT:
            return True
        return self.mode is Mode.HUMAN_VS_AI and colour is self.human_colour

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return {key: value.value if isinstance(value, Enum) else value for key, value in data.items()}

    @classmethod
    def from_json(cls, data: object) -> tuple[Settings, list[str]]:
        """Settings from parsed JSON, and the names of the fields that had to be reset."""
        settings = cls()
        if not isinstance(data, dict):
            return settings, ["the whole file"]
        bad = []
        for f in fields(cls):
            if f.name not in data:
                continue
            value = _coerce(getattr(settings, f.name), data[f.name])
            if value is None:
                bad.append(f.name)
            else:
                setattr(settings, f.name, value)
        return settings, bad


def _coerce(default: object, value: object) -> object | None:
    """``value`` as the type of ``default``, or None if it does not fit."""
    if isinstance(default, Enum):
        try:
            return type(default)(value)
        except ValueError:
            return None
    if isinstance(default, bool) or isinstance(value, bool):
        return value if type(value) is type(default) else None
    if isinstance(default, int):
        return value if isinstance(value, int) and 0 < value < 100_000 else None
    if isinstance(default, str):
        return value if isinstance(value, str) and len(value) < 1000 else None
    return None


def default_path() -> Path:
    """Where the settings file lives on this system."""
    override = os.environ.get(ENV_PATH)
    if override:
        return Path(override)
    return user_folder("config") / "settings.json"


def user_folder(kind: str) -> Path:
    """The game's per-user folder for ``kind`` ``"config"`` (settings) or ``"data"`` (saved games).

    The two are the same folder on Windows and macOS; Linux follows the XDG base directories.
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    elif kind == "data":
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / APP_FOLDER


def load(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, and a message for the player if the file had problems."""
    path = path or default_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), None
    except (OSError, UnicodeDecodeError) as exc:
        return Settings(), f"Could not read your settings ({exc.__class__.__name__}); using the defaults."
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return Settings(), f"Your settings file was damaged, so the defaults are back. ({path.name})"
    settings, bad = Settings.from_json(data)
    if bad:
        return settings, f"Some saved settings were invalid and were reset: {', '.join(bad)}."
    return settings, None


def save(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings; returns a message if that was impossible (the game goes on)."""
    path = path or default_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(settings.to_json(), indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        return f"Could not save your settings: {exc.strerror or exc}"
    return None
