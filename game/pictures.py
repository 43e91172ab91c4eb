"""Small pictures drawn with shapes: the logo, the mode cards, the player badges."""

from __future__ import annotations

import pygame

from game import drawing
from game.model import Colour, Mode
from game.theme import DISC, MUTED, Theme, look_cache, shade


def person(surface: pygame.Surface, centre: tuple[float, float], size: float, colour) -> None:
    """A head and shoulders."""
    x, y = centre
    pygame.draw.circle(surface, colour, (x, y - size * 0.22), size * 0.2)
    body = pygame.Rect(0, 0, size * 0.62, size * 0.5)
    body.midtop = (round(x), round(y + size * 0.02))
    pygame.draw.ellipse(surface, colour, body)
    pygame.draw.rect(surface, colour, (body.x, body.centery, body.width, body.height // 4))


def computer(surface: pygame.Surface, centre: tuple[float, float], size: float, colour) -> None:
    """A screen on a stand."""
    x, y = centre
    screen = pygame.Rect(0, 0, size * 0.62, size * 0.42)
    screen.center = (round(x), round(y - size * 0.08))
    pygame.draw.rect(surface, colour, screen, width=max(2, round(size * 0.07)), border_radius=round(size * 0.06))
    pygame.draw.rect(surface, colour, (x - size * 0.04, screen.bottom, size * 0.08, size * 0.12))
    pygame.draw.rect(
        surface, colour, (x - size * 0.18, screen.bottom + size * 0.1, size * 0.36, size * 0.06), border_radius=2
    )


@look_cache(maxsize=32)
def _badge(colour: Colour, radius: int, human: bool) -> pygame.Surface:
    big = radius * drawing.SUPERSAMPLE
    image = pygame.Surface((2 * big, 2 * big), pygame.SRCALPHA)
    (person if human else computer)(image, (big, big), big * 1.15, shade(DISC[colour], 0.42))
    image = pygame.transform.smoothscale(image, (2 * radius, 2 * radius))
    disc = drawing.disc(DISC[colour], radius, shape=False).copy()  # a cross or ring would cross the figure
    disc.blit(image, (0, 0))
    return disc


def badge(surface: pygame.Surface, centre: tuple[float, float], radius: int, colour: Colour, human: bool) -> None:
    """A player's disc with a person or a computer on it."""
    image = _badge(colour, radius, human)
    surface.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))


def mode_picture(mode: Mode, theme: Theme):
    """The picture of a mode card: two badges facing each other."""
    humans = {Mode.HUMAN_VS_AI: (True, False), Mode.SPECTATOR: (False, False), Mode.HOTSEAT: (True, True)}[mode]

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        radius = int(min(rect.height * 0.36, rect.width * 0.2))
        left = (rect.centerx - radius * 1.35, rect.centery)
        right = (rect.centerx + radius * 1.35, rect.centery)
        badge(surface, left, radius, Colour.RED, humans[0])
        badge(surface, right, radius, Colour.YELLOW, humans[1])
        theme.draw_text(surface, "vs", 15, rect.center, MUTED, bold=True, anchor="center")

    return draw


@look_cache(maxsize=4)
def _logo(cell: int) -> pygame.Surface:
    cols, rows, pad = 5, 4, round(cell * 0.22)
    frame = drawing.board_frame(cols, rows, cell, pad, round(cell * 0.4))
    image = pygame.Surface(frame.get_size(), pygame.SRCALPHA)
    radius = round(cell * 0.4) - 1
    for col, row, colour in LOGO_DISCS:
        disc = drawing.disc(DISC[colour], radius)
        centre = (pad + (col + 0.5) * cell, pad + (rows - 1 - row + 0.5) * cell)
        image.blit(disc, disc.get_rect(center=(round(centre[0]), round(centre[1]))))
    image.blit(frame, (0, 0))
    return image


#: A game just won by red on the diagonal: (col, row from the bottom, colour).
LOGO_DISCS = (
    *((i, i, Colour.RED) for i in range(4)),
    (1, 0, Colour.YELLOW),
    (2, 0, Colour.YELLOW),
    (2, 1, Colour.YELLOW),
    (3, 0, Colour.RED),
    (3, 1, Colour.YELLOW),
    (3, 2, Colour.YELLOW),
)


def logo(surface: pygame.Surface, midbottom: tuple[float, float], cell: int) -> pygame.Rect:
    """A small board where red has just connected four on the diagonal."""
    image = _logo(cell)
    rect = image.get_rect(midbottom=(round(midbottom[0]), round(midbottom[1])))
    drawing.shadow(surface, rect, round(cell * 0.35), blur=8, offset=6)
    surface.blit(image, rect)
    return rect
