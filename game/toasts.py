"""Messages over every screen (a settings problem, a failed save, "Copied 4453"), the newest lowest.

They stand in the part of the window the screen lets them cover (see
:meth:`~game.scene.Scene.toast_area`: never its buttons, nor the match's
board and move list) and go after a few seconds. A message already on screen
is not shown twice (pressing Ctrl+C four times says "Copied" once), and at
most :data:`MAX_SHOWN` stand at once, the oldest giving way.
"""

from __future__ import annotations

import pygame

from game import drawing
from game.theme import DANGER, PANEL_LIGHT, TEXT, Theme

#: The most messages on screen at once (a burst of them would hide what they are about).
MAX_SHOWN = 3


class Toast:
    """A short message over every screen (a settings problem, a failed save)."""

    def __init__(self, text: str, error: bool, seconds: float) -> None:
        self.text, self.error, self.remaining = text, error, seconds


#: A message, its text as drawn, and where.
Placed = tuple[Toast, pygame.Surface, pygame.Rect]


class Toasts:
    """The messages on screen now."""

    def __init__(self) -> None:
        self.shown: list[Toast] = []

    def add(self, text: str, error: bool, seconds: float) -> None:
        """Show ``text`` (the same message already on screen moves down, its time starting again)."""
        self.shown = [toast for toast in self.shown if toast.text != text][1 - MAX_SHOWN :]
        self.shown.append(Toast(text, error, seconds))

    def merged(self, lead: str, items: list[str]) -> str:
        """The message ``lead`` + ``items`` ("... reset: look, cols."); a message with the same lead still on
        screen goes, its items taken in, so that one problem stays one message."""
        earlier = next((toast for toast in self.shown if toast.text.startswith(lead)), None)
        if earlier is not None:
            self.shown.remove(earlier)
            items = earlier.text.removeprefix(lead).removesuffix(".").split(", ") + items
        return f"{lead}{', '.join(items)}."

    @property
    def texts(self) -> list[str]:
        return [toast.text for toast in self.shown]

    def tick(self, seconds: float) -> None:
        for toast in self.shown:
            toast.remaining -= seconds

    def expire(self) -> bool:
        """Take away the messages whose time is over; True if any went."""
        if not any(toast.remaining <= 0 for toast in self.shown):
            return False
        self.shown = [toast for toast in self.shown if toast.remaining > 0]
        return True

    def layout(self, theme: Theme, area: pygame.Rect) -> list[Placed]:
        """The newest message lowest in ``area`` (what the screen lets them cover), older ones above it
        while they fit there."""
        wrap = max(theme.px(60), min(area.width - theme.px(36), theme.px(760)))
        y = area.bottom - theme.px(8)
        placed: list[Placed] = []
        for toast in reversed(self.shown):
            text = theme.text(toast.text, 15, TEXT, wrap=wrap)
            rect = text.get_rect().inflate(theme.px(36), theme.px(20))
            rect.midbottom = (area.centerx, y)
            if rect.top < area.top and placed:
                break  # no room: older messages wait for the newer ones to go
            rect.top = max(rect.top, area.top)  # the newest shows whole even where it overflows the area
            placed.append((toast, text, rect))
            y = rect.top - theme.px(8)
        return placed

    def draw(self, surface: pygame.Surface, theme: Theme, area: pygame.Rect) -> None:
        for toast, text, rect in self.layout(theme, area):
            drawing.panel(surface, rect, theme.px(10), PANEL_LIGHT, DANGER if toast.error else None, 2)
            surface.blit(text, text.get_rect(center=rect.center))
