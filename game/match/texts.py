"""The words of the match screen: the headline and the line under it, the players' panels, the failure box.

Functions of the view they draw in (:class:`~game.match.view.MatchView`, as
far as :class:`Layout` says); they read the turn controller and change nothing.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

import pygame

from game import drawing, pictures
from game.labels import agent_words, fit_agent, fit_headline, fit_parts
from game.model import Colour, Mode, plural
from game.panels.thinking import compact
from game.theme import ACCENT, ALERT, DANGER, FAINT, MUTED, PANEL, PANEL_LIGHT, SUCCESS, TEXT, Paint

if TYPE_CHECKING:
    from engine.agents.base import SearchResult
    from game.match.feeds import Feeds
    from game.match.turns import TurnController
    from game.panels.move_list import MoveList
    from game.tally import Tally
    from game.theme import Theme


class Layout(Protocol):
    """What the words are drawn from: the match, its feeds, and where the players' panels are."""

    theme: Theme
    tally: Tally
    turns: TurnController
    feeds: Feeds
    panels: dict[Colour, pygame.Rect]
    headline: pygame.Rect  # the room of the headline and the line under it
    move_list: MoveList


def status(turns: TurnController) -> tuple[str, Paint]:
    """The headline: whose turn, who won, or what went wrong."""
    board, config, mode = turns.model.board, turns.config, turns.mode
    if board.is_over and turns.animations.idle:
        winner = turns.model.winner
        if winner is None:
            return "Draw: the board is full", TEXT
        if mode is Mode.HUMAN_VS_AI:
            you = config.player(winner).is_human
            return ("You win!", SUCCESS) if you else ("The computer wins", DANGER)
        return f"{config.player(winner).title} wins!", SUCCESS
    if board.is_over:
        return "…", TEXT
    if turns.failure:
        return "The computer failed", DANGER
    player = turns.model.player_to_move
    if turns.spectator.paused:
        return "Paused", TEXT
    if player.is_human:
        return ("Your turn", TEXT) if mode is Mode.HUMAN_VS_AI else (f"{player.title} to play", TEXT)  # a name if given
    thinker = "The computer" if mode is Mode.HUMAN_VS_AI else player.colour.label
    return f"{thinker} is {'getting ready' if turns.preparing else 'thinking'}…", TEXT


def detail(view: Layout) -> tuple[str, Paint]:
    """The line under the headline: a message, the hint, the preparing, the search, or the move number."""
    turns, thinking = view.turns, view.feeds.thinking
    if turns.flash:
        return turns.flash, DANGER
    if turns.hint_text:
        return turns.hint_text, ACCENT
    if turns.preparing:  # (first what a game's first move needs, then, from its second move, the rest)
        player = turns.model.player_to_move.agent_label
        part = f"{player}'s first move" if turns.model.board.ply <= 1 else f"the rest of {player}"
        return f"First start: preparing {part}, once only", ACCENT
    if turns.thinking and thinking.summary():
        return f"{turns.model.colour_to_move.label}: {thinking.summary()}", ACCENT
    geometry, ply = turns.config.geometry, turns.model.board.ply
    if turns.model.board.is_over:
        text = f"Game over after {plural(ply, 'move')}"
    else:
        text = f"Move {ply + 1} · {geometry.cols}×{geometry.rows}, {geometry.connect} in a row"
    if turns.spectator.series is not None:
        text = f"{turns.spectator.series.describe()} · {text}"
    return text, MUTED


