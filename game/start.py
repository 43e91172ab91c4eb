"""Starting a match: from the set-up choices (or a pasted position), or from a saved game.

The menu, the set-up screens and the saved games all start matches; they do
it through these functions, which open the match screen by name. The engine
is imported when a match starts, so that the menu's first frame waits for none of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from game.model import Mode
from game.players import config_from_settings, sentence

if TYPE_CHECKING:
    from game.saves import SavedGame
    from game.scene import Host


def start_match(app: Host, pasted: str | None = None) -> str | None:
    """Start a match as the settings describe; returns why it cannot start, if so.

    ``pasted``: the text of a pasted position (a move string or a text grid) to start from instead.
    """
    from engine.board import Board  # here: the menu's first frame waits for no engine
    from engine.errors import EngineError
    from game.pasting import pasted_position
    from game.saves import SaveFileError

    if app.settings.mode is not Mode.HOTSEAT and not app.catalog.ready:
        return "The engine is still loading; try again in a moment."
    note = ""
    try:
        config = config_from_settings(app.settings, app.catalog.resolve, app.options.moves)
        if pasted is not None:
            shared = pasted_position(pasted, config)
            config, note = shared.config, shared.note
        if pasted is None and Board.from_moves(config.start_moves, config.geometry).is_over:
            return f"The game is already over after the moves {config.start_moves}."
    except SaveFileError as exc:
        return sentence(str(exc))
    except EngineError as exc:
        return str(exc)
    app.save_settings()
    specs = [player.spec for player in (config.red, config.yellow) if player.spec]
    app.catalog.warm(specs, config.geometry)
    app.open("match", config)
    if note:  # a move string that does not fit the board in use: say which one it opened on
        app.notify(f"The pasted game starts {note}.", seconds=6.0)
    return None


_sandbox_said = False


def say_sandbox(app: Host, specs: list[str]) -> None:
    """The first time a match would run a student's file, tell the player what its sandbox holds on this
    machine (the whole warning where it is missing something; finding it out takes a moment, once)."""
    global _sandbox_said
    from engine.agents.registry import runs_a_file

    students = [spec for spec in specs if runs_a_file(spec)]
    if students and not _sandbox_said:
        _sandbox_said = True
        from engine.agents.classroom import trust_note
        from game.saves import student_file

        app.notify(f"{student_file(students[0])}: {trust_note()}", seconds=10.0)  # a file's name keeps its case


def open_game(app: Host, game: SavedGame) -> str | None:
    """Open a saved game on the match screen; returns why it cannot be opened, if so."""
    config = game.config
    computers = [player.spec for player in (config.red, config.yellow) if player.spec]
    if computers and not app.catalog.ready:
        return "The engine is still loading; try again in a moment."
    for spec in computers:
        problem = app.catalog.check(spec)
        if problem:
            return f"This game's player {spec!r} is not available: {problem}"
    app.catalog.warm(computers, config.geometry)
    app.open("match", replace(config, replay=game.moves))
    for note in game.notes:  # a student's agent opens as a person: say so
        app.notify(note, seconds=8.0)
    return None
