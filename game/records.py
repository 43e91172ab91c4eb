"""Records per opponent, kept across runs: won, drawn and lost for every pair of players that met, and the
current series (who won the last games in a row), as the Records screen shows them.

A pair is two players as the score knows them (:func:`game.tally.identity`:
a person by name, a computer by its spec); a student's agent is kept by its
file's name only (``["student", "bot.py"]``), so the file never names code to
run. The pair is written in a fixed order (people first, then by name), so a
pair that changed colours keeps its record. Each board keeps its own record
(an 8x8 draw against Perfect says nothing of the 7x6 games); a record written
before boards were told apart has none and is shown as "all sizes".

The file ``records.json`` lives beside the settings. It is untrusted input
like any file the user keeps: read bounded (:func:`engine.files.read_text_bounded`),
checked entry by entry (a damaged entry is left out and said so), and a file
that cannot be read at all is moved aside to ``records.json.bak`` with a
message, never deleted; the game goes on with empty records. Writes go through
:data:`game.autosave.KEEPER` (atomic, off the main thread).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.autosave import KEEPER
from game.model import Colour, plural
from game.settings import default_path

if TYPE_CHECKING:
    from game.players import MatchConfig, Player

NAME = "records.json"
FORMAT = "connect-four records"
MAX_BYTES = 1 << 20
MAX_PAIRS = 500  # the oldest pairs give way beyond this
MAX_COUNT = 1_000_000
KINDS = ("person", "computer", "student")

Identity = tuple[str, str]
#: A board as the records keep it: columns, rows, in a row (None: a record of all sizes, from before).
BoardKey = tuple[int, int, int]


def path_for(settings_path: Path | None) -> Path:
    return (settings_path or default_path()).with_name(NAME)


def identity(player: Player) -> Identity:
    """Who a player is for the records: a person by name, a computer by its spec, a student by file name."""
    if player.spec is None:
        return ("person", player.name)
    from engine.agents.registry import runs_a_file
    from game.saves import student_file

    return ("student", student_file(player.spec)) if runs_a_file(player.spec) else ("computer", player.spec)


def name_of(who: Identity) -> str:
    """How the Records screen names a player: ``Ann``, ``Medium``, ``bot.py (student)``."""
    from game.players import spec_label

    kind, name = who
    return spec_label(name) if kind == "computer" else f"{name} (student)" if kind == "student" else name


@dataclass
class Record:
    """Two players' games against each other: ``wins[i]`` of ``players[i]``, the draws, and the series."""

    players: tuple[Identity, Identity]
    board: BoardKey | None = None
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    series: tuple[int | None, int] = (None, 0)  # (who won the last games: 0, 1, None for draws; how many)
    last: str = ""  # when they last played (ISO 8601)

    @property
    def games(self) -> int:
        return self.wins[0] + self.wins[1] + self.draws

    def series_text(self) -> str:
        """``Ann won the last 3``, ``2 draws in a row``, ``Medium won the last one``, ``Last one drawn``."""
        side, length = self.series
        if length == 0:
            return ""
        if side is None:
            return "Last one drawn" if length == 1 else f"{length} draws in a row"
        return f"{name_of(self.players[side])} won the last {'one' if length == 1 else length}"

    def board_text(self) -> str:
        """``7×6``, ``7×6, 5 in a row``, or ``all sizes`` for a record from before boards were told apart."""
        from engine.geometry import Geometry
        from game.labels import board_name

        return "all sizes" if self.board is None else board_name(Geometry(*self.board))

    def to_json(self) -> dict[str, Any]:
        side, length = self.series
        players = [list(who) for who in self.players]
        board = None if self.board is None else list(self.board)
        return {
            "players": players,
            "board": board,
            "wins": self.wins,
            "draws": self.draws,
            "series": [side, length],
            "last": self.last,
        }

    @classmethod
    def from_json(cls, data: object) -> Record | None:
        """A record as :meth:`to_json` wrote it; None for anything else."""
        if not isinstance(data, dict):
            return None
        players, wins, draws, series = (data.get(key) for key in ("players", "wins", "draws", "series"))
        if not (isinstance(players, list) and len(players) == 2 and all(map(_is_identity, players))):
            return None
        if not (isinstance(wins, list) and len(wins) == 2 and all(map(_is_count, [*wins, draws]))):
            return None
        if not (isinstance(series, list) and len(series) == 2 and series[0] in (0, 1, None) and _is_count(series[1])):
            return None
        if type(series[0]) is bool:
            return None
        board = data.get("board")
        if board is not None and not _is_board(board):
            return None
        last = data.get("last", "")
        pair = (tuple(players[0]), tuple(players[1]))
        kept = None if board is None else (board[0], board[1], board[2])
        return cls(pair, kept, list(wins), draws, (series[0], series[1]), last[:40] if isinstance(last, str) else "")  # type: ignore[arg-type]


