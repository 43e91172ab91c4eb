"""The thinking view: what the computer to move is doing, several times a second.

It reads the agent's :meth:`~engine.agents.base.Agent.progress` snapshot
(the agent publishes it from inside its search; reading costs the search
nothing) and shows the depth or iterations, the speed, the current best
column, the principal variation as faint numbered discs on the board, and -
for agents that sample - the share of the visits each column got, as bars
above the board.
"""

from __future__ import annotations

import pygame

from engine.agents.base import Agent
from engine.board import Board
from engine.progress import Progress
from game import drawing
from game.board_view import BoardView
from game.model import Colour
from game.theme import ACCENT, DISC, FAINT, MUTED, PANEL, TEXT, Theme

#: Seconds between two looks at the search.
READ_EVERY = 0.2
#: The principal variation drawn on the board, at most this many moves.
PV_DISCS = 8
PV_ALPHA = 95


class ThinkingPanel:
    """The latest progress snapshot of the thinking agent, and how to draw it."""

    def __init__(self) -> None:
        self.snapshot: Progress | None = None
        self._next_read = 0.0

    def update(self, now: float, agent: Agent | None) -> bool:
        """Look at ``agent``'s search if it is time (None: nobody thinks); True if there is something new."""
        if agent is None:
            changed, self.snapshot = self.snapshot is not None, None
            return changed
        if now < self._next_read:
            return False
        self._next_read = now + READ_EVERY
        snapshot = agent.progress()
        if snapshot is None:  # finished (its move waits to be shown) or nothing published: keep the last look
            return False
        self.snapshot = snapshot
        return True

    def reset(self) -> None:
        self.snapshot, self._next_read = None, 0.0

    def summary(self) -> str:
        """``depth 12 · 1.4M nodes/s · best 4 · line 4 3 5``: the status line while a computer thinks.

        An exact solve says so, with the positions searched so far: ``exact solve · 15.2M
        positions`` (the player's panel says "Solving exactly" beside its clock).
        """
        s = self.snapshot
        if s is None:
            return ""
        if s.exact:  # no depth nor best column until it ends: the work done so far is the news
            return f"exact solve · {compact(s.nodes)} positions"
        parts = []
        if s.unit == "nodes":
            if s.depth:
                parts.append(f"depth {s.depth}")
            parts.append(f"{compact(s.rate)} nodes/s")
        else:
            parts.append(f"{compact(s.nodes)} {s.unit}")
            parts.append(f"{compact(s.rate)}/s")
            if s.depth:
                parts.append(f"depth {s.depth}")
        if s.best_column is not None:
            parts.append(f"best column {s.best_column + 1}")  # its line is drawn on the board
        return " · ".join(parts)

    # -- drawing ---------------------------------------------------------------------------
    def line(self, board: Board, colour: Colour) -> list[tuple[int, int, Colour, int]]:
        """The principal variation's discs where they would land: ``(col, row, colour, number)``;
        ``colour`` moves first."""
        s = self.snapshot
        if s is None or not s.pv:
            return []
        probe, discs = board.copy(), []
        for number, col in enumerate(s.pv[:PV_DISCS], start=1):
            if probe.is_over or not probe.is_legal(col):
                break
            discs.append((col, probe.height(col), colour, number))
            probe.play(col)
            colour = colour.other
        return discs

    def draw_line(self, surface: pygame.Surface, theme: Theme, view: BoardView, board: Board, colour: Colour) -> None:
        """The principal variation as faint numbered discs where they would land; ``colour`` moves first."""
        radius = max(4, round(view.cell * 0.4) - 1)
        size = view.cell * 0.3 / theme.scale  # a design size that comes out at 30 % of a cell
        for col, row, disc_colour, number in self.line(board, colour):
            image = drawing.disc(DISC[disc_colour], radius, PV_ALPHA)
            x, y = view.cell_centre(col, row)
            surface.blit(image, image.get_rect(center=(round(x), round(y))))
            theme.draw_text(surface, str(number), size, (x, y), TEXT, bold=True, anchor="center")

    def draw_shares(self, surface: pygame.Surface, theme: Theme, view: BoardView, strip: pygame.Rect) -> None:
        """Bars of the visit share per column along the bottom of ``strip`` (agents that sample)."""
        s = self.snapshot
        if s is None or s.visit_shares is None:
            return
        px = theme.px
        top = max((share for share in s.visit_shares if share is not None), default=0.0) or 1.0
        for col, share in enumerate(s.visit_shares):
            if share is None:
                continue
            x, _ = view.cell_centre(col, 0)
            back = pygame.Rect(0, 0, view.cell - px(12), px(9))  # the most visited column fills its bar
            back.midbottom = (round(x), strip.bottom - px(3))
            pygame.draw.rect(surface, PANEL, back, border_radius=px(3))
            fill = back.copy()
            fill.width = max(1, round(back.width * share / top))
            pygame.draw.rect(surface, ACCENT if col == s.best_column else FAINT, fill, border_radius=px(3))
            theme.draw_text(surface, f"{share * 100:.0f}%", 11, (x, back.top - px(2)), MUTED, anchor="midbottom")


def compact(number: float) -> str:
    """1234 -> 1.2k, 5600000 -> 5.6M."""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if number >= limit:
            return f"{number / limit:.1f}{suffix}"
    return str(int(number))