def draw_status(view: Layout, surface: pygame.Surface) -> None:
    theme, px = view.theme, view.theme.px
    centre_x = surface.get_width() / 2
    title, colour = status(view.turns)
    left, right = view.panels[Colour.RED].right + px(12), view.panels[Colour.YELLOW].left - px(12)
    size = next((size for size in (24, 21, 18) if theme.font(size, True).size(title)[0] <= right - left), 16)
    theme.draw_text(
        surface,
        fit_headline(theme, title, size, right - left),
        size,
        (centre_x, px(28) + (px(24) - theme.px(size)) // 2),
        colour,
        bold=True,
        anchor="midtop",
    )
    text, text_colour = detail(view)
    text, small, wrap = detail_layout(theme, text, right - left, view.headline.bottom - px(68))
    theme.draw_text(surface, text, small, (centre_x, px(68)), text_colour, anchor="midtop", wrap=wrap)


def detail_layout(theme: Theme, text: str, width: int, height: int) -> tuple[str, float, int]:
    """The line under the headline as it fits ``width`` x ``height`` pixels: ``(text, size, wrap width)``.
    Smaller, then on two lines, before it is shortened (a long hint or search summary stays whole)."""
    for size in (15, 13):
        if theme.font(size).size(text)[0] <= width:
            return text, size, 0
    if theme.text(text, 13, MUTED, wrap=width).get_height() <= height:
        return text, 13, width
    return theme.fit_text(text, 13, width), 13, 0


def wins_label(count: int) -> str:
    """The word under a player's score: "1 win", "2 wins"."""
    return "win" if count == 1 else "wins"


def name_size(theme: Theme, name: str, width: int) -> float:
    """The size a player's name is drawn at: a size or two smaller before it is shortened ("Yellow player"
    stays whole at 150 % text)."""
    return next((size for size in (18, 16, 14) if theme.font(size, True).size(name)[0] <= width), 18)


def draw_player(view: Layout, surface: pygame.Surface, colour: Colour) -> None:
    theme, px, turns = view.theme, view.theme.px, view.turns
    rect, player = view.panels[colour], turns.config.player(colour)
    active = not turns.model.board.is_over and turns.model.colour_to_move is colour
    winner = turns.model.board.is_over and turns.model.winner is colour and turns.animations.idle
    border = SUCCESS if winner else ACCENT if active else None
    drawing.panel(surface, rect, px(14), PANEL_LIGHT if active or winner else PANEL, border, 3 if border else 1)
    radius = px(26)
    pictures.badge(surface, (rect.x + px(16) + radius, rect.centery), radius, colour, player.is_human)
    x = rect.x + px(28) + 2 * radius
    width = rect.right - px(12) - x
    tally = view.tally
    if tally.games:  # the score so far: this player's wins, at the right end of the panel
        centre = (rect.right - px(30), rect.y + px(38))
        wins = tally.wins(colour)
        theme.draw_text(surface, str(wins), 28, centre, TEXT, bold=True, anchor="center")
        theme.draw_text(surface, wins_label(wins), 12, (centre[0], centre[1] + px(18)), MUTED, anchor="midtop")
        width -= px(52)
    size = name_size(theme, player.name, width)
    theme.draw_text(
        surface, theme.fit_text(player.name, size, width, bold=True), size, (x, rect.y + px(12)), TEXT, bold=True
    )
    guess = player.spec is not None and turns.services.catalog.guesses(player.spec, turns.config.geometry)
    extra = ("best guess" if guess else "", "moves first" if colour is turns.config.first else "")
    label = fit_agent(theme, player.spec, 14, width, " · ".join(filter(None, extra)))
    theme.draw_text(surface, label, 14, (x, rect.y + px(38)), MUTED)

    line_y = rect.y + px(62)
    if active and turns.thinking:
        draw_thinking(view, surface, (x, line_y), x + width)
    elif active and turns.spectator.paused:
        theme.draw_text(surface, "Paused", 14, (x, line_y), ACCENT, bold=True)
    elif active and player.is_human:
        words = "Your move" if turns.mode is Mode.HUMAN_VS_AI else "To move"
        theme.draw_text(surface, words, 14, (x, line_y), ACCENT, bold=True)
    else:
        result = turns.model.last_result(colour)
        if result is not None:
            theme.draw_text(surface, fit_parts(theme, describe_result(result), 13, width), 13, (x, line_y), MUTED)


def draw_thinking(view: Layout, surface: pygame.Surface, pos: tuple[int, int], right: int) -> None:
    """The clock and the dots, within the panel (whose area is all an animated frame redraws)."""
    theme, px, turns = view.theme, view.theme.px, view.turns
    elapsed = turns.time - turns.computer.asked_at
    snapshot = view.feeds.thinking.snapshot
    doing = "Preparing" if turns.preparing else "Solving exactly" if snapshot and snapshot.exact else "Thinking"
    text = theme.fit_text(f"{doing}  {elapsed:4.1f} s", 14, right - pos[0], bold=True)
    label = theme.draw_text(surface, text, 14, pos, ACCENT, bold=True)
    for index in range(3):  # three dots taking turns to swell, like a chat "typing" sign
        phase = 0.5 + 0.5 * math.sin(turns.time * 6.0 - index * 0.9)
        centre = (label.right + px(12) + index * px(13), label.centery)
        if centre[0] + px(5) > right:
            break  # a narrow panel: the clock alone
        colour = tuple(round(f + (a - f) * phase) for f, a in zip(FAINT, ACCENT, strict=True))
        pygame.draw.circle(surface, colour, centre, px(2.5) + phase * px(2))


def draw_spec_tip(view: Layout, surface: pygame.Surface, pointer: tuple[int, int]) -> None:
    """The whole spec of the computer whose panel the pointer is over, under that panel."""
    colour = next((colour for colour, rect in view.panels.items() if rect.collidepoint(pointer)), None)
    if colour is None:
        return
    spec = view.turns.config.player(colour).spec
    if spec is None or not agent_words(spec)[1]:
        return  # a person, or an engine without settings: the panel shows all there is
    theme, px, panel = view.theme, view.theme.px, view.panels[colour]
    text = theme.text(spec.replace(",", ", "), 14, TEXT, wrap=max(panel.width, px(320)) - px(24))
    tip = text.get_rect().inflate(px(24), px(16))
    tip.topleft = (panel.x, panel.bottom + px(6))
    tip.right = min(tip.right, surface.get_width() - px(8))
    drawing.panel(surface, tip, px(8), PANEL_LIGHT, ACCENT, 1)
    surface.blit(text, text.get_rect(center=tip.center))


def error_box(view: Layout, width: int) -> tuple[pygame.Rect, pygame.Surface]:
    """Where the failure's red box goes in a window ``width`` pixels wide, and its text: over the space
    above the board, between the side strips (never over the move list, whose header stays readable)."""
    theme, px = view.theme, view.theme.px
    strips = width - view.move_list.rect.x  # the move list's strip on the right, as wide on the left
    room = min(px(760), width - 2 * strips - px(16))
    text = theme.text(view.turns.failure or "", 15, TEXT, wrap=room - px(40))
    rect = pygame.Rect(0, 0, room, text.get_height() + px(24))
    rect.midtop = (width // 2, px(122))  # over the space above the board, free meanwhile
    return rect, text


def draw_error(view: Layout, surface: pygame.Surface) -> None:
    rect, text = error_box(view, surface.get_width())
    drawing.panel(surface, rect, view.theme.px(10), ALERT, DANGER, 2)
    surface.blit(text, text.get_rect(center=rect.center))


def describe_result(result: SearchResult) -> str:
    """A computer move's statistics in a few words: column, exact or estimate, depth, time, positions searched
    (a narrow panel leaves out whole words from the end)."""
    parts = [f"col {result.column + 1}"]
    if result.exact is not None:
        parts.append("exact" if result.exact else "estimate")
    if result.depth is not None:
        parts.append(f"depth {result.depth}")
    parts.append(f"{result.seconds:.1f} s")
    if result.nodes > 1:
        parts.append(f"{compact(result.nodes)} nodes")
    return " · ".join(parts)