def _is_board(value: object) -> bool:
    """A board the engine allows, as ``[columns, rows, in a row]``."""
    from engine.errors import GeometryError
    from engine.geometry import Geometry

    if not (isinstance(value, list) and len(value) == 3 and all(type(number) is int for number in value)):
        return False
    try:
        Geometry(*value)
    except GeometryError:
        return False
    return True


def board_of(config: MatchConfig) -> BoardKey:
    geometry = config.geometry
    return (geometry.cols, geometry.rows, geometry.connect)


def _is_identity(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and value[0] in KINDS
        and isinstance(value[1], str)
        and 0 < len(value[1]) <= 200
    )


def _is_count(value: object) -> bool:
    return type(value) is int and 0 <= value < MAX_COUNT


def pair_of(config: MatchConfig) -> tuple[tuple[Identity, Identity], dict[Colour, int]]:
    """The pair in its fixed order (people, then students, then computers; by name), and each colour's place."""
    who = {colour: identity(config.player(colour)) for colour in Colour}
    ordered = sorted(Colour, key=lambda colour: (KINDS.index(who[colour][0]), who[colour][1].casefold(), colour.value))
    pair = (who[ordered[0]], who[ordered[1]])
    return pair, {colour: ordered.index(colour) for colour in Colour}


class Records:
    """Every pair's record, the most recently played first; :meth:`load` reads them, :meth:`count` adds a game."""

    def __init__(self, path: Path, entries: list[Record] | None = None) -> None:
        self.path = path
        self.entries = entries or []
        self.clearings = 0  # how many times the player cleared them this run (a game counted before stays out)

    @classmethod
    def load(cls, path: Path) -> tuple[Records, str]:
        """The records in ``path`` and a message for the player ("" if all was well)."""
        from engine.files import FileProblem, read_text_bounded

        if not os.path.lexists(path):
            return cls(path), ""
        try:
            data = json.loads(read_text_bounded(path, MAX_BYTES, "records file"))
            if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("records"), list):
                raise ValueError("not a records file")
        except (FileProblem, ValueError, RecursionError, OSError) as exc:
            reason = str(exc).removeprefix(f"records file {path.name}: ") if isinstance(exc, FileProblem) else exc
            kept = path.with_name(path.name + ".bak")
            said = f"Your records could not be read ({reason}): they start afresh"
            try:
                os.replace(path, kept)
            except OSError:
                return cls(path), said + "."
            return cls(path), f"{said}; the file is kept as {kept.name}."
        entries = [Record.from_json(entry) for entry in data["records"][:MAX_PAIRS]]
        good = [entry for entry in entries if entry is not None]
        damaged = len(entries) - len(good)
        verb = "was" if damaged == 1 else "were"
        problem = f"{plural(damaged, 'damaged record')} {verb} left out." if damaged else ""
        return cls(path, good), problem

    def find(self, pair: tuple[Identity, Identity], board: BoardKey) -> Record | None:
        return next((entry for entry in self.entries if entry.players == pair and entry.board == board), None)

    def count(self, config: MatchConfig, winner: Colour | None) -> Record | None:
        """Add a finished game; returns the pair's record on its board as it was before (None: they had
        none), for :meth:`take_back`. Saved in the background."""
        pair, place = pair_of(config)
        record = self.find(pair, board_of(config))
        before = None if record is None else replace(record, wins=list(record.wins))
        if record is None:
            record = Record(pair, board_of(config))
        else:
            self.entries.remove(record)
        side = None if winner is None else place[winner]
        if side is None:
            record.draws += 1
        else:
            record.wins[side] += 1
        record.series = (side, record.series[1] + 1 if record.series[0] == side and record.series[1] else 1)
        record.last = time.strftime("%Y-%m-%dT%H:%M:%S")
        self.entries.insert(0, record)
        del self.entries[MAX_PAIRS:]
        self.save()
        return before

    def take_back(self, config: MatchConfig, before: Record | None) -> None:
        """The last game counted is no longer over (its last move was undone): the record as it was."""
        pair, _ = pair_of(config)
        record = self.find(pair, board_of(config))
        if record is not None:
            self.entries.remove(record)
        if before is not None:
            self.entries.insert(0, before)
        self.save()

    def clear(self) -> None:
        """Forget every pair's record (the player asked, on the Records screen). Saved in the background."""
        self.entries.clear()
        self.clearings += 1
        self.save()

    def save(self) -> None:
        text = json.dumps({"format": FORMAT, "version": 1, "records": [e.to_json() for e in self.entries]}, indent=1)
        KEEPER.write(self.path, text + "\n")


