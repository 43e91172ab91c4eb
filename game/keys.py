"""Which key presses reach the scenes: held keys never act twice, and never on a screen they did not open.

Keyboard auto-repeat sends a new KEYDOWN every few hundredths of a second
while a key is held. That is welcome for moving (the arrows, Backspace) but
not for acting: a held Enter would press "Quick game" and then drop a disc on
the board it opened. So the app passes every key event through a
:class:`KeyFilter`:

- a repeat of a key that acts (anything but :data:`REPEATING`) is dropped;
  the repeats that pass have ``event.repeat`` set (a scene where an arrow
  acts, as Down drops a disc on the board, ignores them);
- a key that was already down when the screen changed is ignored until it is
  released, so the press that opened a screen never acts inside it;
- the second press of a double click whose first press opened a screen is
  ignored, so a double-clicked "Quick game" does not also drop a disc.

pygame makes its repeats itself and marks them in no way, so a repeat is
recognised as a KEYDOWN of a key that has had no KEYUP since its last KEYDOWN.
"""

from __future__ import annotations

import pygame

#: A second press this soon after the one that opened a screen, and this close to it, is a double click.
DOUBLE_CLICK_SECONDS = 0.5
DOUBLE_CLICK_PIXELS = 8

#: Keys whose auto-repeat is delivered: they move a cursor or a focus, or delete a character.
REPEATING = frozenset({pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_TAB, pygame.K_BACKSPACE})


class KeyFilter:
    """Remembers which keys are down; :meth:`accept` says whether a scene should see an event."""

    def __init__(self) -> None:
        self._down: set[int] = set()
        self._stale: set[int] = set()  # down since before the current screen opened
        self._last_press: tuple[float, tuple[int, int]] | None = None  # time and place of the last mouse press
        self._opening_press: tuple[float, tuple[int, int]] | None = None  # the press that opened this screen

    def screen_changed(self) -> None:
        """A screen opened or closed: the keys held now belong to the screen before."""
        self._stale |= self._down
        self._opening_press = self._last_press

    def accept(self, event: pygame.event.Event, now: float = 0.0) -> bool:
        """False for an event no scene may act on; a KEYDOWN that passes has ``repeat`` set.

        ``now`` is the app's clock, for telling a double click from two clicks.
        """
        if event.type == pygame.MOUSEBUTTONDOWN:
            opening, self._opening_press = self._opening_press, None
            self._last_press = (now, event.pos)
            if opening is not None and now - opening[0] < DOUBLE_CLICK_SECONDS:
                (x, y), (ox, oy) = event.pos, opening[1]
                return abs(x - ox) > DOUBLE_CLICK_PIXELS or abs(y - oy) > DOUBLE_CLICK_PIXELS
            return True
        if event.type == pygame.KEYDOWN:
            event.repeat = event.key in self._down
            self._down.add(event.key)
            if event.key in self._stale:
                return False
            return not event.repeat or event.key in REPEATING
        if event.type == pygame.KEYUP:
            self._down.discard(event.key)
            self._stale.discard(event.key)
        elif event.type == pygame.WINDOWFOCUSLOST:  # a key released in another window sends no KEYUP here
            self._down.clear()
            self._stale.clear()
        return True


def is_repeat(event: pygame.event.Event) -> bool:
    """True for an auto-repeated KEYDOWN (only the :data:`REPEATING` keys get through as such)."""
    return bool(getattr(event, "repeat", False))
