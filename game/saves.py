"""Saved games: small JSON files in the user's data folder (a position shared as text: :mod:`game.pasting`).

A saved game is one JSON file (``docs/saved-games.md`` gives the format, with an example): the board, the
players, ``start`` (the position the game began from: a move string, or a text grid of seed 004) and
``moves`` (played from there). ``result`` is written for people reading it; the reader works it out again.

Saved games come from other people too: only a regular file of at most :data:`MAX_FILE_BYTES` is read,
never blocking (:func:`engine.files.read_bounded`), and anything wrong, whatever the parser raised, is
one :class:`SaveFileError` naming the file. A file is data: a seat whose spec names a file to run (a
student's agent, :func:`engine.agents.registry.runs_a_file`) opens as a person with a note
(:attr:`SavedGame.notes`) and is written as a person with the file's name as plain text. A new game's
file appears whole under a name no file has (:func:`save`): two instances saving at once lose nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path, PureWindowsPath
from typing import Any

from engine.agents.registry import runs_a_file
from engine.board import Board, Side
from engine.errors import EngineError
from engine.files import STALE_SECONDS, TEMPORARY_SUFFIX, FileProblem, read_text_bounded
from engine.formats import parse_grid
from engine.geometry import Geometry
from game.model import Colour
from game.players import MatchConfig, clean_name, player_for
from game.settings import user_folder

FORMAT = "connect-four game"
VERSION = 1
ENV_FOLDER = "CONNECT_FOUR_GAMES"
MAX_FILE_BYTES = 100_000  # a saved game is well under 1 KB; anything this large is not one
MAX_NOTE = 100  # characters of a student's file name kept as a note


class SaveFileError(ValueError):
    """A saved game or a pasted position (:mod:`game.pasting`) that cannot be used; the message says why."""


@dataclass(frozen=True)
class SavedGame:
    """A match (players, board, start position) and the moves played in it."""

    config: MatchConfig
    moves: str
    date: str = ""
    #: Seats that a student's agent played, as (colour, its file's name): they open as people.
    students: tuple[tuple[Colour, str], ...] = ()

    @property
    def notes(self) -> list[str]:
        """What the screen says on opening the game: each student's seat now played by a person."""
        return [
            f"{colour.label} was a student's agent ({file}): it plays as a person here; "
            "load it again from the engine editor to let it play."
            for colour, file in self.students
        ]

    @property
    def board(self) -> Board:
        """The final position."""
        board = self.config.start_board()
        for char in self.moves:
            board.play(int(char) - 1)
        return board

    @property
    def result(self) -> str:
        """``red``, ``yellow``, ``draw`` or ``unfinished``."""
        board = self.board
        if board.winner is not None:
            return (self.config.first if board.winner is Side.FIRST else self.config.first.other).value
        return "draw" if board.is_draw else "unfinished"

    def to_json(self) -> dict[str, Any]:
        config = self.config
        return {
            "format": FORMAT,
            "version": VERSION,
            "date": self.date,
            "cols": config.geometry.cols,
            "rows": config.geometry.rows,
            "connect": config.geometry.connect,
            "first": config.first.value,
            **{colour.value: self._seat(colour) for colour in Colour},
            "start": config.start_grid or config.start_moves,
            "moves": self.moves,
            "result": self.result,
        }

    def _seat(self, colour: Colour) -> dict[str, Any]:
        """A player as the file keeps it: a student's agent as a person, its file's name only a note."""
        player = self.config.player(colour)
        noted = dict(self.students).get(colour)
        if player.spec is not None and runs_a_file(player.spec):
            return {"name": "", "agent": None, "student": student_file(player.spec)}
        seat: dict[str, Any] = {"name": player.name, "agent": player.spec}
        return {**seat, "student": noted} if noted and player.is_human else seat

    @classmethod
    def from_json(cls, data: object) -> SavedGame:
        """A saved game from parsed JSON; raises SaveFileError (only) naming the first problem."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveFileError("not a saved Connect Four game")
        version = data.get("version")
        if type(version) is not int or version != VERSION:
            raise SaveFileError(f"saved by another version of the game (format version {_shown(version)})")
        try:
            geometry = Geometry(_field(data, "cols", int), _field(data, "rows", int), _field(data, "connect", int))
        except EngineError as exc:
            raise SaveFileError(f"bad board size: {exc}") from None
        first = _field(data, "first", str)
        if first not in {colour.value for colour in Colour}:
            raise SaveFileError(f"'first' is {_shown(first)}: expected red or yellow")
        people = {colour: _player(_field(data, colour.value, dict), colour) for colour in Colour}
        students = tuple((colour, file) for colour, (_, _, file) in people.items() if file)
        mode = MatchConfig.mode_of(*(spec is None for _, spec, _ in people.values()))
        players = {colour: player_for(colour, spec, mode, name) for colour, (name, spec, _) in people.items()}
        start, moves = _field(data, "start", str), _field(data, "moves", str)
        try:
            start_moves, start_grid = _start(start, geometry)
            config = MatchConfig(
                players[Colour.RED], players[Colour.YELLOW], geometry, Colour(first), start_moves, start_grid
            )
            _check_moves(config.start_board(), moves)
        except EngineError as exc:
            raise SaveFileError(str(exc)) from None
        date = data.get("date", "")
        return cls(config, moves, date[:100] if isinstance(date, str) else "", students)


def student_file(spec: str) -> str:
    """The name of the file a student's agent spec runs, as plain text (``bot.py``; its folders left out)."""
    found = re.search(r"([^/\\:,=]*\.py)\s*(?=[:,]|$)", spec, re.IGNORECASE)
    text = found[1] if found else spec
    return clean_name(PureWindowsPath(text.strip()).name or text)[:MAX_NOTE] or "a file"


