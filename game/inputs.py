"""The controls a player sets: a choice among a few values, a number, a line of text, a card to pick.

Each is a :class:`~game.widgets.Widget` (see there for the form that holds
them): it handles its keys and clicks, draws itself and reports a change
through its callback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from game import drawing
from game.theme import ACCENT, ACCENT_DARK, DANGER, FAINT, MUTED, ON_ACCENT, PANEL, PANEL_LIGHT, TEXT, Theme
from game.widgets import ACTIVATE_KEYS, Labelled, Widget, format_number, label_size, next_step, paste_text


class Choice(Labelled):
    """One value out of a few, shown as segments (or ‹ value › when there are many)."""

    def __init__(
        self,
        label: str,
        options: Sequence[tuple[Any, str]],
        value: Any,
        on_change: Callable[[Any], Any],
        *,
        help: str = "",
    ) -> None:
        super().__init__()
        self.label, self.options, self.on_change, self.help = label, list(options), on_change, help
        values = [option[0] for option in self.options]
        self.index = values.index(value) if value in values else 0

    @property
    def value(self) -> Any:
        return self.options[self.index][0]

    @property
    def segmented(self) -> bool:
        return len(self.options) <= 4

    def set_index(self, index: int) -> None:
        index = index % len(self.options) if not self.segmented else max(0, min(len(self.options) - 1, index))
        if index != self.index:
            self.index = index
            self.on_change(self.value)

    def key(self, event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        if event.key == pygame.K_LEFT:
            self.set_index(self.index - 1)
            return True
        if event.key == pygame.K_RIGHT:
            self.set_index(self.index + 1)
            return True
        if event.key in ACTIVATE_KEYS:
            self.set_index((self.index + 1) % len(self.options))
            return True
        return False

    def _shows_segments(self, theme: Theme, control: pygame.Rect) -> bool:
        """Segments when there are few choices and every one's words fit in its segment, else ‹ value ›."""
        room = control.width / len(self.options) - theme.px(10)
        return self.segmented and all(theme.font(15, True).size(text)[0] <= room for _, text in self.options)

    def _segments(self, control: pygame.Rect) -> list[pygame.Rect]:
        width = control.width / len(self.options)
        return [
            pygame.Rect(round(control.x + i * width), control.y, round(width), control.height)
            for i in range(len(self.options))
        ]

    def click(self, pos, theme) -> None:
        control = self.control_rect(theme)
        if not control.collidepoint(pos):
            return  # a click on the label only takes the focus
        if self._shows_segments(theme, control):
            for index, rect in enumerate(self._segments(control)):
                if rect.collidepoint(pos):
                    self.set_index(index)
        else:
            self.set_index(self.index + (1 if pos[0] >= control.centerx else -1))

    def draw(self, surface, theme, focused, hovered) -> None:
        self.draw_label(surface, theme)
        control = self.control_rect(theme)
        radius = theme.px(8)
        drawing.panel(
            surface, control, radius, PANEL, drawing.border_colour(focused, hovered), 2 if focused else 1, raised=False
        )
        if self._shows_segments(theme, control):
            for index, rect in enumerate(self._segments(control)):
                selected = index == self.index
                if selected:
                    pygame.draw.rect(
                        surface, ACCENT_DARK if not focused else ACCENT, rect.inflate(-6, -6), border_radius=radius - 2
                    )
                text = theme.fit_text(self.options[index][1], 15, rect.width - theme.px(10), bold=selected)
                colour = (ON_ACCENT if focused else TEXT) if selected else MUTED
                theme.draw_text(surface, text, 15, rect.center, colour, bold=selected, anchor="center")
        else:
            theme.draw_text(surface, "‹", 22, (control.x + theme.px(16), control.centery), MUTED, anchor="center")
            theme.draw_text(surface, "›", 22, (control.right - theme.px(16), control.centery), MUTED, anchor="center")
            text = theme.fit_text(self.options[self.index][1], 15, control.width - theme.px(60), bold=True)
            theme.draw_text(surface, text, 15, control.center, TEXT, bold=True, anchor="center")


