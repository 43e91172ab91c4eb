"""Controls for the set-up screens, usable with the mouse and with the keyboard alone.

A :class:`Form` holds the controls of a screen in focus order: Up/Down (and
Tab) move the focus, Left/Right change a choice or a number (or move the
focus between controls that have nothing to change), Enter or Space
activates. Moving the mouse over a control focuses it. Screens place the
controls by setting their ``rect`` in ``resize``; controls only draw
themselves and report changes through callbacks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import pygame

from game import drawing
from game.theme import ACCENT, ACCENT_DARK, DANGER, FAINT, MUTED, ON_ACCENT, PANEL, PANEL_LIGHT, TEXT, Theme, shade

ACTIVATE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


class Widget:
    """A control with a rectangle; subclasses handle keys and clicks and draw."""

    focusable = True

    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.enabled = True
        self.visible = True

    def key(self, event: pygame.event.Event) -> bool:
        """Handle a KEYDOWN or TEXTINPUT while focused; True if it was used."""
        return False

    def click(self, pos: tuple[int, int], theme: Theme) -> None:
        """A left click inside :attr:`rect`."""

    def blur(self) -> None:
        """The focus moves away (text being typed is committed)."""

    def draw(self, surface: pygame.Surface, theme: Theme, focused: bool, hovered: bool) -> None:
        raise NotImplementedError


class Labelled(Widget):
    """A control with its label on the left: the label gets a column, the control the rest of the row.

    The column is as wide as the label needs (up to half the row), or as wide as a screen set
    with :func:`align_labels` so that the controls of a form line up; a label that still does
    not fit is shortened with an ellipsis rather than running under its control.
    """

    label = ""
    LABEL_SIZE = 16

    def __init__(self) -> None:
        super().__init__()
        self.label_column: int | None = None  # set by align_labels; None: this label's own need

    def label_need(self, theme: Theme) -> int:
        """The column width that shows the whole label with a gap before the control."""
        return theme.font(self.LABEL_SIZE).size(self.label)[0] + theme.px(14) if self.label else 0

    def label_cap(self) -> int:
        """The widest the label column gets: the control keeps at least half the row."""
        return self.rect.width // 2

    def label_width(self, theme: Theme) -> int:
        if not self.label:
            return 0
        wanted = self.label_column if self.label_column is not None else self.label_need(theme)
        return min(max(wanted, min(theme.px(210), self.rect.width * 2 // 5)), self.label_cap())

    def control_rect(self, theme: Theme) -> pygame.Rect:
        """The part of :attr:`rect` right of the label column."""
        width = self.label_width(theme)
        return pygame.Rect(self.rect.x + width, self.rect.y, self.rect.width - width, self.rect.height)

    def draw_label(self, surface: pygame.Surface, theme: Theme) -> None:
        if self.label:
            room = self.label_width(theme) - theme.px(8)
            text = theme.fit_text(self.label, self.LABEL_SIZE, room)
            theme.draw_text(surface, text, self.LABEL_SIZE, (self.rect.x, self.rect.centery), TEXT, anchor="midleft")


def align_labels(widgets: Sequence[Widget], theme: Theme) -> None:
    """Give the labelled controls among ``widgets`` one label column, wide enough for the longest label."""
    labelled = [widget for widget in widgets if isinstance(widget, Labelled)]
    column = max((widget.label_need(theme) for widget in labelled), default=0)
    for widget in labelled:
        widget.label_column = column


class Button(Widget):
    """A push button, optionally with a second line of detail."""

    def __init__(self, text: str, action: Callable[[], Any], *, primary: bool = False, detail: str = "") -> None:
        super().__init__()
        self.text, self.action, self.primary, self.detail = text, action, primary, detail

    def key(self, event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in ACTIVATE_KEYS:
            self.press()
            return True
        return False

    def click(self, pos, theme) -> None:
        self.press()

    def press(self) -> None:
        if self.enabled:
            self.action()

    def looks(self) -> tuple[object, ...]:
        """What its picture depends on, besides the focus and the pointer."""
        return (tuple(self.rect), self.text, self.detail, self.enabled, self.primary)

    def bounds(self, theme: Theme) -> pygame.Rect:
        """Where :meth:`draw` draws: the button and its shadow."""
        return drawing.panel_bounds(self.rect, self._radius(theme))

    @staticmethod
    def _radius(theme: Theme) -> int:
        return theme.px(10)

    def draw(self, surface, theme, focused, hovered) -> None:
        radius = self._radius(theme)
        if self.primary and self.enabled:
            fill = shade(ACCENT_DARK, 1.12) if focused or hovered else ACCENT_DARK
        else:
            fill = PANEL_LIGHT if (focused or hovered) and self.enabled else PANEL
        drawing.panel(surface, self.rect, radius, fill, drawing.border_colour(focused, hovered), 2 if focused else 1)
        colour = TEXT if self.enabled else FAINT
        room = self.rect.width - theme.px(16)
        two_lines = self.rect.height >= theme.font_px(17) + theme.font_px(13) + theme.px(8)
        # a one-word label too wide beside its detail takes the whole button (a shortened word says little)
        fits = " " in self.text or theme.font(15, True).size(self.text)[0] <= room
        if self.detail and two_lines and fits:  # large text or a narrow button leaves room for the label alone
            size = label_size(theme, self.text, (19, 17, 15), room)
            theme.draw_text(
                surface,
                fit_label(theme, self.text, size, room, bold=True),
                size,
                (self.rect.centerx, self.rect.centery - theme.px(2)),
                colour,
                bold=True,
                anchor="midbottom",
            )
            detail = theme.fit_text(self.detail, 13, self.rect.width - theme.px(24))
            theme.draw_text(
                surface,
                detail,
                13,
                (self.rect.centerx, self.rect.centery + theme.px(3)),
                (210, 220, 245) if self.primary else MUTED,
                anchor="midtop",
            )
        else:
            text, size, wrap = self.label_layout(theme)
            theme.draw_text(surface, text, size, self.rect.center, colour, bold=True, anchor="center", wrap=wrap)

    def label_layout(self, theme: Theme) -> tuple[str, float, int]:
        """A one-part label as it fits the button: ``(text, size, wrap width)``. The size steps down
        first; then a label of several words takes two short lines ("Stop / series") if they fit the
        button; only then is it shortened."""
        room = self.rect.width - theme.px(16)
        size = label_size(theme, self.text, (17, 15, 13), room)
        if " " in self.text and theme.font(size, True).size(self.text)[0] > room:
            for small in (13, 12, 11):
                if theme.text(self.text, small, TEXT, True, room, True).get_height() <= self.rect.height:
                    return self.text, small, room
        return fit_label(theme, self.text, size, room, bold=True), size, 0


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

    def _draw_detail(self, surface: pygame.Surface, theme: Theme, room: pygame.Rect, wrap: bool) -> None:
        """The detail in ``room``: wrapped if asked and it fits, else one shortened line, else nothing."""
        anchor, pos = ("midtop", room.midtop) if wrap else ("topleft", room.topleft)
        if wrap and theme.text(self.detail, 13, MUTED, wrap=room.width, centred=True).get_height() <= room.height:
            theme.draw_text(surface, self.detail, 13, pos, MUTED, anchor=anchor, wrap=room.width)
        elif theme.font(13).get_linesize() <= room.height:
            theme.draw_text(surface, theme.fit_text(self.detail, 13, room.width), 13, pos, MUTED, anchor=anchor)


class Form:
    """The controls of a screen in focus order, with keyboard and mouse navigation."""

    def __init__(self, theme: Theme, widgets: Sequence[Widget] = ()) -> None:
        self.theme = theme
        self.widgets: list[Widget] = list(widgets)
        self.focus: int | None = None
        self.hover: Widget | None = None
        self.focus_first()

    def set_widgets(self, widgets: Sequence[Widget], focus: Widget | None = None) -> None:
        """Replace the controls, keeping the focus on ``focus`` (or the same position) if possible."""
        old = self.focused
        self.widgets = list(widgets)
        target = focus or old
        if target in self.widgets and self._usable(target):
            self.focus = self.widgets.index(target)
        elif self.focus is None or self.focus >= len(self.widgets) or not self._usable(self.widgets[self.focus]):
            self.focus_first()

    @staticmethod
    def _usable(widget: Widget) -> bool:
        return widget.focusable and widget.visible and widget.enabled

    @property
    def focused(self) -> Widget | None:
        return None if self.focus is None or self.focus >= len(self.widgets) else self.widgets[self.focus]

    def focus_first(self) -> None:
        self.focus = next((i for i, w in enumerate(self.widgets) if self._usable(w)), None)

    def focus_on(self, widget: Widget) -> None:
        if widget in self.widgets and self._usable(widget) and widget is not self.focused:
            if self.focused is not None:
                self.focused.blur()
            self.focus = self.widgets.index(widget)

    def move(self, direction: int) -> None:
        usable = [i for i, w in enumerate(self.widgets) if self._usable(w)]
        if not usable:
            return
        if self.focus not in usable:
            self.focus = usable[0]
            return
        self.focus_on(self.widgets[usable[(usable.index(self.focus) + direction) % len(usable)]])

    def widget_at(self, pos: tuple[int, int]) -> Widget | None:
        for widget in self.widgets:
            if widget.visible and widget.rect.collidepoint(pos):
                return widget
        return None

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Route an event; True if the form used it."""
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.widget_at(event.pos)
            if self.hover is not None:
                self.focus_on(self.hover)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            widget = self.widget_at(event.pos)
            if widget is None or not self._usable(widget):
                return False
            self.focus_on(widget)
            widget.click(event.pos, self.theme)
            return True
        if event.type not in (pygame.KEYDOWN, pygame.TEXTINPUT):
            return False
        focused = self.focused
        if focused is not None and focused.key(event):
            return True
        if event.type == pygame.KEYDOWN:
            backwards = event.key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT
            if event.key in (pygame.K_UP, pygame.K_LEFT) or backwards:
                self.move(-1)
                return True
            if event.key in (pygame.K_DOWN, pygame.K_RIGHT, pygame.K_TAB):
                self.move(1)
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        for widget in self.widgets:
            if widget.visible:
                widget.draw(surface, self.theme, widget is self.focused, widget is self.hover)


