"""Messages over every screen (a settings problem, a failed save, "Copied 4453"), the newest lowest.

They stand above what the screen keeps free (its buttons, see
:meth:`~game.scene.Scene.toast_floor`) and go after a few seconds.
"""

from __future__ import annotations

import pygame

from game import drawing
from game.theme import DANGER, PANEL_LIGHT, TEXT, Theme


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

    def layout(
        self, theme: Theme, size: tuple[int, int], floor: int
    ) -> list[tuple[Toast, pygame.Surface, pygame.Rect]]:
        """The newest message lowest, above ``floor`` (the top of the screen's buttons), older ones above it."""
        width, height = size
        y = min(height - theme.px(18), floor - theme.px(8))
        placed = []
        for toast in reversed(self.shown):
            text = theme.text(toast.text, 15, TEXT, wrap=min(width - theme.px(80), theme.px(760)))
            rect = text.get_rect().inflate(theme.px(36), theme.px(20))
            rect.midbottom = (width // 2, y)
            placed.append((toast, text, rect))
            y = rect.top - theme.px(8)
        return placed

    def draw(self, surface: pygame.Surface, theme: Theme, floor: int) -> None:
        for toast, text, rect in self.layout(theme, surface.get_size(), floor):
            drawing.panel(surface, rect, theme.px(10), PANEL_LIGHT, DANGER if toast.error else None, 2)
            surface.blit(text, text.get_rect(center=rect.center))
