"""Drawing primitives: backgrounds, panels with soft shadows, discs and the board frame.

Round shapes are drawn at several times their size and scaled down with
``smoothscale``, which anti-aliases their edges: the board and the discs stay
crisp at any window size. These images are built once per size (when the
window is resized) and cached (:func:`~game.theme.look_cache`: until the
look changes), never per frame.
"""

from __future__ import annotations

import pygame

from game.theme import (
    BOARD,
    BOARD_DARK,
    DIMMED,
    DISC,
    FOCUS,
    HOLE_RIM,
    PANEL,
    PANEL_BORDER,
    Paint,
    disc_symbol,
    look_cache,
    shade,
)

SUPERSAMPLE = 4


def vertical_gradient(size: tuple[int, int], top: Paint, bottom: Paint) -> pygame.Surface:
    """A surface filled with a top-to-bottom gradient."""
    width, height = size
    column = pygame.Surface((1, max(2, height)))
    for y in range(column.get_height()):
        t = y / (column.get_height() - 1)
        column.set_at((0, y), tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))
    return pygame.transform.scale(column, (max(1, width), max(1, height))).convert()


@look_cache(maxsize=64)
def _shadow(width: int, height: int, radius: int, blur: int, alpha: int) -> pygame.Surface:
    surface = pygame.Surface((width + 4 * blur, height + 4 * blur), pygame.SRCALPHA)
    pygame.draw.rect(surface, (0, 0, 0, alpha), (2 * blur, 2 * blur, width, height), border_radius=radius)
    return pygame.transform.gaussian_blur(surface, blur) if blur > 0 else surface


def shadow(surface: pygame.Surface, rect: pygame.Rect, radius: int, blur: int = 10, offset: int = 6, alpha=110) -> None:
    """A soft drop shadow under ``rect``."""
    image = _shadow(rect.width, rect.height, radius, blur, alpha)
    surface.blit(image, (rect.x - 2 * blur, rect.y - 2 * blur + offset))


def panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    radius: int,
    colour: Paint = PANEL,
    border: Paint | None = PANEL_BORDER,
    border_width: int = 1,
    *,
    raised: bool = True,
) -> None:
    """A rounded panel with an optional border and shadow."""
    if raised:
        blur, offset = _panel_shadow(radius)
        shadow(surface, rect, radius, blur=blur, offset=offset, alpha=90)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=border_width, border_radius=radius)