_OPEN: dict[Path, Records] = {}


def records_at(path: Path) -> tuple[Records, str]:
    """The records kept in ``path``, read once per run (the screen and the matches share them)."""
    if path in _OPEN:
        return _OPEN[path], ""
    records, problem = Records.load(path)
    _OPEN[path] = records
    return records, problem


class Counted:
    """The finished game on a match's board, counted once in the score (the tally) and in the records, and
    taken back from both when its last move is undone (then counted again when it ends again)."""

    def __init__(self, tally: Any, settings_path: Path | None, notify: Any, opened_over: bool = False) -> None:
        """``opened_over``: the match opened on a game already over (a saved one), counted when it was played,
        not now; taken back and ended again, it is a game played now, and counts."""
        self.tally, self.settings_path, self.notify = tally, settings_path, notify
        self.counted = opened_over
        self._ours = not opened_over  # (what take_back may subtract)
        self._winner: Colour | None = None
        self._before: Record | None = None  # the pair's record before this game
        self._clearings = 0  # the records' clearings when it was counted

    def count(self, config: MatchConfig, winner: Colour | None) -> bool:
        """Count the game just finished, once; True if it was counted now."""
        if self.counted:
            return False
        self.counted, self._winner = True, winner
        self.tally.record(winner)
        records, problem = records_at(path_for(self.settings_path))
        if problem:
            self.notify(problem, error=True)
        self._before = records.count(config, winner)
        self._clearings = records.clearings
        return True

    def take_back(self, config: MatchConfig) -> None:
        """The counted game is no longer over: it leaves the score and the records."""
        if self.counted and not self._ours:
            self.counted, self._ours = False, True
        elif self.counted:
            self.counted = False
            self.tally.record(self._winner, -1)
            records = records_at(path_for(self.settings_path))[0]
            if records.clearings == self._clearings:  # (cleared since: the game went with the rest)
                records.take_back(config, self._before)


def totals(settings_path: Path | None, config: MatchConfig) -> tuple[int, int, int] | None:
    """All the games of ``config``'s two players on its board kept in the records: (red's wins, yellow's,
    draws), by their colours in ``config``; None before their first. Read from memory once loaded."""
    records, _ = records_at(path_for(settings_path))
    pair, place = pair_of(config)
    record = records.find(pair, board_of(config))
    if record is None:
        return None
    return record.wins[place[Colour.RED]], record.wins[place[Colour.YELLOW]], record.draws
