"""The settings screen (F2 anywhere, or Settings in the menu): sound, look, text size, animation, window.

Every change applies at once to the whole game (the screen below included)
and is saved at once, so there is no Apply button and nothing to lose.
"""

from __future__ import annotations

import pygame

from game import drawing
from game.inputs import Choice
from game.model import AnimationSpeed, Colour, Look
from game.scene import Host
from game.scenes.base import FormScene
from game.theme import DISC, MUTED, Theme
from game.widgets import Button

VOLUMES = tuple(range(10, 101, 10))


class SettingsScene(FormScene):
    name = "settings"
    title = "Settings"
    subtitle = "Changes apply at once and are remembered."

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        s = app.settings
        self.sound = Choice("Sound", [(False, "On"), (True, "Off (M)")], s.muted, self._set("muted"))
        volume = min(VOLUMES, key=lambda v: abs(v - s.volume))
        self.volume = Choice("Volume", [(v, f"{v} %") for v in VOLUMES], volume, self._set("volume"))
        self.look = Choice("Colours", [(look, look.label) for look in Look], s.look, self._set("look"))
        self.shapes = Choice(
            "Disc shapes", [(False, "Colour only"), (True, "Cross and ring")], s.colour_blind, self._set("colour_blind")
        )
        text_sizes = [(percent, f"{percent} %") for percent in Theme.TEXT_SCALES]
        text_scale = min(Theme.TEXT_SCALES, key=lambda v: abs(v - s.text_scale))
        self.text = Choice("Text size", text_sizes, text_scale, self._set("text_scale"))
        speeds = [(speed, speed.value.capitalize()) for speed in AnimationSpeed]
        self.animation = Choice("Animation", speeds, s.animation, self._set("animation"))
        self.window = Choice(
            "Window", [(False, "Window"), (True, "Full screen (F11)")], app.fullscreen, self._set_fullscreen
        )
        self.back = Button("Back", self.dismiss, primary=True)
        self.choices = [self.sound, self.volume, self.look, self.shapes, self.text, self.animation, self.window]
        self.form.set_widgets([*self.choices, self.back])

    def _set(self, name: str):
        def change(value) -> None:
            setattr(self.app.settings, name, value)
            self.app.settings_changed()

        return change

    def _set_fullscreen(self, fullscreen: bool) -> None:
        if fullscreen != self.app.fullscreen:
            self.app.toggle_fullscreen()

    def update(self, dt: float) -> None:
        """M and F11 work here too: show what they changed."""
        self.sound.index = int(self.app.settings.muted)
        self.window.index = int(self.app.fullscreen)

    def resize(self, size: tuple[int, int]) -> None:
        theme, px = self.theme, self.theme.px
        self.area = area = self.content(size)
        self.button_row([self.back], area)
        row = max(px(44), theme.font_px(16) + px(16))
        gap = max(px(6), (self.back.rect.top - area.y - px(16) - len(self.choices) * row) // len(self.choices))
        gap = min(gap, px(14))
        width = min(area.width, px(640) + round(px(160) * (theme.text_scale - 1)))
        y = area.y
        for choice in self.choices:
            choice.rect = pygame.Rect(area.x, y, width, row)
            y += row + gap
        self.preview = pygame.Rect(area.x + width + px(24), area.y, area.right - width - px(24) - area.x, row * 2)

    def draw_content(self, surface: pygame.Surface) -> None:
        """Two discs as they look now, where there is room beside the controls."""
        theme, px, box = self.theme, self.theme.px, self.preview
        radius = min(px(36), box.width // 5)
        if radius < px(14):
            return
        for index, colour in enumerate(Colour):
            image = drawing.disc(DISC[colour], radius)
            surface.blit(image, image.get_rect(center=(box.centerx + (2 * index - 1) * radius * 1.2, box.centery)))
        theme.draw_text(surface, "Preview", 14, (box.centerx, box.centery + radius + px(8)), MUTED, anchor="midtop")
