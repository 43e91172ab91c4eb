"""Who plays: you against the computer (your colour, who starts), two computers, or two people."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

from game.bindings import SETUP
from game.inputs import Card, Choice, TextField
from game.model import Colour, Mode
from game.pictures import mode_picture
from game.players import clean_name
from game.scene import Host
from game.scenes.base import FormScene
from game.widgets import Button

DETAILS = {
    Mode.HUMAN_VS_AI: "Play against an engine, from beginner to perfect.",
    Mode.SPECTATOR: "Pick two engines and watch them play.",
    Mode.HOTSEAT: "Two people take turns on this computer.",
}


class ModeSelect(FormScene):
    name = "mode_select"
    title = "New game"
    subtitle = "Who is playing?"
    bindings = SETUP

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        settings = app.settings
        self.cards = {
            mode: Card(
                mode.label,
                DETAILS[mode],
                partial(self.choose, mode),
                selected=self._is_chosen(mode),
                picture=mode_picture(mode, app.theme),
            )
            for mode in Mode
        }
        colours = [(colour, colour.label) for colour in Colour]
        self.your_colour = Choice("Your colour", colours, settings.human_colour, self._set_human_colour)
        self.who_starts = Choice(
            "First move",
            [(True, "You"), (False, "Computer")],
            settings.first is settings.human_colour,
            self._set_you_start,
        )
        self.first_colour = Choice("First move", colours, settings.first, self._set_first)
        self.names = {  # people's names, shown on the match screen, the result and the score
            colour: TextField(
                f"{colour.label}'s name",
                settings.red_name if colour is Colour.RED else settings.yellow_name,
                self._name_setter(colour),
                placeholder=f"{colour.label} player",
            )
            for colour in Colour
        }
        self.your_name = TextField("Your name", settings.player_name, self._set_your_name, placeholder="You")
        self.back = Button("Back", self.dismiss)
        self.next = Button("Next", self.go_next, primary=True)
        self._arrange(focus=self.cards[settings.mode])

    def _name_setter(self, colour: Colour) -> Callable[[str], None]:
        """Saves what is typed as ``colour``'s name."""
        return lambda text: self.app.settings.set_name(colour, clean_name(text))

    def _is_chosen(self, mode: Mode) -> Callable[[], bool]:
        """Whether ``mode`` is the saved choice, asked when the card is drawn."""
        return lambda: self.app.settings.mode is mode

    def _arrange(self, focus=None) -> None:
        """The controls of the chosen mode."""
        mode = self.app.settings.mode
        if mode is Mode.HUMAN_VS_AI:
            options = [self.your_colour, self.who_starts, self.your_name]
        elif mode is Mode.HOTSEAT:
            options = [self.first_colour, *self.names.values()]
        else:
            options = [self.first_colour]
        self.options = options
        self.form.set_widgets([*self.cards.values(), *options, self.back, self.next], focus=focus)

    # -- changes ---------------------------------------------------------------------------------
    def choose(self, mode: Mode) -> None:
        if self.app.settings.mode is mode:
            self.go_next()  # a second click (or Enter) on the chosen mode moves on
            return
        self.app.settings.mode = mode
        self._sync_choices()
        self._arrange(focus=self.cards[mode])
        self.resize(self.app.screen.get_size())

    def _set_human_colour(self, colour: Colour) -> None:
        settings = self.app.settings
        you_start = settings.first is settings.human_colour
        settings.human_colour = colour
        settings.first = colour if you_start else colour.other

    def _set_your_name(self, text: str) -> None:
        self.app.settings.player_name = clean_name(text)

    def _set_you_start(self, you: bool) -> None:
        settings = self.app.settings
        settings.first = settings.human_colour if you else settings.human_colour.other

    def _set_first(self, colour: Colour) -> None:
        self.app.settings.first = colour

    def _sync_choices(self) -> None:
        settings = self.app.settings
        self.who_starts.index = 0 if settings.first is settings.human_colour else 1
        self.first_colour.index = list(Colour).index(settings.first)

    def go_next(self) -> None:
        self.app.open("board_setup" if self.app.settings.mode is Mode.HOTSEAT else "agent_select")

    def resume(self) -> None:
        self._sync_choices()

    # -- layout -------------------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        px, area = self.theme.px, self.content(size)
        gap = px(22)
        card_width = (area.width - 2 * gap) // 3
        card_height = min(px(250), area.height // 2)
        for index, card in enumerate(self.cards.values()):
            card.rect = pygame.Rect(area.x + index * (card_width + gap), area.y, card_width, card_height)
        width, y = min(area.width, px(560)), area.y + card_height + px(36)
        for choice in self.options:
            choice.rect = pygame.Rect(area.centerx - width // 2, y, width, px(46))
            y += px(60)
        self.button_row([self.back, self.next], area)
