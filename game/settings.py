"""The player's choices, remembered between runs in a small JSON file.

The file lives in the usual per-user configuration folder (or wherever
``CONNECT_FOUR_SETTINGS`` points). Reading it can never stop the game: a
missing file means defaults, an unreadable or corrupt one means defaults plus
a message for the menu, and a field with a bad value falls back to its own
default. Only a regular file of at most :data:`MAX_BYTES` is read (never a
device, a pipe or a huge file), as UTF-8 with or without a byte-order mark;
any error while reading or parsing it (absurd nesting, a number thousands of
digits long) counts as damage. A damaged file is not lost: the first save
moves it aside to ``settings.json.bak`` before writing the new one. Writing
is atomic, through a temporary file of a unique name (:func:`engine.files.write_atomic`),
so neither a crash nor a second instance saving at the same moment can leave
a half-written file; temporary files left by a killed save are removed at
the next start once they are stale.

The file is data: an agent spec in it that names a file to run (a
student's agent, :func:`engine.agents.registry.runs_a_file`) is never used
(:meth:`Settings.agent` gives the default instead, and the app drops it with
a message once the engine is loaded) and never written.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from pathlib import Path
from typing import Any

from game.model import AnimationSpeed, Colour, Look, Mode

APP_FOLDER = "connect-four"
ENV_PATH = "CONNECT_FOUR_SETTINGS"
MAX_BYTES = 1 << 20  # a settings file is a few hundred bytes; anything past a megabyte is not one


class Unreadable(Exception):
    """The settings file exists but cannot be used; the message says why, in a few words."""


#: The settings screen's fields: saved as soon as they change, even during a game started from
#: the command line (whose players and board size are not saved).
PREFERENCES = ("muted", "volume", "look", "colour_blind", "text_scale", "animation")


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
    show_analysis: bool = False  # the analysis panel over the board (off by default: it gives the game away)
    # sound, look and feel (the settings screen)
    muted: bool = False
    volume: int = 70  # percent, 10..100 (silence is the mute switch)
    look: Look = Look.STANDARD
    colour_blind: bool = False  # a shape on every disc, not only a colour
    text_scale: int = 100  # percent: 100, 125 or 150
    animation: AnimationSpeed = AnimationSpeed.NORMAL
    tally: dict = field(default_factory=dict)  # the score of the last two players (game.tally checks it)

    def __post_init__(self) -> None:
        self._chosen: set[str] = set()  # specs a person chose in this session (set_agent), not read from a file

    def agent(self, colour: Colour) -> str:
        """``colour``'s computer as a spec (``""``: the default difficulty). A spec naming a file to run
        counts only when chosen in this session: as read from a file it is ``""``, so it never starts."""
        spec = self.red_agent if colour is Colour.RED else self.yellow_agent
        return spec if not spec or spec in self._chosen or not _runs_a_file(spec) else ""

    def set_agent(self, colour: Colour, spec: str) -> None:
        self._chosen.add(spec)
        if colour is Colour.RED:
            self.red_agent = spec
        else:
            self.yellow_agent = spec

    def drop_file_agents(self) -> list[str]:
        """Reset each agent read from the file that names a file to run; the names of the fields reset.

        Needs the engine: the app calls it once the engine is loaded (until then :meth:`agent` hides them).
        """
        dropped = []
        for colour in Colour:
            spec = self.red_agent if colour is Colour.RED else self.yellow_agent
            if spec and spec not in self._chosen and _runs_a_file(spec):
                self.set_agent(colour, "")
                dropped.append(f"{colour.value}_agent")
        return dropped

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

    def repair_board(self) -> list[str]:
        """Reset the board to the classic one if its fields make no valid board; the names of the fields
        that were wrong. (The board rules live in the engine, which is loaded after the first frame.)"""
        from engine.errors import GeometryError
        from engine.geometry import DEFAULT, MAX_COLS, MAX_CONNECT, MAX_ROWS, MIN_COLS, MIN_CONNECT, MIN_ROWS, Geometry

        try:
            Geometry(self.cols, self.rows, self.connect)
            return []
        except GeometryError:
            pass
        ranges = {"cols": (MIN_COLS, MAX_COLS), "rows": (MIN_ROWS, MAX_ROWS), "connect": (MIN_CONNECT, MAX_CONNECT)}
        bad = [name for name, (low, high) in ranges.items() if not low <= getattr(self, name) <= high]
        self.cols, self.rows, self.connect = DEFAULT.cols, DEFAULT.rows, DEFAULT.connect
        return bad or ["connect"]  # each in range, but the line does not fit the board

    def repair(self, check: Callable[[str], str | None]) -> list[str]:
        """Reset what the engine finds wrong (``check(spec)`` says why a spec cannot be used): the board, a
        student's file read from the file (data, never run), an unknown agent; the names of the fields reset."""
        bad = self.repair_board() + self.drop_file_agents()
        for colour in Colour:
            spec = self.agent(colour)
            if spec and check(spec) is not None:
                self.set_agent(colour, "")
                bad.append(f"{colour.value}_agent")
        return bad

    def first_players(self, resolve: Callable[[str], str]) -> list[str]:
        """The computers "Quick game" would start, the one moving first first (``resolve``: the spec played
        for a saved one)."""
        colours = (self.first, self.first.other)
        return [resolve(self.agent(colour)) for colour in colours if not self.is_human(colour)]

    def is_human(self, colour: Colour) -> bool:
        if self.mode is Mode.HOTSEAT:
            return True
        return self.mode is Mode.HUMAN_VS_AI and colour is self.human_colour

    def to_json(self) -> dict[str, Any]:
        """What the file keeps: never a spec that names a file to run (nor a score that names one)."""
        data = asdict(self)
        for key in ("red_agent", "yellow_agent"):
            if data[key] and _runs_a_file(data[key]):
                data[key] = ""
        players = data["tally"].get("players") if isinstance(data["tally"], dict) else None
        if isinstance(players, list) and any(_names_a_file(player) for player in players):
            data["tally"] = {}
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


