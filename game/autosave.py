"""The unfinished game, kept after every move so that leaving (Esc, Back, closing the window, a crash)
never loses it; the main menu offers to resume it.

The file is ``unfinished-game.json`` beside the settings file, in the format of
a saved game (:mod:`game.saves`, ``docs/saved-games.md``). It is data: it is read
as untrusted input like any saved game (bounded, one clear message for a damaged
file, never a traceback), and a seat that a student's agent played is written
and reopened as a person with a note, so resuming never runs a student's file.
A file that cannot be read is never deleted: it is moved aside to
``unfinished-game.json.bak`` with a message, and the game goes on.

Writing goes through one background thread (:class:`Keeper`): a write with
``fsync`` takes milliseconds, which a frame must not wait for. The newest
state wins: a write asked for while another of the same file waits replaces it.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.settings import default_path

if TYPE_CHECKING:
    from game.players import MatchConfig
    from game.saves import SavedGame

NAME = "unfinished-game.json"


def path_for(settings_path: Path | None) -> Path:
    """Where the unfinished game lives: beside the settings file (a test's settings, a test's game)."""
    return (settings_path or default_path()).with_name(NAME)


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


@dataclass(frozen=True)
class Found:
    """What :func:`look` found: the game to resume (None: none), and a message for the player (or "")."""

    game: SavedGame | None = None
    problem: str = ""


def look(path: Path) -> Found:
    """The unfinished game in ``path``, if there is one that can be played on.

    A damaged file is moved aside (renamed, never copied nor deleted) and named in the message; a
    game that is over (written by an older run that stopped at the wrong moment) is simply not offered.
    """
    from game.saves import SaveFileError, load

    if not os.path.lexists(path):
        return Found()
    try:
        game = load(path)
    except SaveFileError as exc:
        kept = backup_path(path)
        try:
            os.replace(path, kept)
        except OSError:
            return Found(problem=f"Your unfinished game could not be read ({exc}).")
        return Found(problem=f"Your unfinished game could not be read ({exc}): the file is kept as {kept.name}.")
    if game.result != "unfinished" or not game.moves:
        return Found()
    return Found(game)


def set_aside(path: Path, notify: Callable[..., Any]) -> bool:
    """Before a new game takes the file: another unfinished game in it goes to Saved games, never lost.

    Returns whether the file may be written now; ``notify(text, seconds=, error=)`` tells the player what
    happened. An earlier game that cannot be saved stays where it is (the new game is then not kept).
    """
    from game.saves import save

    KEEPER.flush(1.0)  # (a removal or write still on its way decides what the file holds)
    found = look(path)
    if found.game is None:
        if found.problem:
            notify(found.problem, seconds=8.0, error=True)
        return True
    try:
        saved = save(found.game)
    except OSError as exc:
        notify(f"Your earlier unfinished game stays kept ({exc.strerror or exc}): this one will not be.", error=True)
        return False
    notify(f"Your earlier unfinished game ({describe(found.game)}) is now in Saved games as {saved.name}.", seconds=8.0)
    return True


def describe(game: SavedGame) -> str:
    """One line for the menu's Resume button: ``Ann vs Medium · move 12`` (an engine by its name alone: its
    settings would push the move number out of a narrow button)."""
    from game.labels import agent_words

    config = game.config
    red, yellow = (p.name if p.is_human else agent_words(p.spec or "")[0] for p in (config.red, config.yellow))
    return f"{red} vs {yellow} · move {len(game.moves) + 1}"


def text_of(config: MatchConfig, moves: str) -> str:
    """The file's text for a game of ``config`` with ``moves`` played from its start (a saved game's JSON)."""
    from game.saves import SavedGame

    date = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    return json.dumps(SavedGame(config, moves, date=date).to_json(), indent=2, ensure_ascii=False) + "\n"


class Keeper:
    """One thread that writes (or removes) the game's small files in the background (the unfinished game,
    the records): for each file, only the newest request is carried out."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._pending: dict[Path, str | None] = {}  # per file, the newest text to write (None: remove it)
        self._busy = False
        self._thread: threading.Thread | None = None
        self.problem = ""  # the last write that failed, in a sentence ("" once one succeeds)

    def write(self, path: Path, text: str) -> None:
        self._ask((path, text))

    def remove(self, path: Path) -> None:
        self._ask((path, None))

    def _ask(self, request: tuple[Path, str | None]) -> None:
        with self._changed:
            self._pending[request[0]] = request[1]
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until what was asked for is on disk (at most ``timeout`` seconds); True if it is."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._pending or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def _run(self) -> None:
        from engine.files import write_atomic

        while True:
            with self._changed:
                while not self._pending:
                    self._changed.wait()
                path = next(iter(self._pending))
                text, self._busy = self._pending.pop(path), True
            try:
                if text is None:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
                else:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    write_atomic(path, text)
                self.problem = ""
            except OSError as exc:
                self.problem = f"Could not write {path.name}: {exc.strerror or exc}"
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()


#: The game's one keeper (a match asks it; tests and the end of a match wait for it with flush).
KEEPER = Keeper()


def keep(path: Path | None, config: MatchConfig, moves: str, over: bool, kept: bool) -> bool:
    """Keep a match's game after a change: written while it is unfinished and has moves, removed once
    it is over or started again (only if this match wrote it: another game's file stays). ``path``
    None: this match keeps nothing (two computers). Returns whether the file now holds this game."""
    if path is None:
        return False
    if over or not moves:
        if kept:
            KEEPER.remove(path)
        return False
    KEEPER.write(path, text_of(config, moves))
    return True


def unkept(kept: bool) -> str:
    """Why a game that should be kept is not on disk ("" when it is, or when there is none to keep), after
    waiting a moment for the writes asked for (the records' too)."""
    written = KEEPER.flush(1.0)
    if not kept:
        return ""
    return KEEPER.problem or ("" if written else "the disk did not answer in time")


def say_kept(kept: bool, notify: Callable[..., Any]) -> None:
    """What leaving a match says of its unfinished game: "kept" only when it was written."""
    why = unkept(kept)
    if why:
        notify(f"Your unfinished game could not be kept: {why[:1].lower()}{why[1:]}.", error=True, seconds=8.0)
    elif kept:
        notify("Your unfinished game is kept: Resume it from the menu.", seconds=4.0)


def holds(path: Path | None, config: MatchConfig) -> bool:
    """Whether ``path`` holds the game that ``config`` replays (a resumed game: this match owns the file,
    and removes it once the game is over)."""
    from dataclasses import replace

    from game.saves import SaveFileError, load

    if path is None or not config.replay or not os.path.isfile(path):
        return False
    try:
        game = load(path)
    except SaveFileError:
        return False
    return game.moves == config.replay and game.config == replace(config, replay="")