def _panel_shadow(radius: int) -> tuple[int, int]:
    """The blur and the offset of a raised panel's shadow."""
    return max(2, radius // 2), max(2, radius // 3)


def panel_bounds(rect: pygame.Rect, radius: int) -> pygame.Rect:
    """Where :func:`panel` draws for a raised panel: the panel and its shadow."""
    blur, offset = _panel_shadow(radius)
    return rect.union(rect.inflate(4 * blur, 4 * blur).move(0, offset))


@look_cache(maxsize=32)
def _translucent(size: tuple[int, int], colour: Paint, alpha: int, radius: int) -> pygame.Surface:
    layer = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(layer, (*colour, alpha), layer.get_rect(), border_radius=radius)
    return layer


def translucent(surface: pygame.Surface, rect: pygame.Rect, colour: Paint, alpha: int, radius: int = 0) -> None:
    """Fill ``rect`` with a see-through colour."""
    surface.blit(_translucent(tuple(rect.size), colour, alpha, radius), rect)


@look_cache(maxsize=64)
def disc(colour: Paint, radius: int, alpha: int = 255, shape: bool = True) -> pygame.Surface:
    """A playing disc: a bevelled rim, a recessed face and a soft highlight.

    In colour-blind mode the face also carries the shape of its side (a cross
    for red, a ring for yellow), so the two sides differ in more than hue;
    ``shape=False`` leaves it off (a badge draws a person or a computer there).
    """
    image = _paint_disc(colour, radius, disc_symbol(colour) if shape else None)
    if alpha < 255:
        image.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
    return image


def _paint_disc(colour: Paint, radius: int, symbol: str | None) -> pygame.Surface:
    big = radius * SUPERSAMPLE
    image = pygame.Surface((2 * big, 2 * big), pygame.SRCALPHA)
    centre = (big, big)
    pygame.draw.circle(image, shade(colour, 0.62), centre, big)  # outer edge
    pygame.draw.circle(image, colour, centre, round(big * 0.93))  # rim
    pygame.draw.circle(image, shade(colour, 0.80), centre, round(big * 0.73))  # groove between rim and face
    pygame.draw.circle(image, shade(colour, 0.96), centre, round(big * 0.66))  # face
    highlight = pygame.Surface(image.get_size(), pygame.SRCALPHA)
    pygame.draw.circle(highlight, (255, 255, 255, 46), (round(big * 0.78), round(big * 0.72)), round(big * 0.5))
    pygame.draw.circle(highlight, (255, 255, 255, 30), (round(big * 0.70), round(big * 0.62)), round(big * 0.28))
    image.blit(highlight, (0, 0))
    if symbol is not None:
        _symbol(image, symbol, shade(colour, 0.35), big)
    return pygame.transform.smoothscale(image, (2 * radius, 2 * radius))


def _symbol(image: pygame.Surface, symbol: str, colour: Paint, big: int) -> None:
    """A dark cross or ring on a disc face drawn at ``big`` (the supersampled radius)."""
    width = round(big * 0.16)
    if symbol == "cross":
        arm = big * 0.36
        for dx in (-arm, arm):
            pygame.draw.line(image, colour, (big - dx, big - arm), (big + dx, big + arm), width)
            for end in ((big - dx, big - arm), (big + dx, big + arm)):  # rounded ends
                pygame.draw.circle(image, colour, end, width / 2)
    else:
        pygame.draw.circle(image, colour, (big, big), round(big * 0.42), width)


@look_cache(maxsize=16)
def dimmed_disc(colour: Paint, radius: int) -> pygame.Surface:
    """A disc that steps back, for the discs outside the winning line: its side's dimmed colour
    (see theme.DIMMED), with the side's shape in colour-blind mode."""
    side = next((side for side, ink in DISC.items() if ink == colour), None)
    return _paint_disc(shade(colour, 0.75) if side is None else DIMMED[side], radius, disc_symbol(colour))


@look_cache(maxsize=4)
def board_frame(cols: int, rows: int, cell: int, pad: int, hole: int) -> pygame.Surface:
    """The blue frame with a see-through hole per cell (discs are drawn behind it).

    Drawn at 3x and scaled down, so the holes have smooth edges; the light
    falls from the top, and each hole has a darker rim that gives it depth.
    """
    scale = 3
    width, height = cols * cell + 2 * pad, rows * cell + 2 * pad
    big_w, big_h = width * scale, height * scale
    frame = pygame.Surface((big_w, big_h), pygame.SRCALPHA)
    # the face of the board: a gentle gradient from light (top) to dark (bottom)
    face = vertical_gradient((big_w, big_h), shade(BOARD, 1.10), BOARD_DARK).convert_alpha()
    mask = pygame.Surface((big_w, big_h), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=round(pad * 1.6 * scale))
    for col in range(cols):
        for row in range(rows):
            centre = ((pad + col * cell + cell / 2) * scale, (pad + row * cell + cell / 2) * scale)
            pygame.draw.circle(face, HOLE_RIM, centre, (hole + max(2, cell * 0.05)) * scale)
            pygame.draw.circle(mask, (0, 0, 0, 0), centre, hole * scale)
    frame.blit(face, (0, 0))
    frame.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    edge = pygame.Surface((big_w, big_h), pygame.SRCALPHA)
    pygame.draw.rect(
        edge,
        (*shade(BOARD, 1.35), 120),
        edge.get_rect(),
        width=max(2, scale * 2),
        border_radius=round(pad * 1.6 * scale),
    )
    frame.blit(edge, (0, 0))
    return pygame.transform.smoothscale(frame, (width, height))


def ring(surface: pygame.Surface, colour: Paint, centre: tuple[float, float], radius: float, width: int, alpha=255):
    """An anti-aliased ring, optionally see-through."""
    if alpha >= 255:
        pygame.draw.aacircle(surface, colour, centre, radius, width)
        return
    size = round(2 * radius + 4)
    layer = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.aacircle(layer, (*colour, alpha), (size / 2, size / 2), radius, width)
    surface.blit(layer, (centre[0] - size / 2, centre[1] - size / 2))


def border_colour(focused: bool, hovered: bool) -> Paint:
    """The outline of a control: bright when it has the keyboard focus."""
    if focused:
        return FOCUS
    return shade(PANEL_BORDER, 1.25) if hovered else PANEL_BORDER


def backdrop(size: tuple[int, int], top: Paint, bottom: Paint) -> pygame.Surface:
    """The background of every screen: a gradient lit by a soft glow from the top."""
    image = vertical_gradient(size, top, bottom)
    width, height = size
    small = (max(8, width // 8), max(8, height // 8))  # drawn small, blurred and scaled up: smooth and cheap
    glow = pygame.Surface(small, pygame.SRCALPHA)
    pygame.draw.ellipse(glow, (92, 142, 255, 34), (small[0] * 0.15, -small[1] * 0.35, small[0] * 0.7, small[1] * 0.8))
    glow = pygame.transform.gaussian_blur(glow, max(2, small[0] // 12))
    image.blit(pygame.transform.smoothscale(glow, size), (0, 0))
    return image