def label_size(theme: Theme, text: str, sizes: Sequence[float], width: int) -> float:
    """The largest of ``sizes`` at which a bold label fits in ``width`` (else the smallest, to be shortened)."""
    return next((size for size in sizes if theme.font(size, True).size(text)[0] <= width), sizes[-1])


def format_number(value: float) -> str:
    """``4``, ``0.25`` or ``1,000,000``: whole numbers without decimals, others briefly."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:.4g}"


def next_step(value: float, direction: int, low: float, high: float, kind: type) -> float:
    """The next value up or down: by one on small ranges, else along 1-2-5 steps."""
    span = high - low
    if kind is int and span <= 100:
        return value + direction
    if kind is float and span <= 20:
        unit = 10 ** math.floor(math.log10(span)) / 10  # e.g. 0.1 for a range of 5
        return round(value + direction * unit, 10)
    ladder = sorted({low, high, *(m * 10**e for e in range(-3, 16) for m in (1, 2, 5) if low < m * 10**e < high)})

    if direction > 0:
        return next((v for v in ladder if v > value), high)
    return next((v for v in reversed(ladder) if v < value), low)


def fit_label(theme: Theme, text: str, size: float, width: int, bold: bool = False) -> str:
    """A button's text fitted to ``width``: a trailing key hint such as "(Esc)" goes first, then letters."""
    if theme.font(size, bold).size(text)[0] > width and text.endswith(")") and " (" in text:
        text = text[: text.rindex(" (")]
    return theme.fit_text(text, size, width, bold)


def paste_text() -> str:
    """The clipboard's text, or nothing when there is no clipboard."""
    try:
        return pygame.scrap.get_text() or ""
    except (pygame.error, AttributeError):
        return ""
