"""Controls for the screens, usable with the mouse and with the keyboard alone: the base, buttons, the form.

A :class:`Form` holds the controls of a screen in focus order: Up/Down (and
Tab) move the focus, Left/Right change a choice or a number (or move the
focus between controls that have nothing to change), Enter or Space
activates. Moving the mouse over a control focuses it. Screens place the
controls by setting their ``rect`` in ``resize``; controls only draw
themselves and report changes through callbacks. The controls that hold a
value (a choice, a number, a line of text, a card to pick) are in
:mod:`game.inputs`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import pygame

from game import drawing
from game.labels import fit_parts
from game.theme import ACCENT_DARK, FAINT, MUTED, PANEL, PANEL_LIGHT, PRIMARY_DETAIL, TEXT, Theme, shade

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
        # The label and its detail, one above the other, only at the sizes whose lines fit the button's height
        # with a margin (at 150 % text the largest label would touch the border).
        detail_height = theme.font(13).get_height()
        sizes = [
            size
            for size in (19, 17, 15)
            if theme.font(size, True).get_height() + detail_height + theme.px(4) <= self.rect.height
        ]
        # a label too wide beside its detail takes the whole button, on two lines if need be ("Hide / analysis"):
        # a shortened label ("Hide anal…") says little
        fits = theme.font(15, True).size(self.text)[0] <= room
        if self.detail and sizes and fits:  # large text or a narrow button leaves room for the label alone
            size = label_size(theme, self.text, sizes, room)
            label_height = theme.font(size, True).get_height()
            top = self.rect.centery - (label_height + detail_height) // 2
            theme.draw_text(
                surface,
                fit_label(theme, self.text, size, room, bold=True),
                size,
                (self.rect.centerx, top),
                colour,
                bold=True,
                anchor="midtop",
            )
            detail = fit_parts(theme, self.detail, 13, self.rect.width - theme.px(24))
            theme.draw_text(
                surface,
                detail,
                13,
                (self.rect.centerx, top + label_height),
                PRIMARY_DETAIL if self.primary else MUTED,
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


class Form:
    """The controls of a screen in focus order, with keyboard and mouse navigation."""

    def __init__(self, theme: Theme, widgets: Sequence[Widget] = ()) -> None:
        self.theme = theme
        self.widgets: list[Widget] = list(widgets)
        self.focus: int | None = None
        self.hover: Widget | None = None
        # Where the keyboard had the focus before the pointer took it: the focus goes back there when the
        # pointer leaves the controls, so that no button stays lit once the pointer has gone.
        self._before_pointer: Widget | None = None
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
        if event.type in (pygame.MOUSEMOTION, pygame.WINDOWLEAVE):
            self._point_at(self.widget_at(event.pos) if event.type == pygame.MOUSEMOTION else None)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            widget = self.widget_at(event.pos)
            if widget is None or not self._usable(widget):
                return False
            self._before_pointer = None  # a click chooses the focus
            self.focus_on(widget)
            widget.click(event.pos, self.theme)
            return True
        if event.type not in (pygame.KEYDOWN, pygame.TEXTINPUT):
            return False
        self._before_pointer = None  # the keyboard chooses the focus from here on
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

    def _point_at(self, widget: Widget | None) -> None:
        """The pointer is over ``widget`` (None: over no control): the focus follows it while it is there."""
        self.hover = widget
        if widget is not None and self._usable(widget):
            if self._before_pointer is None:
                self._before_pointer = self.focused or widget
            self.focus_on(widget)
        elif widget is None and self._before_pointer is not None:
            back, self._before_pointer = self._before_pointer, None
            self.focus_on(back)

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
