"""Keys, declared once: each screen's table says what a key does, and everything else reads it.

A screen lists its keys as :class:`Binding` s in one :class:`Bindings` table
(its ``bindings`` attribute). That one table

- handles the keys (:meth:`Bindings.dispatch` calls the screen's method),
- fills the shortcuts card (F1; :func:`card` walks every screen's table),
- writes the screen's footer (:meth:`Bindings.footer`),
- and gives each button its key hint (:meth:`Bindings.hint`: the button of
  ``undo`` says ``U, Ctrl+Z`` because the binding that calls ``undo`` does).

Keys are written as pygame names (``u``, ``return``, ``kp_enter``,
``pageup``), with ``ctrl+`` or ``shift+`` in front when that modifier must be
held (Ctrl stands for Cmd on a Mac too), or as a typed character (``?``,
whatever the keyboard layout). A key without a modifier acts whether or not
one is held. When several bindings of a table take a key, the one asking for
more modifiers wins, then one with a condition (``when``), then the first.

A binding without an ``action`` only describes a key that the screen's
controls handle themselves (the arrows move the focus of a form): it is on
the card and in the footer all the same.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pygame

from game.keys import is_repeat

CTRL = pygame.KMOD_CTRL | pygame.KMOD_META

#: The groups of the shortcuts card, in the order shown.
PLAYING, SHARING, TWO_COMPUTERS, EVERYWHERE = "Playing", "Saving and sharing", "Two computers", "Everywhere"
GROUPS = (PLAYING, SHARING, TWO_COMPUTERS, EVERYWHERE)

#: The shortcuts card: (group title, ((keys, what they do), ...)) in the order shown.
Card = list[tuple[str, tuple[tuple[str, str], ...]]]


@dataclass(frozen=True)
class Key:
    """One key, or one typed character, and the modifiers it needs."""

    code: int = 0
    char: str = ""
    ctrl: bool = False
    shift: bool = False

    def matches(self, event: pygame.event.Event) -> bool:
        if self.char:
            if getattr(event, "unicode", "") != self.char:
                return False
        elif event.key != self.code:
            return False
        return (not self.ctrl or bool(event.mod & CTRL)) and (not self.shift or bool(event.mod & pygame.KMOD_SHIFT))


@functools.cache
def parse(keys: str) -> tuple[Key, ...]:
    """``"u ctrl+z backspace"`` as keys."""
    parsed = []
    for token in keys.split():
        *modifiers, name = token.split("+") if token != "+" else ["+"]
        ctrl, shift = "ctrl" in modifiers, "shift" in modifiers
        if len(name) == 1 and not name.isalnum():
            parsed.append(Key(char=name, ctrl=ctrl, shift=shift))
            continue
        code = getattr(pygame, f"K_{name}", None)
        code = getattr(pygame, f"K_{name.upper()}") if code is None else code
        parsed.append(Key(code, ctrl=ctrl, shift=shift))
    return tuple(parsed)


@dataclass(frozen=True)
class Binding:
    """What some keys do on a screen, and how people are told about it."""

    keys: str  # pygame names, space-separated: "u ctrl+z backspace" ("": none, as for the mouse)
    action: str = ""  # the screen's method it calls, or a part's ("turns.undo") ("": its controls handle these keys)
    label: str = ""  # the keys as people read them: "U, Ctrl+Z"
    does: str = ""  # on the shortcuts card ("" keeps it off the card)
    group: str = ""  # the card's group
    footer: str = ""  # in the screen's footer: "Esc back"
    button: str = ""  # the hint on the button of the same action (default: the label)
    when: str = ""  # the method (of the screen or a part) that says, given the event, whether it acts now
    repeat: bool = False  # acts on the keyboard's auto-repeat too (moving, not acting)
    with_event: bool = False  # the action gets the key event (a digit says which column)
    rank: int = 0  # on the card, after the entries of its group with a lower rank

    def weight(self, event: pygame.event.Event) -> int | None:
        """How many modifiers the matching key asks for, or None when no key of the binding matches."""
        weights = [key.ctrl + key.shift for key in parse(self.keys) if key.matches(event)]
        return max(weights) if weights else None

    @property
    def hint(self) -> str:
        return self.button or self.label


class Bindings:
    """A screen's keys, in the order its footer and the card list them."""

    def __init__(self, *entries: Binding) -> None:
        self.entries = entries

    def dispatch(self, owner: Any, event: pygame.event.Event) -> bool:
        """Call ``owner``'s method for a KEYDOWN that one of the bindings takes; True if one did."""
        if event.type != pygame.KEYDOWN:
            return False
        best: tuple[tuple[int, bool, int], Binding] | None = None
        for index, binding in enumerate(self.entries):
            if not binding.action or (is_repeat(event) and not binding.repeat):
                continue
            weight = binding.weight(event)
            if weight is None or (binding.when and not find(owner, binding.when)(event)):
                continue
            rank = (weight, bool(binding.when), -index)
            if best is None or rank > best[0]:
                best = (rank, binding)
        if best is None:
            return False
        binding = best[1]
        action = find(owner, binding.action)
        if binding.with_event:
            action(event)
        else:
            action()
        return True

    def footer(self) -> str:
        """The line of key hints along the bottom of the screen."""
        return "   ".join(binding.footer for binding in self.entries if binding.footer)

    def hint(self, action: str) -> str:
        """The key hint for the button that does ``action`` (the keys of the binding that calls it)."""
        return next((binding.hint for binding in self.entries if binding.action == action and binding.hint), "")


