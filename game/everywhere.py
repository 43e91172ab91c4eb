"""The keys that work on every screen - F1 or ? the shortcuts, F2 the settings, M the sound, F11 full
screen - and what they do (their table is :data:`game.bindings.GLOBAL`).

The app gives each key press to :meth:`EveryScreen.handle` before the
screen on top; a key that is not for every screen now (a letter typed into a
text field, F1 over the shortcuts card, which closes on it) goes on to the
screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.bindings import CTRL, GLOBAL
from game.inputs import TextField

if TYPE_CHECKING:
    from game.scene import Host


class EveryScreen:
    """The keys of every screen of ``app``."""

    def __init__(self, app: Host) -> None:
        self.app = app

    def handle(self, event: pygame.event.Event) -> bool:
        """True if the key was one of these (and was used)."""
        return GLOBAL.dispatch(self, event)

    # -- what the keys do ----------------------------------------------------------------------
    def show_shortcuts(self) -> None:
        self.app.open("shortcuts")

    def show_settings(self) -> None:
        self.app.open("settings")

    def toggle_mute(self) -> None:
        app = self.app
        app.set_muted(not app.settings.muted)
        app.notify("Sound off (M turns it on)" if app.settings.muted else "Sound on", seconds=1.5)

    def toggle_fullscreen(self) -> None:
        self.app.toggle_fullscreen()

    # -- when they are for every screen ------------------------------------------------------------
    def shortcuts_closed(self, event: pygame.event.Event) -> bool:
        """The shortcuts card is not up (it closes on its keys itself)."""
        return self.app.scene.name != "shortcuts"

    def settings_closed(self, event: pygame.event.Event) -> bool:
        return self.shortcuts_closed(event) and self.app.scene.name != "settings"

    def not_typing(self, event: pygame.event.Event) -> bool:
        """No text field has the keyboard: a letter is a command."""
        typing = isinstance(getattr(getattr(self.app.scene, "form", None), "focused", None), TextField)
        return self.shortcuts_closed(event) and not typing

    def not_typing_a_command(self, event: pygame.event.Event) -> bool:
        return self.not_typing(event) and not event.mod & CTRL
