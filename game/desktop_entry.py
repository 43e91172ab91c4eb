"""The game in a Linux desktop's application menu: ``connect-four --install-desktop-entry``.

Writes, for the current user, a desktop entry (``applications/connect-four.desktop``)
and the icon (``icons/hicolor/256x256/apps/connect-four.png``) under
``$XDG_DATA_HOME`` (default ``~/.local/share``), where every freedesktop.org
desktop looks. The entry starts this very installation: the ``connect-four``
command beside the Python running now when there is one (pip, pipx), else
this checkout's ``main.py`` (or ``python -m game``) with this Python.

``--remove-desktop-entry`` deletes those two files, and only if they are
ours: the entry carries the marker line :data:`MARKER`, and the icon is
removed only together with it. Nothing else is touched.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from engine.files import write_atomic
from game.theme import ASSETS

#: The line that marks an entry this module wrote (desktops ignore keys starting X-).
MARKER = "X-Connect-Four-Installed-By=connect-four --install-desktop-entry"
NAME = "connect-four"


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def entry_path() -> Path:
    return data_home() / "applications" / f"{NAME}.desktop"


def icon_path() -> Path:
    return data_home() / "icons" / "hicolor" / "256x256" / "apps" / f"{NAME}.png"


def command() -> list[str]:
    """How the desktop starts this installation of the game: its command, or the checkout's main.py."""
    beside = Path(sys.executable).with_name(NAME)
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    checkout = ASSETS.parent / "main.py"
    if checkout.is_file():
        return [sys.executable, str(checkout)]
    return [sys.executable, "-m", "game"]


#: Characters that make the Desktop Entry Specification ask for an argument in double quotes.
_RESERVED = frozenset(" \t\n\"'\\><~|&;$*?#()`")


def exec_argument(argument: str) -> str:
    """One argument of an ``Exec`` line, as the Desktop Entry Specification (1.5, "The Exec key") says.

    A literal ``%`` is written ``%%``; an argument with a reserved character
    (a space, a quote, a dollar sign, ...) goes in double quotes, inside which
    double quotes, backquotes, dollar signs and backslashes take a backslash;
    then, since the key's value is a string, every backslash is doubled once
    more and a newline, tab or carriage return is written as its escape.
    """
    argument = argument.replace("%", "%%")
    if any(character in _RESERVED for character in argument):
        escaped = "".join("\\" + character if character in '"`$\\' else character for character in argument)
        argument = f'"{escaped}"'
    argument = argument.replace("\\", "\\\\")
    return argument.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


def entry_text() -> str:
    """The desktop entry (freedesktop.org Desktop Entry Specification 1.4 and 1.5)."""
    start = " ".join(exec_argument(part) for part in command())
    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.4",  # (what it uses is all in 1.4; older validators know no 1.5)
            "Name=Connect Four",
            "GenericName=Board game",
            "Comment=Line up four before your opponent does: play the computer or a friend, or watch two engines",
            f"Exec={start} %f",
            f"Icon={NAME}",
            "Terminal=false",
            "Categories=Game;BoardGame;",
            "Keywords=connect;four;board;strategy;solver;",
            MARKER,
            "",
        ]
    )


def install() -> str:
    """Write the entry and the icon; returns what was done, for the terminal. Raises OSError."""
    entry, icon = entry_path(), icon_path()
    for folder in (entry.parent, icon.parent):
        folder.mkdir(parents=True, exist_ok=True)
    write_atomic(icon, (ASSETS / "icon.png").read_bytes())
    write_atomic(entry, entry_text())
    return f"Connect Four is in your applications menu: {entry} (icon {icon})"


def remove() -> str:
    """Delete the entry and the icon if this module wrote them; returns what was done."""
    entry = entry_path()
    try:
        text = entry.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return f"There is no desktop entry to remove ({entry})."
    if MARKER not in text.splitlines():
        return f"{entry} was not written by connect-four --install-desktop-entry: left as it is."
    entry.unlink()
    icon_path().unlink(missing_ok=True)
    return f"Removed {entry} and its icon."