class Stepper(Labelled):
    """A number with − and + (Left/Right), or typed in; ``None`` allowed when ``optional``.

    Wide ranges step along 1, 2, 5, 10, 20, 50, ... so that a node limit can go
    from 1000 to a million in a few presses.
    """

    def __init__(
        self,
        label: str,
        value: float | None,
        on_change: Callable[[float | None], Any],
        *,
        low: float,
        high: float,
        kind: type = int,
        optional: bool = False,
        help: str = "",
    ) -> None:
        super().__init__()
        self.label, self.value, self.on_change, self.help = label, value, on_change, help
        self.low, self.high, self.kind, self.optional = low, high, kind, optional
        self.editing: str | None = None  # the text being typed, if any
        self.error = False

    def text(self) -> str:
        if self.editing is not None:
            return self.editing
        if self.value is None:
            return "none"
        return format_number(self.value)

    def step(self, direction: int) -> None:
        """One step up or down; an optional value goes from "none" to 1 (or the lowest) and back below the lowest."""
        self.commit()
        if self.value is None:
            if direction > 0:
                self._set(1 if self.low <= 1 <= self.high else self.low)
            return
        if self.optional and direction < 0 and self.value <= self.low:
            self._set(None)
            return
        self._set(next_step(self.value, direction, self.low, self.high, self.kind))

    def _set(self, value: float | None) -> None:
        if value is not None:
            value = self.kind(min(self.high, max(self.low, value)))
        if value != self.value:
            self.value = value
            self.on_change(value)

    def commit(self) -> None:
        """Take the typed text as the value (an invalid entry is shown in red and dropped)."""
        if self.editing is None:
            return
        text, self.editing = self.editing.strip(), None
        if not text and self.optional:
            self._set(None)
            return
        try:
            value = self.kind(text)
        except ValueError:
            self.error = True
            return
        self.error = not (self.low <= value <= self.high)
        if not self.error:
            self._set(value)

    def blur(self) -> None:
        self.commit()

    def key(self, event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        if event.key == pygame.K_LEFT:
            self.step(-1)
            return True
        if event.key == pygame.K_RIGHT:
            self.step(1)
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.editing is not None:
            self.commit()
            return True
        if event.key == pygame.K_BACKSPACE:
            self.editing = (self.text() if self.editing is None else self.editing)[:-1]
            self.error = False
            return True
        allowed = "0123456789-" + ("." if self.kind is float else "")
        if event.unicode and event.unicode in allowed:
            self.editing = (self.editing or "") + event.unicode
            self.error = False
            return True
        return False

    def _parts(self, theme: Theme) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        control = self.control_rect(theme)
        side = min(control.height, theme.px(44))
        minus = pygame.Rect(control.x, control.y, side, control.height)
        plus = pygame.Rect(control.right - side, control.y, side, control.height)
        return control, minus, plus

    def click(self, pos, theme) -> None:
        _, minus, plus = self._parts(theme)
        if minus.collidepoint(pos):
            self.step(-1)
        elif plus.collidepoint(pos):
            self.step(1)

    def draw(self, surface, theme, focused, hovered) -> None:
        self.draw_label(surface, theme)
        control, minus, plus = self._parts(theme)
        radius = theme.px(8)
        drawing.panel(
            surface, control, radius, PANEL, drawing.border_colour(focused, hovered), 2 if focused else 1, raised=False
        )
        for rect, sign, usable in (
            (minus, "−", self.value is None or self.value > self.low),
            (plus, "+", self.value is None or self.value < self.high),
        ):
            inner = rect.inflate(-theme.px(8), -theme.px(8))
            pygame.draw.rect(surface, PANEL_LIGHT, inner, border_radius=radius - 2)
            theme.draw_text(surface, sign, 20, inner.center, TEXT if usable else FAINT, bold=True, anchor="center")
        colour = DANGER if self.error else (ACCENT if self.editing is not None else TEXT)
        text = self.text() + ("|" if self.editing is not None else "")
        theme.draw_text(surface, text, 17, control.center, colour, bold=True, anchor="center")


class TextField(Labelled):
    """A line of free text (a file path, a seed)."""

    def __init__(
        self, label: str, text: str, on_change: Callable[[str], Any], *, placeholder: str = "", help: str = ""
    ) -> None:
        super().__init__()
        self.label, self.value, self.on_change = label, text, on_change
        self.placeholder, self.help = placeholder, help

    def key(self, event) -> bool:
        if event.type == pygame.TEXTINPUT:
            self._set(self.value + event.text)
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self._set(self.value[:-1])
                return True
            if event.key == pygame.K_v and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self._set(self.value + paste_text())
                return True
            # letters arrive as TEXTINPUT; swallow their KEYDOWN so that they do not act as shortcuts
            return bool(event.unicode and event.unicode.isprintable())
        return False

    def _set(self, text: str) -> None:
        if text != self.value:
            self.value = text
            self.on_change(text)

    def draw(self, surface, theme, focused, hovered) -> None:
        self.draw_label(surface, theme)
        box = self.control_rect(theme)
        drawing.panel(
            surface, box, theme.px(8), PANEL, drawing.border_colour(focused, hovered), 2 if focused else 1, raised=False
        )
        inner = box.width - theme.px(24)
        if focused:
            text, font = self.value + "|", theme.font(15)
            while text and font.size(text)[0] > inner:  # keep the end (the caret) in view
                text = text[1:]
            theme.draw_text(surface, text, 15, (box.x + theme.px(12), box.centery), TEXT, anchor="midleft")
        elif self.value:  # at rest: from the beginning, shortened with an ellipsis
            text = theme.fit_text(self.value, 15, inner)
            theme.draw_text(surface, text, 15, (box.x + theme.px(12), box.centery), TEXT, anchor="midleft")
        else:
            theme.draw_text(
                surface,
                theme.fit_text(self.placeholder, 15, inner),
                15,
                (box.x + theme.px(12), box.centery),
                FAINT,
                anchor="midleft",
            )


class Card(Widget):
    """A selectable tile: a title, a line of detail, an optional picture and level pips."""

    def __init__(
        self,
        title: str,
        detail: str,
        action: Callable[[], Any],
        *,
        selected: Callable[[], bool] = lambda: False,
        picture: Callable[[pygame.Surface, pygame.Rect], None] | None = None,
        level: tuple[int, int] | None = None,
    ) -> None:
        super().__init__()
        self.title, self.detail, self.action, self.selected = title, detail, action, selected
        self.picture, self.level = picture, level
        self.show_level = True  # the pips; off when a screen finds its cards too narrow (see fits_level)

    def _pips_width(self, theme: Theme) -> int:
        return 0 if self.level is None else theme.px(12) * (self.level[1] + 2)

    def fits_level(self, theme: Theme) -> bool:
        """Whether the whole title and the level pips fit side by side (a picture-less card)."""
        room = self.rect.width - 2 * theme.px(14) - self._pips_width(theme)
        return theme.font(17, True).size(self.title)[0] <= room

    def key(self, event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in ACTIVATE_KEYS:
            self.action()
            return True
        return False

    def click(self, pos, theme) -> None:
        self.action()

    def draw(self, surface, theme, focused, hovered) -> None:
        selected = self.selected()
        fill = PANEL_LIGHT if selected or hovered else PANEL
        border = ACCENT if selected else drawing.border_colour(focused, hovered)
        drawing.panel(surface, self.rect, theme.px(12), fill, border, 3 if selected or focused else 1)
        if focused and selected:
            pygame.draw.rect(
                surface, (190, 210, 255), self.rect.inflate(theme.px(6), theme.px(6)), 1, border_radius=theme.px(14)
            )
        pad = theme.px(14)
        text_left = self.rect.x + pad
        if self.picture is not None and self.rect.height > self.rect.width * 0.8:  # a tall card: picture on top
            picture = pygame.Rect(
                self.rect.x + pad, self.rect.y + pad, self.rect.width - 2 * pad, self.rect.height * 11 // 20
            )
            self.picture(surface, picture)
            # smaller, then on two lines, rather than cut
            size = label_size(theme, self.title, (19, 17, 15), self.rect.width - pad)
            wrap = self.rect.width - pad if theme.font(size, True).size(self.title)[0] > self.rect.width - pad else 0
            top = (self.rect.centerx, picture.bottom + pad)
            title_rect = theme.draw_text(surface, self.title, size, top, TEXT, bold=True, anchor="midtop", wrap=wrap)
            room = pygame.Rect(self.rect.x + pad, title_rect.bottom + theme.px(2), self.rect.width - 2 * pad, 0)
            room.height = self.rect.bottom - theme.px(6) - room.y
            self._draw_detail(surface, theme, room, wrap=True)
            return
        if self.picture is not None:
            picture = pygame.Rect(self.rect.x + pad, self.rect.y, self.rect.height, self.rect.height)
            self.picture(surface, picture)
            text_left = picture.right + pad // 2
        show_pips = self.level is not None and self.show_level
        room = self.rect.right - text_left - pad - (self._pips_width(theme) if show_pips else 0)
        title = theme.fit_text(self.title, 17, room, bold=True)
        title_height = theme.font(17, True).get_linesize()
        two_lines = title_height + theme.px(4) + theme.font(13).get_linesize() + theme.px(16) <= self.rect.height
        # a card too short for its detail shows the title alone, in the middle (the detail is elsewhere on screen)
        y = self.rect.y + theme.px(8) if two_lines else self.rect.centery - title_height // 2
        title_rect = theme.draw_text(surface, title, 17, (text_left, y), TEXT, bold=True)
        if self.level is not None and show_pips:
            filled, highest = self.level
            x = title_rect.right + theme.px(12)
            for pip in range(highest + 1):
                colour = ACCENT if pip <= filled else PANEL_LIGHT if not selected else PANEL
                pygame.draw.circle(surface, colour, (x + pip * theme.px(12), title_rect.centery), theme.px(4))
        if two_lines:
            room = pygame.Rect(text_left, title_rect.bottom + theme.px(4), self.rect.right - text_left - pad, 0)
            room.height = self.rect.bottom - room.y
            self._draw_detail(surface, theme, room, wrap=False)

    def _fits_wrapped(self, theme: Theme, size: float, room: pygame.Rect) -> bool:
        return theme.text(self.detail, size, MUTED, wrap=room.width, centred=True).get_height() <= room.height

    def _draw_detail(self, surface: pygame.Surface, theme: Theme, room: pygame.Rect, wrap: bool) -> None:
        """The detail in ``room``: wrapped if asked and it fits (a little smaller if need be, as at 150 %
        text), else one shortened line, else nothing."""
        anchor, pos = ("midtop", room.midtop) if wrap else ("topleft", room.topleft)
        size = next((size for size in (13, 12, 11) if self._fits_wrapped(theme, size, room)), None) if wrap else None
        if size is not None:
            theme.draw_text(surface, self.detail, size, pos, MUTED, anchor=anchor, wrap=room.width)
        elif theme.font(13).get_linesize() <= room.height:
            theme.draw_text(surface, theme.fit_text(self.detail, 13, room.width), 13, pos, MUTED, anchor=anchor)
