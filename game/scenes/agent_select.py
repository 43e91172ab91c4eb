"""Choose each computer player: a difficulty preset, or any engine agent with its parameters.

Nothing here knows the agents by name: the presets and the agents, with the
type, range and choices of every parameter, come from the engine's registry
(:mod:`engine.agents.registry`), so an agent added to the engine shows up
here with working editors and no change to the game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game import drawing
from game.agent_choice import SideChoice, param_editor
from game.bindings import SETUP
from game.catalog import ladder_note, level_summary, level_title
from game.inputs import Card, Choice
from game.model import Colour, Mode
from game.players import sentence
from game.scene import Host
from game.scenes.base import FormScene
from game.theme import ACCENT, DANGER, DISC, MUTED, PANEL, TEXT
from game.widgets import Button, Widget, align_labels

if TYPE_CHECKING:
    pass


SUBTITLE = "A difficulty level, or any engine with the settings you like"


class AgentSelect(FormScene):
    """One or two computer players, side by side in tabs."""

    name = "agent_select"
    bindings = SETUP

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        settings = app.settings
        if settings.mode is Mode.HUMAN_VS_AI:
            self.title, self.colours = "Your opponent", [settings.human_colour.other]
        else:
            self.title, self.colours = "The computers", [Colour.RED, Colour.YELLOW]
        self.subtitle = SUBTITLE
        self.back = Button("Back", self.dismiss)
        self.next = Button("Next", self.go_next, primary=True)
        self.sides: dict[Colour, SideChoice] = {}
        self.current = self.colours[0]
        self.error = ""
        self.tabs: Choice | None = None
        self.cards: list[Card] = []
        self.editors: list[Widget] = []
        self.panel = pygame.Rect(0, 0, 0, 0)
        # A small window with large text has no room for every editor: they scroll, a window at a time.
        self.first_editor = 0
        self.editor_rows = 0  # how many editors show at once
        self.row_height = 0
        self._editor_box = pygame.Rect(0, 0, 0, 0)  # where the first editor goes
        self._pointer = (0, 0)  # where the mouse is (a wheel over the panel scrolls the editors)
        self.form.set_widgets([self.back, self.next], focus=self.back)
        self._size = app.screen.get_size()

    # -- building the controls once the engine is loaded ----------------------------------------
    def update(self, dt: float) -> None:
        if not self.sides and self.app.catalog.ready:
            if self.app.catalog.load_error:
                self.error = f"The engine could not be loaded: {self.app.catalog.load_error}"
                return
            self.sides = {c: SideChoice(self.app.settings.agent(c), self.app.catalog) for c in self.colours}
            self._rebuild(focus_first=True)

    def _rebuild(self, focus_first: bool = False) -> None:
        """Make the controls of the current side; the focus stays at the same place in the list."""
        side = self.sides[self.current]
        self.tabs = None
        widgets: list[Widget] = []
        if len(self.colours) == 2:
            self.tabs = Choice("", [(c, f"{c.label} computer") for c in self.colours], self.current, self._switch)
            widgets.append(self.tabs)
        presets = self.app.catalog.presets()
        top = max((preset.level for preset in presets), default=0)
        geometry = self.app.settings.geometry()  # the board the level will play on
        rated = ladder_note(presets, geometry)
        self.subtitle = f"A difficulty level ({rated}) or any engine, set as you like" if rated else SUBTITLE
        self.cards = [
            Card(
                level_title(preset, geometry),
                level_summary(preset, geometry),
                partial(self._pick_preset, preset.name),
                selected=self._is_preset(preset.name),
                level=(preset.level, top),
            )
            for preset in presets
        ]
        self.custom_card = Card(
            "Custom",
            "Any engine, with your own settings",
            self._pick_custom,
            selected=lambda: self.sides[self.current].preset is None,
        )
        widgets += [*self.cards, self.custom_card]
        self.editors, self.first_editor = [], 0
        if side.preset is None:
            agents = [(info.name, info.name) for info in self.app.catalog.agents()]
            from engine.agents.classroom import with_trust_note  # (loaded with the catalog by now)

            summary = with_trust_note(side.info.summary)  # a student's file: what its sandbox holds here
            self.editors.append(Choice("Engine", agents, side.agent, self._pick_agent, help=summary))
            self.editors += [param_editor(param, side, self._changed) for param in side.info.params]
        widgets += [*self.editors, self.back, self.next]
        self.form.set_widgets(widgets)
        if focus_first:
            selected = next((card for card in self.cards if card.selected()), self.custom_card)
            self.form.focus_on(selected)
        self._changed()
        self.resize(self._size)

    def _is_preset(self, name: str) -> Callable[[], bool]:
        """Whether the side being edited plays the preset ``name``, asked when its card is drawn."""
        return lambda: self.sides[self.current].preset == name

    def _switch(self, colour: Colour) -> None:
        self.current = colour
        self._rebuild()
        if self.tabs is not None:  # there are tabs whenever there is a colour to switch to
            self.form.focus_on(self.tabs)

    def _pick_preset(self, name: str) -> None:
        self.sides[self.current].choose_preset(name)
        self._rebuild()

    def _pick_custom(self) -> None:
        self.sides[self.current].choose_custom()
        self._rebuild()

    def _pick_agent(self, name: str) -> None:
        self.sides[self.current].choose_agent(name)
        self._rebuild()
        self.form.focus_on(self.editors[0])

    def _changed(self) -> None:
        for colour, side in self.sides.items():
            self.app.settings.set_agent(colour, side.spec())
        # Values that do not go together are said at once, beside the buttons, not only at Next.
        problem = self.app.catalog.check(self.sides[self.current].spec()) if self.sides else None
        self.error = "" if problem is None else f"{self.current.label}: {problem}"

    def handle_event(self, event: pygame.event.Event) -> None:
        focused = self.form.focused
        if event.type == pygame.MOUSEMOTION:
            self._pointer = event.pos
        if event.type == pygame.MOUSEWHEEL and self.editors and self.panel.collidepoint(self._pointer):
            self._scroll_editors(self.first_editor - event.y)
            if focused in self.editors and not focused.visible:  # keys never change an editor out of sight
                index = self.editors.index(focused)
                last = self.first_editor + self.editor_rows - 1
                self.form.focus_on(self.editors[min(max(index, self.first_editor), last)])
            return
        moves = {pygame.K_UP: -1, pygame.K_DOWN: 1}
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            moves[pygame.K_TAB] = -1 if event.mod & pygame.KMOD_SHIFT else 1
        if event.type == pygame.KEYDOWN and event.key in moves and focused in self.editors:
            index = self.editors.index(focused) + moves[event.key]
            if 0 <= index < len(self.editors):  # the next editor, scrolled into view even if hidden now
                if not focused.key(event):
                    self._reveal(index)
                    self.form.focus_on(self.editors[index])
                return
        super().handle_event(event)

    def _scroll_editors(self, first: int) -> None:
        self.first_editor = max(0, min(first, len(self.editors) - self.editor_rows))
        self._place_editors()

    def _reveal(self, index: int) -> None:
        """Scroll the editors so that editor ``index`` shows."""
        if index < self.first_editor:
            self._scroll_editors(index)
        elif index >= self.first_editor + self.editor_rows:
            self._scroll_editors(index - self.editor_rows + 1)

    def go_next(self) -> None:
        """Check that every choice makes an agent, then choose the board."""
        if self.choices_ready():
            self.app.open("board_setup")

    def choices_ready(self) -> bool:
        """Every choice makes an agent (else the error shows, on the tab of the player concerned)."""
        if not self.sides:
            self.app.notify("The engine is still loading; try again in a moment.", error=True)
            return False
        for widget in self.form.widgets:
            widget.blur()  # commit numbers still being typed
        for colour, side in self.sides.items():
            try:
                self.app.make_agent(side.spec()).close()
            except Exception as exc:  # AgentSpecError, or an agent refusing its values (say, a missing file)
                self.error = f"{colour.label}: {exc}"
                if colour is not self.current:
                    self._switch(colour)
                return False
        return True

    # -- layout and drawing ---------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        self._size = size
        px, area = self.theme.px, self.content(size)
        self.button_row([self.back, self.next], area)
        if not self.sides:
            return
        top = area.y
        if self.tabs is not None:
            self.tabs.rect = pygame.Rect(area.centerx - px(230), top, px(460), px(44))
            top += px(62)
        bottom = self.back.rect.top - px(18)
        left_width = area.width * 2 // 5
        cards = [*self.cards, self.custom_card]
        gap = px(10)
        height = min(px(60), (bottom - top - gap * (len(cards) - 1)) // len(cards))
        for index, card in enumerate(cards):
            card.rect = pygame.Rect(area.x, top + index * (height + gap), left_width, height)
        pips = all(card.fits_level(self.theme) for card in self.cards)  # on narrow cards the titles matter more
        for card in self.cards:
            card.show_level = pips
        self.panel = pygame.Rect(area.x + left_width + px(24), top, area.width - left_width - px(24), bottom - top)
        rows = len(self.editors)
        if rows:
            inner = self.panel.inflate(-px(40), 0)
            # below the editors, room for the longest help note as it wraps at this text size
            notes = [self.theme.text(getattr(e, "help", ""), 14, MUTED, wrap=inner.width) for e in self.editors]
            room = self.panel.height - px(76) - (max(note.get_height() for note in notes) + px(24))
            # the lowest row that still shows its text with a margin; below that the editors scroll
            least = self.theme.font(16, True).get_linesize() + px(8)
            self.row_height = min(max(px(42), least), room // rows - px(6))
            self.editor_rows = rows
            if self.row_height < least:
                self.row_height = least
                room -= self.theme.font(13).get_linesize()  # a line for "4–9 of 11" under them
                self.editor_rows = max(1, (room + px(6)) // (least + px(6)))
            self._editor_box = pygame.Rect(inner.x, self.panel.y + px(60), inner.width, 0)
            self._scroll_editors(self.first_editor)
            if self.form.focused in self.editors:
                self._reveal(self.editors.index(self.form.focused))
            align_labels(self.editors, self.theme)

    def _place_editors(self) -> None:
        """Put the editors that show one under the other (the engine's choice a little apart)."""
        px, y = self.theme.px, self._editor_box.y
        for index, editor in enumerate(self.editors):
            editor.visible = self.first_editor <= index < self.first_editor + self.editor_rows
            editor.rect = pygame.Rect(self._editor_box.x, y, self._editor_box.width, self.row_height)
            if editor.visible:
                y += self.row_height + (px(16) if index == 0 else px(6))

    def draw_content(self, surface: pygame.Surface) -> None:
        theme, px = self.theme, self.theme.px
        if self.error:  # beside the buttons, where there is room
            area = self.content(surface.get_size())
            width = self.back.rect.x - area.x - px(20)
            theme.draw_text(
                surface, self.error, 15, (area.x, self.back.rect.centery), DANGER, anchor="midleft", wrap=width
            )

        if not self.sides:
            if not self.error:
                area = self.content(surface.get_size())
                theme.draw_text(surface, "Loading the engine…", 20, area.center, MUTED, anchor="center")
            return
        drawing.panel(surface, self.panel, px(14), PANEL)
        side = self.sides[self.current]
        badge = drawing.disc(DISC[self.current], px(13))
        badge_rect = surface.blit(badge, (self.panel.x + px(20), self.panel.y + px(16)))
        heading = f"{self.current.label} computer" + (f": {side.preset.capitalize()}" if side.preset else ": custom")
        heading = theme.fit_text(heading, 18, self.panel.right - px(16) - badge_rect.right - px(10), bold=True)
        theme.draw_text(
            surface, heading, 18, (badge_rect.right + px(10), badge_rect.centery), TEXT, bold=True, anchor="midleft"
        )
        if side.preset is not None:
            self._draw_preset(surface, side)
            return
        if self.editor_rows < len(self.editors):  # which of the editors show, under the last one
            last = self.first_editor + self.editor_rows
            where = (self.editors[last - 1].rect.right, self.editors[last - 1].rect.bottom + px(2))
            shown = f"↑ ↓ {self.first_editor + 1}–{last} of {len(self.editors)}"
            theme.draw_text(surface, shown, 13, where, MUTED, anchor="topright")
        focused = self.form.focused
        note = getattr(focused, "help", "") if focused in self.editors else ""
        if note:
            theme.draw_text(
                surface,
                note,
                14,
                (self.panel.x + px(20), self.panel.bottom - px(16)),
                MUTED,
                anchor="bottomleft",
                wrap=self.panel.width - px(40),
            )

    def _draw_preset(self, surface: pygame.Surface, side: SideChoice) -> None:
        theme, px, panel = self.theme, self.theme.px, self.panel
        preset = next(p for p in self.app.catalog.presets() if p.name == side.preset)
        x, y = panel.x + px(24), panel.y + px(70)
        summary = sentence(level_summary(preset, self.app.settings.geometry()))
        y = theme.draw_text(surface, summary, 18, (x, y), TEXT, wrap=panel.width - px(48)).bottom
        y += px(24)
        indent = x + max(px(90), theme.draw_text(surface, "Engine", 14, (x, y), ACCENT, bold=True).width + px(12))
        # the spec has no spaces to break at: one after each comma lets a long one wrap inside the panel
        spec, width = preset.spec.replace(",", ", "), panel.right - px(24) - indent
        y = theme.draw_text(surface, spec, 16, (indent, y), TEXT, wrap=width).bottom + px(6)
        theme.draw_text(surface, side.info.summary, 14, (indent, y), MUTED, wrap=width)
        theme.draw_text(
            surface,
            "Choose Custom to change its settings.",
            14,
            (x, panel.bottom - px(18)),
            MUTED,
            anchor="bottomleft",
            wrap=panel.width - px(48),
        )