def _player(entry: dict, colour: Colour) -> tuple[str, str | None, str]:
    """``(name, spec, student's file)`` of a seat; a spec that names a file to run becomes a person."""
    name, spec, student = entry.get("name", ""), entry.get("agent"), entry.get("student", "")
    if not isinstance(name, str) or not (spec is None or (isinstance(spec, str) and 0 < len(spec) < 200)):
        raise SaveFileError(f"the {colour.value} player is damaged")
    if not isinstance(student, str):
        raise SaveFileError(f"the {colour.value} player's note is damaged")
    if spec is not None and runs_a_file(spec):
        return "", None, student_file(spec)  # never kept as a spec: a file is data
    spec = None if spec == "human" else spec  # "human": a person too
    return clean_name(name), spec, "" if spec else clean_name(student)[:MAX_NOTE]  # a note is a person's


def _check_moves(board: Board, moves: str) -> None:
    """Raise SaveFileError unless ``moves`` is exactly column digits (nothing else, not even a space),
    each legal in turn from ``board``."""
    if len(moves) > board.geometry.cells:
        raise SaveFileError(f"{len(moves):,} moves: more than the {board.geometry.cells} cells of the board")
    for index, char in enumerate(moves):
        if not ("1" <= char <= "9" and int(char) <= board.geometry.cols):
            expected = f"a column digit from 1 to {board.geometry.cols}"
            raise SaveFileError(f"move {index + 1} is {_shown(char)}: expected {expected}")
        reason = board.legality(int(char) - 1)
        if reason:
            raise SaveFileError(f"move {index + 1} (column {char}) cannot be played: {reason}")
        board.play(int(char) - 1)