def _runs_a_file(spec: str) -> bool:
    """The engine's rule (:func:`engine.agents.registry.runs_a_file`), loaded only when a spec needs it:
    the menu's first frame comes before the engine."""
    from engine.agents.registry import runs_a_file

    return runs_a_file(spec)


def _names_a_file(player: object) -> bool:
    """Whether a score's player (``["computer", spec]``) is a student's file."""
    return isinstance(player, list) and len(player) == 2 and isinstance(player[1], str) and _runs_a_file(player[1])


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
    if isinstance(default, dict):
        return value if isinstance(value, dict) else None  # its owner checks what is inside
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


def read(path: Path) -> dict[str, Any]:
    """The parsed settings file; FileNotFoundError if there is none, :class:`Unreadable` if it cannot be used."""
    from engine.files import FileProblem, read_text_bounded

    try:
        text = read_text_bounded(path, MAX_BYTES, "settings file")  # never blocks, only a regular file
    except FileProblem as exc:
        raise Unreadable(str(exc).removeprefix(f"settings file {path.name}: ")) from None
    try:
        data = json.loads(text)
    except Exception as exc:  # bad JSON, nesting too deep, a number too long to convert, ...
        raise Unreadable(f"it is not valid JSON: {type(exc).__name__}") from None
    if not isinstance(data, dict):
        raise Unreadable("it holds no settings")
    return data


def load(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, and a message for the player if the file had problems."""
    path = path or default_path()
    remove_stale_temporaries(path)
    try:
        data = read(path)
    except FileNotFoundError:
        return Settings(), None
    except Unreadable as exc:
        kept = backup_path(path).name
        return Settings(), f"Your settings file was damaged ({exc}): the defaults are back, the file is kept as {kept}."
    settings, bad = Settings.from_json(data)
    if bad:
        return settings, f"Some saved settings were invalid and were reset: {', '.join(bad)}."
    return settings, None


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def save(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings; returns a message if that was impossible (the game goes on).

    A file there that cannot be read (see :func:`read`) is moved aside to
    :func:`backup_path` first, whatever it is: it is renamed, never copied.
    """
    from engine.files import write_atomic

    path = path or default_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path) and not path.is_dir() and _damaged(path):  # a folder is the user's business
            os.replace(path, backup_path(path))
        write_atomic(path, json.dumps(settings.to_json(), indent=2) + "\n")  # a unique temporary name
    except OSError as exc:
        return f"Could not save your settings: {exc.strerror or exc}"
    return None


def remove_stale_temporaries(path: Path) -> None:
    """Remove what killed saves of ``path`` left: ``.settings.json.<random>.tmp`` and the older
    ``settings.tmp``, once stale (never a save under way), and only this file's: the folder may be shared."""
    from engine.files import remove_stale_temporaries

    legacy = path.with_suffix(".tmp")
    remove_stale_temporaries(path, legacy=None if legacy == path else legacy)


def _damaged(path: Path) -> bool:
    try:
        read(path)
    except FileNotFoundError:
        return False  # a symbolic link to nowhere: replaced like a missing file
    except Unreadable:
        return True
    return False


def save_preferences(settings: Settings, path: Path | None = None, only: bool = False) -> str | None:
    """Save ``settings``; ``only``: only the settings screen's choices (:data:`PREFERENCES`), the rest of the
    file as it was (a match from the command line chose the others). A problem, in a sentence, or None."""
    if not only:
        return save(settings, path)
    saved, _ = load(path)
    for name in PREFERENCES:
        setattr(saved, name, getattr(settings, name))
    return save(saved, path)


def remember(path: Path | None = None, **values: Any) -> str | None:
    """Change only these fields in the saved file (a choice made during a match started from the command
    line is kept, without the rest of that match's command-line settings)."""
    stored, _ = load(path)
    for name, value in values.items():
        setattr(stored, name, value)
    return save(stored, path)
