"""The match's view: its layout, what each change redraws, and the drawing (which never changes state).

It reads the turn controller, the feeds and the controls. A change without
input (a move played, news from the search or the analysis) redraws only
what it touches: the panels, the headline, the move list, the buttons whose
looks changed and the board's cells whose picture differs from what the
window shows (:meth:`MatchView.board_changes`); showing the whole window
costs a real display several times more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.board_view import BoardView, Marks, Picture
from game.match import texts
from game.model import Colour
from game.panels.analysis import AnalysisPanel
from game.panels.move_list import MoveList, move_entries
from game.theme import Paint

if TYPE_CHECKING:
    from game.match.controls import MatchControls
    from game.match.feeds import Feeds
    from game.match.turns import TurnController
    from game.match_model import MatchModel
    from game.scene import Host
    from game.widgets import Button

Looks = dict["Button", tuple[tuple[object, ...], pygame.Rect]]


class MatchView:
    """Where everything of the match screen goes, and how it is drawn."""

    def __init__(self, app: Host, turns: TurnController, feeds: Feeds, controls: MatchControls) -> None:
        self.app, self.theme, self.tally = app, app.theme, app.tally
        self.turns, self.feeds, self.controls = turns, feeds, controls
        self.board = BoardView(turns.config.geometry)
        self.move_list = MoveList(app.theme)
        self.size = app.screen.get_size()
        self.panels: dict[Colour, pygame.Rect] = {}
        self.headline = self.board_area = pygame.Rect(0, 0, 0, 0)
        self.why = pygame.Rect(0, 0, 0, 0)  # where the Why? button goes while the analysis is shown
        self._listed: tuple[MatchModel, int] | None = None  # the model and version the move list shows
        self._board_shown: Picture | None = None  # what the window shows of the board (None: unknown)
        self._failure_shown: str | None = None  # the failure whose box the window shows

    def new_board(self) -> None:
        """The match goes on on a board of another size."""
        self.board = BoardView(self.turns.config.geometry)

    # -- layout ------------------------------------------------------------------------------------------
    def layout(self, size: tuple[int, int], analyzing: bool) -> None:
        px, analysis = self.theme.px, self.feeds.analysis
        width, height = size
        panel_width = min(px(330), width * 32 // 100)
        self.panels = {
            Colour.RED: pygame.Rect(px(18), px(16), panel_width, px(96)),
            Colour.YELLOW: pygame.Rect(width - px(18) - panel_width, px(16), panel_width, px(96)),
        }
        top = px(16) + px(96) + px(6)
        # The move list takes a strip on the right; the board keeps the same margin on the left,
        # so it stays centred (that strip is free for other panels).
        side = min(px(170), width * 17 // 100)
        bottom = height - px(76)
        # With the analysis on, the key to its short forms goes under the move list, in the same column.
        key = AnalysisPanel.key_height(self.theme) if analyzing else 0
        gap = px(10) if key else 0
        moves = pygame.Rect(width - px(18) - side, top + px(8), side, bottom - top - px(8) - key - gap)
        self.move_list.layout(moves)
        analysis.key = pygame.Rect(moves.x + px(4), moves.bottom + gap, side - px(4), key)
        config = self.turns.config
        if analyzing or any(player.spec for player in (config.red, config.yellow)):
            # A strip above the board for the analysis values and the visit-share bars of the thinking view.
            strip = px(36)
            analysis.strip = pygame.Rect(px(20) + side, top, width - px(40) - 2 * side, strip)
            top += strip
        self.board.layout(pygame.Rect(px(20) + side, top, width - px(40) - 2 * side, bottom - top))
        values = analysis.strip  # their caption: from the window's margin to the board
        analysis.label = pygame.Rect(px(18), values.y, self.board.frame.x - px(30), values.height)
        # The Why? button: under the caption, beside the board (the analysis' values say what; it says why).
        self.why = pygame.Rect(px(18), values.bottom + px(10), min(analysis.label.width, px(150)), px(46))
        # What animated frames redraw (see animated_area): the board with the space above it, the headline.
        frame, hand_y = self.board.frame, self.board.cell_centre(0, self.board.hand_row)[1]
        moving = pygame.Rect(frame.x, hand_y - self.board.cell, frame.width, frame.bottom - hand_y + self.board.cell)
        self.board_area = moving.inflate(px(12), px(12))
        if analysis.strip.height:
            self.board_area.union_ip(analysis.strip)
        left, right = self.panels[Colour.RED], self.panels[Colour.YELLOW]
        self.headline = pygame.Rect(left.right, 0, right.left - left.right, left.bottom + px(6))
        self.size = size

    def toast_area(self, floor: int) -> pygame.Rect:
        """Where messages go (never over the board, the move list or the buttons, whose top is ``floor``): the
        strip left of the board; where that is too narrow for a few words a line, the band above the board (and
        left of the move list)."""
        px, frame = self.theme.px, self.board.frame
        strip = pygame.Rect(px(12), self.move_list.rect.y, frame.x - px(24), floor - self.move_list.rect.y)
        if strip.width >= self.theme.font(15).size("a message of words")[0] + px(36):
            return strip
        return pygame.Rect(px(12), 0, self.move_list.rect.x - px(24), frame.y)

    # -- what a change redraws ---------------------------------------------------------------------------
    def changes(self, before: Looks, after: Looks, analyzing: bool) -> list[pygame.Rect] | None:
        """The parts of the window a change of the match's state touches (None: all of it); ``before`` and
        ``after``: the buttons' looks on either side of the change. The move list is brought up to date."""
        analysis, model = self.feeds.analysis, self.turns.model
        parts = [*self.panels.values(), self.headline, analysis.strip, analysis.label]
        if self._listed != (model, model.version):  # the list is rebuilt only after a change
            self._listed = (model, model.version)
            parts += self.move_list.update(*move_entries(model))
        for looks, other in ((before, after), (after, before)):  # where a button changed, before and after
            parts += [bounds for button, (look, bounds) in looks.items() if other.get(button, ((),))[0] != look]
        if analyzing:
            parts.append(analysis.key)
        whole = self.turns.failure is not None or self._failure_shown is not None  # its box lies over several
        return None if whole else parts + self.board_changes()

    def board_changes(self) -> list[pygame.Rect]:
        """The parts of the board whose picture differs from what the window shows."""
        picture, shown = self._board_picture(), self._board_shown
        if picture is None or shown is None:
            return [self.board_area]
        return [self.board.part_area(part) for part, look in picture.items() if shown.get(part) != look]

    def _board_picture(self) -> Picture | None:
        turns = self.turns
        line = self.feeds.thinking.line(turns.model.board, turns.model.colour_to_move) if self.search_shown else []
        extra = {(col, row): (colour, number) for col, row, colour, number in line}
        return self.board.picture(turns.model.owner, turns.animations, self.marks(), extra)

    @property
    def search_shown(self) -> bool:
        """The thinking view draws the search on the board (once the last disc has landed)."""
        return self.turns.thinking and self.turns.animations.idle

    def shown(self, area: list[pygame.Rect] | None) -> None:
        """Remember what the window now shows of the board (a part only partly shown: unknown)."""
        if area is None:
            self._failure_shown = self.turns.failure
        elif self.board_area.collidelist(area) == -1:
            return  # none of the board was shown
        picture = self._board_picture()
        if area is None or picture is None or any(rect.contains(self.board_area) for rect in area):
            self._board_shown = picture
            return
        if self._board_shown is None:
            return  # unknown until it is shown whole
        for part, look in picture.items():
            if self._board_shown.get(part) == look:
                continue  # what is shown of it is the same either way
            rect = self.board.part_area(part)
            if any(shown.contains(rect) for shown in area):
                self._board_shown[part] = look
            elif rect.collidelist(area) != -1:
                self._board_shown.pop(part, None)

    def animated_area(self) -> list[pygame.Rect]:
        """The board while a disc falls or a mark breathes, the panel of a thinking computer (its clock),
        the headline while a message flashes."""
        turns, area = self.turns, []
        if (turns.hint is not None or turns.over_since is not None) and turns.pulsing:
            area.append(self.board_area)
        else:  # only the columns of the falling discs: showing a narrow strip costs a fraction of the board
            area += [self._column_area(disc.col) for disc in turns.animations.falling]
        if turns.thinking:
            area.append(self.panels[turns.model.colour_to_move])
        if turns.flash:
            area.append(self.headline)
        return area

    def _column_area(self, col: int) -> pygame.Rect:
        """One column of the board's animated area: where a disc falling in it (and bouncing) is drawn."""
        x = round(self.board.cell_centre(col, 0)[0] - self.board.cell / 2)
        strip = pygame.Rect(x, self.board_area.y, self.board.cell, self.board_area.height)
        return strip.inflate(self.theme.px(4), 0)

    # -- drawing ----------------------------------------------------------------------------------------
    def marks(self) -> Marks:
        """What the board shows besides the discs: the disc in hand, a hint, the last move, the winning line."""
        turns = self.turns
        over = turns.model.board.is_over and turns.animations.idle
        winning = turns.model.winning_cells() if over else []
        return Marks(
            ghost=(self.controls.cursor, turns.model.colour_to_move) if turns.model.human_to_move else None,
            hint=turns.hint,
            last_move=turns.model.last_move if not winning else None,
            winning=winning,
            pulse=turns.animations.pulse() if turns.pulsing else 1.0,
        )

    def status(self) -> tuple[str, Paint]:
        """The headline: whose turn, who won, or what went wrong."""
        return texts.status(self.turns)

    def draw(self, surface: pygame.Surface, analyzing: bool, on_top: bool) -> None:
        """The whole match screen (``on_top``: nothing covers it, so the pointer's tip may show)."""
        turns, feeds, theme = self.turns, self.feeds, self.theme
        self.app.draw_background(surface)
        self.board.draw(surface, turns.model.owner, turns.animations, self.marks())
        self.move_list.draw(surface)
        if self.search_shown:
            board = turns.model.board
            feeds.thinking.draw_line(surface, theme, self.board, board, turns.model.colour_to_move)
            feeds.thinking.draw_shares(surface, theme, self.board, feeds.analysis.strip)
        if analyzing:
            feeds.analysis.draw(surface, theme, self.board, turns.model.board.ply)
        for colour in Colour:
            texts.draw_player(self, surface, colour)
        texts.draw_status(self, surface)
        if turns.failure:
            texts.draw_error(self, surface)
        self.controls.form.draw(surface)
        if on_top:
            texts.draw_spec_tip(self, surface, self.controls.pointer)
