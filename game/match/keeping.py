"""The unfinished game of a match, kept on disk after every change for the menu's Resume.

Two computers' games are not kept. The file (:mod:`game.autosave`) holds one game: the first move
of a new game sets an earlier unfinished one aside to the saved games, once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game import autosave
from game.model import Mode

if TYPE_CHECKING:
    from game.match.services import Services
    from game.match_model import MatchModel
    from game.players import MatchConfig


class KeptGame:
    """Whether this match's game is on disk, and keeping it so."""

    def __init__(self, services: Services, config: MatchConfig) -> None:
        self.services = services
        self._path = autosave.path_for(services.settings_path) if config.mode is not Mode.SPECTATOR else None
        self.kept = autosave.holds(self._path, config)  # the file holds this match's game (resumed)

    def keep(self, config: MatchConfig, model: MatchModel) -> str | None:
        """The game as it is now, kept (or no longer, once over); what went wrong, if the match should say it."""
        new = not self.kept and model.played_moves and not model.board.is_over
        if self._path is not None and new and not autosave.set_aside(self._path, self.services.notify):
            self._path = None  # (once a game: an earlier game that could not be set aside is not written over)
        self.kept = autosave.keep(self._path, config, model.played_moves, model.board.is_over, self.kept)
        return autosave.KEEPER.problem if autosave.KEEPER.problem and self.kept else None

    def close(self) -> None:
        """The match closes: a game kept is said so (after it and the records reached the disk)."""
        autosave.say_kept(self.kept, self.services.notify)