def find(owner: Any, path: str) -> Any:
    """``owner``'s method of the dotted name ``path`` ("undo", or "turns.undo" for one of its parts)."""
    for name in path.split("."):
        owner = getattr(owner, name)
    return owner


def card(tables: Iterable[Bindings]) -> Card:
    """The shortcuts card: every described key of ``tables``, once, by group, in the order first met."""
    seen: list[Binding] = []
    for table in tables:
        seen += [binding for binding in table.entries if binding.does and binding not in seen]
    groups = []
    for group in GROUPS:
        members = sorted((binding for binding in seen if binding.group == group), key=lambda binding: binding.rank)
        groups.append((group, tuple((binding.label, binding.does) for binding in members)))
    return groups


# -- keys many screens share ------------------------------------------------------------------------
MOVE = Binding("up down tab", label="↑ ↓  Tab", does="move between the controls", group=EVERYWHERE, footer="↑ ↓ move")
CHANGE = Binding("left right", label="← →", does="change a choice or a number", group=EVERYWHERE, footer="← → change")
SELECT = Binding(
    "return space", label="Enter, Space", does="press the control in focus", group=EVERYWHERE, footer="Enter select"
)
BACK = Binding("escape", "dismiss", "Esc", "back one screen", EVERYWHERE, footer="Esc back")
#: Ctrl+V on the menu and the set-up screens: a game from a pasted position, with the players chosen so far.
PASTE_GAME = Binding("ctrl+v", "start_pasted_game", footer="Ctrl+V paste a game")

#: E in a game, its review and a puzzle: the opening explorer at the position shown.
EXPLORE = Binding(
    "e", "explore", "E", "the opening explorer here (a game, a review, a puzzle)", PLAYING, footer="E explore"
)

# The app's own keys, on every screen (the app calls its own methods; screens name them in their footers).
FULL_SCREEN = Binding("f11", "toggle_fullscreen", "F11", "full screen or window", EVERYWHERE)
ALL_KEYS = Binding(
    "f1", "show_shortcuts", "F1, ?", "this list of keys", EVERYWHERE, footer="F1 all keys", when="shortcuts_closed"
)
ALL_KEYS_TYPED = Binding("?", "show_shortcuts", when="not_typing")
SETTINGS = Binding(
    "f2", "show_settings", "F2", "settings: sound, colours, text size", EVERYWHERE, when="settings_closed"
)
MUTE = Binding("m", "toggle_mute", "M", "sound on or off", EVERYWHERE, when="not_typing_a_command")
GLOBAL = Bindings(ALL_KEYS, ALL_KEYS_TYPED, SETTINGS, MUTE, FULL_SCREEN)

#: The footers of the screens made of a form.
FORM = Bindings(MOVE, CHANGE, SELECT, BACK, ALL_KEYS)
SETUP = Bindings(MOVE, CHANGE, SELECT, PASTE_GAME, BACK, ALL_KEYS)
