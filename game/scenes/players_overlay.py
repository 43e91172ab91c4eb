"""Change the computers of a game being watched: another difficulty for either side, or swap the sides.

A panel over the match. A change takes effect at once, from the position on
the board: the search under way is stopped and the new player moves next
when it is its turn. The difficulty list comes from the engine's presets; a
custom agent already playing stays in the list as it is.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from game import drawing
from game.bindings import BACK, Binding, Bindings
from game.inputs import Choice
from game.model import Colour
from game.scene import Host, Scene
from game.theme import DISC, MUTED, PANEL, TEXT
from game.widgets import Button, Form

if TYPE_CHECKING:
    from game.match.turns import TurnController

TITLE = "The players"
NOTE = "Changes apply from this position on"


class PlayersOverlay(Scene):
    """Over the match of two computers ``match`` (its turn controller: a change applies to it at once)."""

    name = "players"
    overlay = True
    bindings = Bindings(Binding("x", "swap_sides", button="X"), Binding("p", "dismiss"), BACK)

    def __init__(self, app: Host, match: TurnController) -> None:
        super().__init__(app)
        self.match = match
        self.choices: dict[Colour, Choice] = {}
        self.swap = Button("Swap sides", self.swap_sides, detail=self.bindings.hint("swap_sides"))
        self.done = Button("Done", self.dismiss, primary=True)
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.note_below = False  # the note under the title (no room beside it)
        self.form = Form(app.theme)
        self._build()

    def _build(self) -> None:
        presets = [(preset.name, preset.name.capitalize()) for preset in self.app.catalog.presets()]
        for colour in Colour:
            spec = self.match.config.player(colour).spec or ""
            options = presets if spec in {name for name, _ in presets} else [(spec, spec), *presets]
            self.choices[colour] = Choice(
                colour.label, options, spec, partial(self.match.spectator.replace_player, colour)
            )
        self.form.set_widgets([*self.choices.values(), self.swap, self.done], focus=self.done)

    def swap_sides(self) -> None:
        self.match.spectator.swap_players()
        self._build()
        self.resize(self.app.screen.get_size())

    def handle_event(self, event: pygame.event.Event) -> None:
        if not self.bindings.dispatch(self, event):
            self.form.handle_event(event)

    def resize(self, size: tuple[int, int]) -> None:
        """The note beside the title when both fit on one line, else under it; the panel as tall as its rows."""
        theme, px = self.app.theme, self.app.theme.px
        width = min(px(620), size[0] - px(40))
        title_width = theme.font(22, True).size(TITLE)[0]
        self.note_below = title_width + px(16) + theme.font(14).size(NOTE)[0] > width - px(48)
        top = px(18) + theme.font(22, True).get_linesize() + (theme.font(14).get_linesize() if self.note_below else 0)
        self.panel = pygame.Rect(0, 0, width, top + px(14) + 2 * px(58) + px(10) + px(50) + px(24))
        self.panel.center = (size[0] // 2, size[1] // 2)
        y = self.panel.y + top + px(14)
        for choice in self.choices.values():
            choice.rect = pygame.Rect(self.panel.x + px(58), y, width - px(82), px(46))
            y += px(58)
        button_width = px(170)
        self.done.rect = pygame.Rect(self.panel.right - px(24) - button_width, y + px(10), button_width, px(50))
        self.swap.rect = self.done.rect.move(-button_width - px(14), 0)

    def draw(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        drawing.translucent(surface, surface.get_rect(), (4, 8, 20), 120)
        drawing.panel(surface, self.panel, px(16), PANEL)
        title = theme.draw_text(surface, TITLE, 22, (self.panel.x + px(24), self.panel.y + px(18)), TEXT, bold=True)
        if self.note_below:
            theme.draw_text(surface, NOTE, 14, title.bottomleft, MUTED)
        else:
            theme.draw_text(surface, NOTE, 14, (self.panel.right - px(24), title.bottom), MUTED, anchor="bottomright")
        for colour, choice in self.choices.items():
            disc = drawing.disc(DISC[colour], px(13))
            surface.blit(disc, disc.get_rect(center=(self.panel.x + px(36), choice.rect.centery)))
        self.form.draw(surface)
