"""Falling discs: gravity and a small bounce, advanced by the fixed-step update.

Positions are in *rows* (row 0 is the bottom row), not pixels, so an
animation survives a window resize and reads the same on every board size.
The board's state changes the moment a move is played; the animation is only
what the eye sees, so it never holds up the game or the input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.settings import Colour

GRAVITY = 75.0  # rows per second squared: a full 6-row drop takes about 0.4 s
RESTITUTION = 0.22  # the share of the speed a disc keeps when it bounces
SETTLE_SPEED = 2.0  # rows per second: a slower bounce is not worth showing
MAX_BOUNCES = 2


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

    def update(self, dt: float) -> None:
        if self.done:
            return
        self.velocity -= GRAVITY * dt
        self.y += self.velocity * dt
        if self.y > self.row:
            return
        self.y = float(self.row)
        speed = -self.velocity * RESTITUTION
        if speed < SETTLE_SPEED or self.bounces >= MAX_BOUNCES:
            self.velocity, self.done = 0.0, True
        else:
            self.velocity, self.bounces = speed, self.bounces + 1


class Animations:
    """The discs in flight, and a clock for pulsing highlights."""

    def __init__(self) -> None:
        self.falling: list[FallingDisc] = []
        self.clock = 0.0

    def drop(self, col: int, row: int, colour: Colour, start: float) -> None:
        self.falling.append(FallingDisc(col, row, colour, start))

    def cancel(self, cells: list[tuple[int, int]]) -> None:
        """Forget the animations of discs that were taken back."""
        self.falling = [disc for disc in self.falling if (disc.col, disc.row) not in cells]

    def clear(self) -> None:
        self.falling.clear()

    def finish(self) -> None:
        """Land every falling disc at once (a new move is about to start its own fall)."""
        self.falling.clear()

    def update(self, dt: float) -> None:
        self.clock += dt
        for disc in self.falling:
            disc.update(dt)
        self.falling = [disc for disc in self.falling if not disc.done]

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
