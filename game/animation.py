"""Falling discs: gravity and a small bounce, advanced by the fixed-step update.

Positions are in *rows* (row 0 is the bottom row), not pixels, so an
animation survives a window resize and reads the same on every board size.
The board's state changes the moment a move is played; the animation is only
what the eye sees, so it never holds up the game or the input. The player's
animation speed scales the discs' time (an infinite speed puts them in place
at once); :meth:`Animations.update` reports the discs that touched down, for
the landing sound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.model import Colour

GRAVITY = 75.0  # rows per second squared: a full 6-row drop takes about 0.4 s
RESTITUTION = 0.22  # the share of the speed a disc keeps when it bounces
SETTLE_SPEED = 2.0  # rows per second: a slower bounce is not worth showing
MAX_BOUNCES = 2
HAND_ROW = 0.3  # how far above the top row the disc in hand floats (and a dropped disc starts), in rows


@dataclass
class FallingDisc:
    """One disc on its way down to ``(col, row)``, starting at height ``y``."""

    col: int
    row: int
    colour: Colour
    y: float
    velocity: float = 0.0
    bounces: int = 0
    done: bool = False

    def update(self, dt: float) -> bool:
        """Advance by ``dt``; True if the disc touched down for the first time."""
        if self.done:
            return False
        self.velocity -= GRAVITY * dt
        self.y += self.velocity * dt
        if self.y > self.row:
            return False
        self.y = float(self.row)
        landed = self.bounces == 0
        speed = -self.velocity * RESTITUTION
        if speed < SETTLE_SPEED or self.bounces >= MAX_BOUNCES:
            self.velocity, self.done = 0.0, True
        else:
            self.velocity, self.bounces = speed, self.bounces + 1
        return landed


class Animations:
    """The discs in flight, and a clock for pulsing highlights."""

    def __init__(self, speed: float = 1.0) -> None:
        self.falling: list[FallingDisc] = []
        self.clock = 0.0
        self.speed = speed  # disc time per game time; math.inf: no animation
        self._landed: list[FallingDisc] = []  # touched down since the last update

    def drop(self, col: int, row: int, colour: Colour, start: float) -> None:
        disc = FallingDisc(col, row, colour, start)
        if math.isinf(self.speed):  # no animation: in place at once (and heard landing at the next update)
            disc.y, disc.done = float(row), True
            self._landed.append(disc)
        else:
            self.falling.append(disc)

    def cancel(self, cells: list[tuple[int, int]]) -> None:
        """Forget the animations of discs that were taken back."""
        self.falling = [disc for disc in self.falling if (disc.col, disc.row) not in cells]
        self._landed = [disc for disc in self._landed if (disc.col, disc.row) not in cells]

    def clear(self) -> None:
        self.falling.clear()
        self._landed.clear()

    def finish(self) -> None:
        """Land every falling disc at once (a new move is about to start its own fall)."""
        self._landed += [disc for disc in self.falling if disc.bounces == 0 and disc.y > disc.row]  # still heard
        self.falling.clear()

    def update(self, dt: float) -> list[FallingDisc]:
        """Advance the discs by ``dt`` (times the speed); returns those that touched down."""
        self.clock += dt
        landed, self._landed = self._landed, []
        landed += [disc for disc in self.falling if disc.update(dt * self.speed)]
        self.falling = [disc for disc in self.falling if not disc.done]
        return landed

    @property
    def idle(self) -> bool:
        return not self.falling

    def in_flight(self, col: int, row: int) -> FallingDisc | None:
        for disc in self.falling:
            if (disc.col, disc.row) == (col, row):
                return disc
        return None

    def pulse(self, period: float = 1.2) -> float:
        """A value gliding between 0 and 1 and back, for highlights that breathe."""
        return 0.5 - 0.5 * math.cos(2 * math.pi * self.clock / period)
