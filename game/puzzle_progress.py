"""The player's puzzles, kept across runs beside the records: what was solved, a puzzle rating, "My puzzles".

The file ``puzzles.json`` lives beside the settings, like ``records.json``,
and is treated like it: read bounded and checked entry by entry (a damaged
entry is left out and said so), a file that cannot be read at all is moved
aside to ``puzzles.json.bak`` with a message (never deleted; the player
starts afresh), and writes go through :data:`game.autosave.KEEPER` (atomic,
off the main thread). "My puzzles" (a reviewed game's mistakes, see
:mod:`engine.puzzles.mistakes`) are kept as the puzzles' own JSON and checked
by :func:`engine.puzzles.puzzle.from_json` when read back.

**The rating** is Elo's: every puzzle has a rating by its band
(:data:`BAND_RATINGS`), the player starts at :data:`START_RATING`, and a
puzzle solved at the first try without a hint counts as a win, anything
else as a loss (``K`` = :data:`K_FACTOR`). Only a puzzle's first attempt
counts, so trying one again cannot farm points.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.autosave import KEEPER
from game.model import plural
from game.settings import default_path

if TYPE_CHECKING:
    from engine.puzzles.puzzle import Puzzle

NAME = "puzzles.json"
FORMAT = "connect-four puzzle progress"
MAX_BYTES = 2 << 20
MAX_MINE = 300  # "My puzzles" kept at most (the oldest give way)
MAX_SOLVED = 100_000
START_RATING = 1000.0
K_FACTOR = 32.0
BAND_RATINGS = {1: 700.0, 2: 1000.0, 3: 1300.0, 4: 1600.0, 5: 1900.0}
MIN_RATING, MAX_RATING = 100.0, 3500.0


def path_for(settings_path: Path | None) -> Path:
    return (settings_path or default_path()).with_name(NAME)


def expected(player: float, puzzle: float) -> float:
    """Elo's expected score of the player against the puzzle."""
    return 1.0 / (1.0 + 10.0 ** ((puzzle - player) / 400.0))


@dataclass
class Attempt:
    """How the first attempt at a puzzle went, and whether it was solved since."""

    first_try: bool  # solved at the first try, without a hint
    solved: bool
    when: str = ""

    def to_json(self) -> list[Any]:
        return [self.first_try, self.solved, self.when]

    @classmethod
    def from_json(cls, data: object) -> Attempt | None:
        if not (isinstance(data, list) and len(data) == 3 and all(type(flag) is bool for flag in data[:2])):
            return None
        when = data[2] if isinstance(data[2], str) else ""
        return cls(data[0], data[1], when[:40])


@dataclass
class Progress:
    """What the player did with the puzzles; :meth:`load` reads it, :meth:`finish` adds an attempt."""

    path: Path
    rating: float = START_RATING
    attempts: dict[str, Attempt] = field(default_factory=dict)
    mine: list[Puzzle] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> tuple[Progress, str]:
        """The progress in ``path`` and a message for the player ("" if all was well)."""
        from engine.files import FileProblem, read_text_bounded

        if not os.path.lexists(path):
            return cls(path), ""
        try:
            data = json.loads(read_text_bounded(path, MAX_BYTES, "puzzle progress file"))
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError("not a puzzle progress file")
        except (FileProblem, ValueError, RecursionError, OSError) as exc:
            reason = str(exc).removeprefix(f"puzzle progress file {path.name}: ")
            said = f"Your puzzle progress could not be read ({reason}): it starts afresh"
            kept = path.with_name(path.name + ".bak")
            try:
                os.replace(path, kept)
            except OSError:
                return cls(path), said + "."
            return cls(path), f"{said}; the file is kept as {kept.name}."
        progress, damaged = cls._entries(path, data)
        verb = "was" if damaged == 1 else "were"
        return progress, f"{plural(damaged, 'damaged puzzle entry')} {verb} left out." if damaged else ""

    @classmethod
    def _entries(cls, path: Path, data: dict[str, Any]) -> tuple[Progress, int]:
        from engine.puzzles.puzzle import PuzzleError, from_json

        damaged = 0
        rating = data.get("rating")
        if isinstance(rating, bool) or not isinstance(rating, int | float) or not MIN_RATING <= rating <= MAX_RATING:
            rating, damaged = START_RATING, damaged + 1
        attempts: dict[str, Attempt] = {}
        raw = data.get("attempts")
        for key, value in list(raw.items())[:MAX_SOLVED] if isinstance(raw, dict) else []:
            attempt = Attempt.from_json(value)
            if attempt is None or not isinstance(key, str) or len(key) > 40:
                damaged += 1
            else:
                attempts[key] = attempt
        mine = []
        for entry in data.get("mine", [])[:MAX_MINE] if isinstance(data.get("mine"), list) else []:
            try:
                mine.append(from_json(entry))
            except PuzzleError:
                damaged += 1
        return cls(path, float(rating), attempts, mine), damaged

    # -- changes (each saved in the background) -------------------------------------------------
    def finish(self, puzzle: Puzzle, first_try: bool, solved: bool) -> float:
        """An attempt at ``puzzle`` ended; returns the rating's change (0 after its first attempt)."""
        known = self.attempts.get(puzzle.id)
        change = 0.0
        if known is None:
            score = 1.0 if first_try and solved else 0.0
            change = K_FACTOR * (score - expected(self.rating, BAND_RATINGS[puzzle.band]))
            self.rating = min(MAX_RATING, max(MIN_RATING, self.rating + change))
            self.attempts[puzzle.id] = Attempt(first_try and solved, solved, time.strftime("%Y-%m-%dT%H:%M:%S"))
        elif solved and not known.solved:
            known.solved = True
        self.save()
        return change

    def add_mine(self, puzzles: list[Puzzle]) -> int:
        """Add puzzles made from a game's mistakes (the newest first; each position once); how many are new."""
        known = {puzzle.id for puzzle in self.mine}
        new = [puzzle for puzzle in puzzles if puzzle.id not in known]
        if new:
            self.mine[:0] = new
            del self.mine[MAX_MINE:]
            self.save()
        return len(new)

    def solved(self, ids: list[str]) -> int:
        return sum(1 for ident in ids if ident in self.attempts and self.attempts[ident].solved)

    def save(self) -> None:
        data = {
            "format": FORMAT,
            "version": 1,
            "rating": round(self.rating, 1),
            "attempts": {key: attempt.to_json() for key, attempt in self.attempts.items()},
            "mine": [puzzle.to_json() for puzzle in self.mine],
        }
        KEEPER.write(self.path, json.dumps(data, separators=(",", ":")) + "\n")


_OPEN: dict[Path, Progress] = {}


def progress_at(path: Path) -> tuple[Progress, str]:
    """The progress kept in ``path``, read once per run (the screens share it)."""
    if path in _OPEN:
        return _OPEN[path], ""
    progress, problem = Progress.load(path)
    _OPEN[path] = progress
    return progress, problem