def _field(data: dict, key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SaveFileError(f"'{key}' is missing or not a {kind.__name__}")
    return value


def _shown(value: object) -> str:
    """A value from the file as a message shows it: short, whatever it is."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return type(value).__name__
    text = repr(value) if not isinstance(value, int) or -(10**30) < value < 10**30 else "a number too long to show"
    return text if len(text) <= 40 else text[:37] + "…"


def _start(text: str, geometry: Geometry) -> tuple[str, str]:
    """``(start_moves, start_grid)`` of a saved start position, checked against the board size."""
    moves = text.strip()
    if re.fullmatch(r"[0-9]*", moves, re.ASCII):
        board, start = Board(geometry), (moves, "")
        _check_moves(board, moves)
    else:
        board, start = parse_grid(text, geometry.connect), ("", text)
        if (board.geometry.cols, board.geometry.rows) != (geometry.cols, geometry.rows):
            raise SaveFileError(f"the start grid is {board.geometry.cols}×{board.geometry.rows}, the board is not")
    if board.is_over:  # (a game is saved with the position it began at: never a decided one)
        raise SaveFileError("the start position is already decided: nobody could move")
    return start


# -- files ----------------------------------------------------------------------------------------
def games_folder() -> Path:
    """Where saved games live: the per-user data folder (or ``CONNECT_FOUR_GAMES``)."""
    override = os.environ.get(ENV_FOLDER)
    return Path(override) if override else user_folder("data") / "games"


def save(game: SavedGame, folder: Path | None = None) -> Path:
    """Write ``game`` to a new file named after its date and players; raises OSError.

    Written whole under a temporary name, then given a name no file has, in one step that never replaces
    a file: a second instance saving at the same moment takes the next name (``... (2).json``).
    """
    folder = folder or games_folder()
    folder.mkdir(parents=True, exist_ok=True)
    now = datetime.now().astimezone()
    if not game.date:
        game = replace(game, date=now.isoformat(timespec="seconds"))
    players = " vs ".join(game.config.player(colour).name for colour in Colour)
    stem = f"{now:%Y-%m-%d %H-%M-%S} {re.sub(r'[^A-Za-z0-9 ._-]+', '', players)}".strip()[:80]
    payload = (json.dumps(game.to_json(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    descriptor, name = tempfile.mkstemp(prefix=f".{stem}.", suffix=TEMPORARY_SUFFIX, dir=folder)
    temporary = Path(name)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(payload)
            file.flush()
            with contextlib.suppress(OSError):  # some file systems cannot sync; the new name is what matters
                os.fsync(file.fileno())
        for number in range(1, 100_000):
            path = folder / (f"{stem}.json" if number == 1 else f"{stem} ({number}).json")
            if _claim(temporary, path):
                return path
        raise FileExistsError(f"no free name for {stem}.json")
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


def _claim(source: Path, path: Path) -> bool:
    """Give ``source`` the name ``path`` unless a file has it (False then); never replaces one. Raises OSError.

    A hard link is made or refused in one step; without one (FAT, some shares, a folder) the name is
    taken by an exclusive create first, then ``source`` moves onto it."""
    try:
        os.link(source, path, follow_symlinks=False)
        return True
    except FileExistsError:
        return False
    except (OSError, NotImplementedError):
        pass
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except FileExistsError:
        return False
    try:
        os.replace(source, path)
    except OSError:
        path.unlink()  # the name taken for nothing is given back
        raise
    return True


def load(path: Path) -> SavedGame:
    """Read a saved game; raises SaveFileError (with the file's name), and only that, if it cannot be used."""
    try:
        text = read_text_bounded(path, MAX_FILE_BYTES, "saved game")
    except FileNotFoundError:  # also a symbolic link to nothing
        raise SaveFileError(f"{path.name}: cannot read it (the file is gone, or a link to nothing)") from None
    except FileProblem as exc:
        raise SaveFileError(f"{path.name}: {str(exc).removeprefix(f'saved game {path.name}: ')}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"{path.name}: damaged (not JSON: {exc.msg} on line {exc.lineno})") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # a number thousands of digits long, absurd nesting
        why = "nested too deep" if isinstance(exc, RecursionError) else "digits" in str(exc) and "a number too long"
        raise SaveFileError(f"{path.name}: damaged (JSON no saved game holds: {why or type(exc).__name__})") from None
    try:
        return SavedGame.from_json(data)
    except SaveFileError as exc:
        raise SaveFileError(f"{path.name}: {exc}") from None
    except (ValueError, TypeError, LookupError, RecursionError) as exc:  # a check this reader misses: still one line
        raise SaveFileError(f"{path.name}: damaged ({type(exc).__name__})") from None


def saved_games(folder: Path | None = None) -> list[tuple[Path, SavedGame | str]]:
    """Every saved game in the folder, newest first; a file that cannot be read comes with why.

    Whatever the folder holds (a pipe, a device, a link to nothing, a loop of
    links), each entry is listed on its own: one of them never hides the others.
    """
    folder = folder or games_folder()
    try:
        paths = list(folder.glob("*.json"))
    except OSError:
        return []
    entries: list[tuple[Path, SavedGame | str]] = []
    for path in sorted(paths, key=lambda path: (-_modified(path), path.name)):
        try:
            entries.append((path, load(path)))
        except SaveFileError as exc:
            entries.append((path, str(exc)))
    return entries


def _modified(path: Path) -> float:
    """When ``path`` (or, for a link that leads nowhere, the link) last changed; 0 if neither can be asked."""
    for follow in (True, False):
        with contextlib.suppress(OSError, ValueError):
            return os.stat(path, follow_symlinks=follow).st_mtime
    return 0.0


def tidy(folder: Path | None = None) -> None:
    """Remove what killed saves left: stale temporary files (never a save under way), and only the game's
    own (``.DATE TIME PLAYERS.<random>.tmp``, the older ``DATE TIME PLAYERS.tmp``): the folder may be shared."""
    date = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] *.tmp"
    for old in [*(folder or games_folder()).glob(f".{date}"), *(folder or games_folder()).glob(date)]:
        with contextlib.suppress(OSError):
            if stat.S_ISREG((info := old.lstat()).st_mode) and time.time() - info.st_mtime > STALE_SECONDS:
                old.unlink()


#: A deleted game is first renamed ``NAME.json.deleted`` (no longer listed), so that the deletion can be undone.
DELETED = ".deleted"


def delete(path: Path) -> Path:
    """Set a saved game aside, out of the list; returns where it went (for :func:`undelete`). Raises OSError."""
    aside = path.with_name(path.name + DELETED)
    os.replace(path, aside)
    return aside


def undelete(aside: Path) -> Path:
    """Put a game set aside by :func:`delete` back in the list; raises OSError (FileExistsError if a
    file has taken its name meanwhile: it is never replaced)."""
    path = aside.with_name(aside.name.removesuffix(DELETED))
    if not _claim(aside, path):
        raise FileExistsError(f"{path.name} exists again")
    with contextlib.suppress(FileNotFoundError):  # moved, not linked, where there are no hard links
        aside.unlink()
    return path


def purge_deleted(folder: Path | None = None) -> None:
    """Remove for good the games set aside by :func:`delete` (their undo is over)."""
    for aside in (folder or games_folder()).glob(f"*.json{DELETED}"):
        with contextlib.suppress(OSError):
            aside.unlink()
