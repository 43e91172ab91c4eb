"""Sharing a match: the position to the clipboard, a pasted position to play from, the game to a file.

Used by the match screen and by the result banner over it. A problem is said
where the player looks: in the match's headline, or as a message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.players import sentence
from game.widgets import paste_text

if TYPE_CHECKING:
    from game.match.turns import TurnController
    from game.scene import Host


def copy_position(app: Host, turns: TurnController) -> None:
    """Ctrl+C: the position as a move string (a grid if the game began from one) on the clipboard."""
    from game.pasting import position_text

    text = position_text(turns.model.board)
    try:
        pygame.scrap.put_text(text)
    except pygame.error as exc:
        turns.say(f"Could not copy: {exc}")
        return
    shown = text if "\n" not in text else "the position as a grid"
    app.notify(f"Copied {shown or 'the empty board'}", seconds=2.5)


def paste_position(app: Host, turns: TurnController) -> bool:
    """Ctrl+V: start again from a pasted move string or text grid, with the same players; False if the
    text is not a position to play from (a message says why)."""
    from game.pasting import pasted_position
    from game.saves import SaveFileError

    try:
        shared = pasted_position(paste_text(), turns.config)
    except SaveFileError as exc:
        app.notify(sentence(str(exc)), error=True)  # a toast: the whole sentence, over any banner
        return False
    turns.spectator.series = None
    turns.restart(shared.config)
    turns.hint_text = " ".join(filter(None, ("Started from the pasted position", shared.note)))
    return True


def save_game(app: Host, turns: TurnController) -> None:
    """Ctrl+S: the game so far, to a new file in the saved-games folder."""
    from game import saves

    game = saves.SavedGame(turns.config, turns.model.played_moves)
    try:
        path = saves.save(game)
    except OSError as exc:
        turns.say(f"Could not save the game: {exc.strerror or exc}")
        return
    app.notify(f"Saved as {path.name} in {path.parent}", seconds=4.0)
