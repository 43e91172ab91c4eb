"""How the game was started: the command line's choices (see :mod:`game.launch`), read by the app and its screens."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.players import MatchConfig
    from game.settings import Settings


@dataclass
class Options:
    """How the game was started (see :mod:`game.launch`)."""

    match: MatchConfig | None = None  # go straight to this match
    cols: int | None = None
    rows: int | None = None
    connect: int | None = None
    moves: str = ""
    exit_after_game: bool = False
    analysis: bool = False  # the analysis panel on from the start, for this run only
    frame_stats: bool = False
    frame_log: Path | None = None
    screenshot: Path | None = None
    quit_after_first_frame: bool = False
    notes: tuple[str, ...] = ()  # shown when the window opens (a saved game's student seat became a person)

    def apply(self, settings: Settings) -> None:
        """The command line's board over the saved one, and ``--analysis``: for this run only (the app keeps
        the file's own choice when it saves, see ``App.close``)."""
        for name in ("cols", "rows", "connect"):
            if getattr(self, name) is not None:
                setattr(settings, name, getattr(self, name))
        settings.show_analysis |= self.analysis
