"""Saved games and shared positions: small JSON files in the user's data folder, and pasted text.

A saved game is one JSON file (the format is described in ``docs/saved-games.md``)::

    {"format": "connect-four game", "version": 1, "date": "2026-11-22T23:40:05+00:00",
     "cols": 7, "rows": 6, "connect": 4, "first": "red",
     "red": {"name": "Ann", "agent": null}, "yellow": {"name": "Computer", "agent": "hard"},
     "start": "", "moves": "4453", "result": "unfinished"}

``start`` is the position the game began from (a move string, or a text grid
of seed 004), ``moves`` the moves played from there. ``result`` is written for
people reading the file; the reader works it out again from the moves. Every
field is checked when a file is read, and anything wrong raises
:class:`SaveFileError` with one sentence that says what: a damaged file never
stops the game. Writing is atomic (a temporary file, then a rename).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.board import Board, Side
from engine.errors import EngineError
from engine.formats import format_grid, parse_grid, parse_moves
from engine.geometry import DEFAULT, Geometry
from game.players import MatchConfig, clean_name, player_for
from game.settings import Colour, user_folder

FORMAT = "connect-four game"
VERSION = 1
ENV_FOLDER = "CONNECT_FOUR_GAMES"
MAX_FILE_BYTES = 100_000  # a saved game is well under 1 KB; anything this large is not one


class SaveFileError(ValueError):
    """A saved game or a pasted position that cannot be used; the message says why."""


@dataclass(frozen=True)
class SavedGame:
    """A match (players, board, start position) and the moves played in it."""

    config: MatchConfig
    moves: str
    date: str = ""

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
            **{colour.value: {"name": p.name, "agent": p.spec} for colour in Colour for p in [config.player(colour)]},
            "start": config.start_grid or config.start_moves,
            "moves": self.moves,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: object) -> SavedGame:
        """A saved game from parsed JSON; raises SaveFileError naming the first problem."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveFileError("not a saved Connect Four game")
        if data.get("version") != VERSION:
            raise SaveFileError(f"saved by another version of the game (format version {data.get('version')!r})")
        try:
            geometry = Geometry(_field(data, "cols", int), _field(data, "rows", int), _field(data, "connect", int))
        except EngineError as exc:
            raise SaveFileError(f"bad board size: {exc}") from None
        first = _field(data, "first", str)
        if first not in {colour.value for colour in Colour}:
            raise SaveFileError(f"'first' is {first!r}: expected red or yellow")
        people = {}
        for colour in Colour:
            entry = _field(data, colour.value, dict)
            name, spec = entry.get("name", ""), entry.get("agent")
            if not isinstance(name, str) or not (spec is None or (isinstance(spec, str) and 0 < len(spec) < 200)):
                raise SaveFileError(f"the {colour.value} player is damaged")
            people[colour] = (clean_name(name), None if spec == "human" else spec)  # "human": a person too
        mode = MatchConfig.mode_of(*(spec is None for _, spec in people.values()))
        players = {colour: player_for(colour, spec, mode, name) for colour, (name, spec) in people.items()}
        start, moves = _field(data, "start", str), _field(data, "moves", str)
        try:
            start_moves, start_grid = _start(start, geometry)
            config = MatchConfig(
                players[Colour.RED], players[Colour.YELLOW], geometry, Colour(first), start_moves, start_grid
            )
            board = config.start_board()
            for index, col in enumerate(parse_moves(moves, geometry)):
                reason = board.legality(col)
                if reason:
                    raise SaveFileError(f"move {index + 1} (column {col + 1}) cannot be played: {reason}")
                board.play(col)
        except EngineError as exc:
            raise SaveFileError(str(exc)) from None
        date = data.get("date", "")
        return cls(config, moves, date if isinstance(date, str) else "")


def _field(data: dict, key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SaveFileError(f"'{key}' is missing or not a {kind.__name__}")
    return value


def _start(text: str, geometry: Geometry) -> tuple[str, str]:
    """``(start_moves, start_grid)`` of a saved start position, checked against the board size."""
    if not text.strip() or text.strip().isdigit():
        Board.from_moves(text.strip(), geometry)
        return text.strip(), ""
    board = parse_grid(text, geometry.connect)
    if (board.geometry.cols, board.geometry.rows) != (geometry.cols, geometry.rows):
        raise SaveFileError(f"the start grid is {board.geometry.cols}×{board.geometry.rows}, the board is not")
    return "", text


# -- files ----------------------------------------------------------------------------------------
def games_folder() -> Path:
    """Where saved games live: the per-user data folder (or ``CONNECT_FOUR_GAMES``)."""
    override = os.environ.get(ENV_FOLDER)
    return Path(override) if override else user_folder("data") / "games"


def save(game: SavedGame, folder: Path | None = None) -> Path:
    """Write ``game`` to a new file named after its date and players; raises OSError."""
    folder = folder or games_folder()
    folder.mkdir(parents=True, exist_ok=True)
    now = datetime.now().astimezone()
    if not game.date:
        game = replace(game, date=now.isoformat(timespec="seconds"))
    players = " vs ".join(game.config.player(colour).name for colour in Colour)
    stem = f"{now:%Y-%m-%d %H-%M-%S} {re.sub(r'[^A-Za-z0-9 ._-]+', '', players)}".strip()[:80]
    path, number = folder / f"{stem}.json", 2
    while path.exists():
        path, number = folder / f"{stem} ({number}).json", number + 1
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(game.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(temporary, path)
    return path


def load(path: Path) -> SavedGame:
    """Read a saved game; raises SaveFileError (with the file's name) if it cannot be used."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise SaveFileError("too large to be a saved game")
        data = json.loads(path.read_text(encoding="utf-8"))
        return SavedGame.from_json(data)
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"{path.name}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"{path.name}: damaged (not JSON: {exc.msg} on line {exc.lineno})") from None
    except SaveFileError as exc:
        raise SaveFileError(f"{path.name}: {exc}") from None


def saved_games(folder: Path | None = None) -> list[tuple[Path, SavedGame | str]]:
    """Every saved game in the folder, newest first; a file that cannot be read comes with why."""
    folder = folder or games_folder()
    try:
        paths = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    entries: list[tuple[Path, SavedGame | str]] = []
    for path in paths:
        try:
            entries.append((path, load(path)))
        except SaveFileError as exc:
            entries.append((path, str(exc)))
    return entries


#: A deleted game is first renamed ``NAME.json.deleted`` (no longer listed), so that the deletion can be undone.
DELETED = ".deleted"


def delete(path: Path) -> Path:
    """Set a saved game aside, out of the list; returns where it went (for :func:`undelete`). Raises OSError."""
    aside = path.with_name(path.name + DELETED)
    os.replace(path, aside)
    return aside


def undelete(aside: Path) -> Path:
    """Put a game set aside by :func:`delete` back in the list; raises OSError."""
    path = aside.with_name(aside.name.removesuffix(DELETED))
    if path.exists():
        raise FileExistsError(f"{path.name} exists again")
    os.replace(aside, path)
    return path


def purge_deleted(folder: Path | None = None) -> None:
    """Remove for good the games set aside by :func:`delete` (their undo is over)."""
    for aside in (folder or games_folder()).glob(f"*.json{DELETED}"):
        with contextlib.suppress(OSError):
            aside.unlink()


# -- positions shared as text ------------------------------------------------------------------------
def position_text(board: Board) -> str:
    """The position as text to share: its move string, or a text grid when the game began from a grid."""
    return board.move_string if board.move_string is not None else format_grid(board)


def pasted_position(text: str, config: MatchConfig) -> MatchConfig:
    """``config`` starting from a pasted move string or text grid; raises SaveFileError if it is not legal.

    A move string is read on the current board size; a grid brings its own size
    (keeping the current connect-N when it fits, else four in a row).
    """
    text = text.strip()
    if not text:
        raise SaveFileError("the clipboard is empty: copy a move string such as 4453 or a grid of - X O")
    try:
        if text.isdigit():
            geometry, moves, grid = config.geometry, text, ""
            board = Board.from_moves(moves, geometry)
        else:
            board = parse_grid(text, min(config.geometry.connect, _largest_connect(text)))
            geometry, moves, grid = board.geometry, board.move_string or "", "" if board.ply == 0 else text
    except EngineError as exc:
        raise SaveFileError(f"not a position: {exc}") from None
    if board.is_over:
        raise SaveFileError("that position is already decided: nobody could move")
    return replace(config, geometry=geometry, start_moves=moves, start_grid=grid, replay="")


def _largest_connect(grid: str) -> int:
    """The largest connect-N a grid's board allows (so a 4x4 grid opens with a current connect of 5)."""
    rows = [line for line in grid.splitlines() if line.strip() and not line.strip().startswith("#")]
    cols = len([char for char in rows[0] if char not in " |\t"]) if rows else DEFAULT.connect
    return max(3, min(6, cols, len(rows)))
