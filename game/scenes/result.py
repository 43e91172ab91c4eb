"""The result, as a banner over the top of the finished match: rematch, change the settings, or the menu.

The banner covers only the players' panels (it says who won), so the board
and its highlighted winning line stay in view. Escape closes it to look at
the final position; the match screen offers the result again from its
buttons. What stays visible stays alive: a click outside the banner (a
button of the match, the board) and the keys of a spectator (Space, G, P,
F, X) close it and act on the match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game import drawing
from game.bindings import BACK, Binding, Bindings
from game.labels import fit_headline
from game.match import sharing
from game.model import Colour, Mode
from game.records import totals
from game.scene import Host, Scene
from game.theme import DISC, MUTED, PANEL, SUCCESS, TEXT
from game.widgets import Button, Form

if TYPE_CHECKING:
    from game.match.turns import TurnController


class ResultOverlay(Scene):
    """The banner over the finished ``match`` (its turn controller: the banner reads it and shares its game).

    It closes with what the player chose for the match to do: ``"rematch"``,
    ``"review"``, or a key of the match's own (undo, a new game, the
    analysis), which closes the banner and then acts on the match.
    """

    name = "result"
    overlay = True
    bindings = Bindings(
        Binding("ctrl+s", "press_save", button="Ctrl+S"),
        Binding("ctrl+c", "copy_position"),
        Binding("ctrl+v", "paste_position"),
        Binding("r", "rematch"),
        Binding("v", "open_review", button="V"),  # the match's Review button says the same
        Binding("u backspace n a ctrl+z", "pass_to_match", with_event=True),
        # two computers: the spectator's keys (next game, series, speed, players, swap) act on the match
        Binding("space g p f x", "pass_to_match", with_event=True, when="spectating"),
        BACK,
    )

    def __init__(self, app: Host, match: TurnController) -> None:
        super().__init__(app)
        self.match = match
        starts = match.config.first.other.label
        self.again = Button("Rematch", self.rematch, primary=True, detail=f"{starts} moves first")
        self.settings = Button("Settings", self.change_settings, detail="F2")
        self.menu = Button("Main menu", self.main_menu)
        self.review = Button("Review", self.open_review, detail=self.bindings.hint("open_review"))
        self.save = Button("Save", self.save_game, detail=self.bindings.hint("press_save"))
        self.buttons = [self.again, self.review, self.save, self.settings, self.menu]
        self.form = Form(app.theme, self.buttons)
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.stacked = False
        # the two players' record over all their games (game.records), read once: drawing reads no file
        self._all_games = totals(app.settings_path, match.config)

    # -- actions ---------------------------------------------------------------------------------
    def rematch(self) -> None:
        self.dismiss("rematch")

    def open_review(self) -> None:
        self.dismiss("review")

    def pass_to_match(self, event: pygame.event.Event) -> None:
        """The match's own keys (undo the last move, a new game, the analysis) close the banner, then act."""
        self.dismiss(event)

    def spectating(self, event: pygame.event.Event) -> bool:
        return self.match.mode is Mode.SPECTATOR

    def copy_position(self) -> None:
        sharing.copy_position(self.app, self.match)

    def paste_position(self) -> None:
        """Ctrl+V: a new game from the pasted position (the banner stays if the text is not one)."""
        if sharing.paste_position(self.app, self.match):
            self.dismiss()

    def press_save(self) -> None:
        self.save.press()

    def save_game(self) -> None:
        sharing.save_game(self.app, self.match)
        self.save.enabled = False  # saved once; the match screen says where

    def change_settings(self) -> None:
        """The Settings screen (colours, sound, text size) over the banner, which stays for after."""
        self.app.open("settings")

    def main_menu(self) -> None:
        self.app.reset("menu")

    def handle_event(self, event: pygame.event.Event) -> None:
        """A click outside the banner (the board, the match's buttons) closes it and acts on the match."""
        outside = event.type == pygame.MOUSEBUTTONDOWN and not self.panel.collidepoint(event.pos)
        if outside:
            self.dismiss(event)
        elif not self.bindings.dispatch(self, event):
            self.form.handle_event(event)

    # -- layout and drawing -------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        """The buttons beside the headline when it fits there in full, else in a row under it."""
        theme, px = self.app.theme, self.app.theme.px
        # With a score to show, the panel grows a line along its bottom, under the buttons.
        self.panel = pygame.Rect(px(12), px(10), size[0] - 2 * px(12), px(108) + (px(28) if self.score() else 0))
        gap, height = px(10), px(60)
        widths = [px(170 if button.primary else 132) for button in self.buttons]
        scale = min(1.0, (self.panel.width * 2 // 3 - (len(widths) - 1) * gap) / sum(widths))
        x = self.panel.right - px(20) - sum(round(w * scale) for w in widths) - (len(widths) - 1) * gap
        room = x - self._text_left() - px(12)
        self.stacked = theme.font(28, True).size(self.headline(room)[0])[0] > room
        middle = self.panel.y + px(54)
        if self.stacked:
            self.panel.height += height + px(4)
            scale = (self.panel.width - px(40) - (len(widths) - 1) * gap) / sum(widths)
            x, middle = self.panel.x + px(20), middle + height + px(4)
        for button, width in zip(self.buttons, widths, strict=True):
            button.rect = pygame.Rect(x, middle - height // 2, round(width * scale), height)
            x += button.rect.width + gap

    def _text_left(self) -> int:
        """Where the headline starts, right of the winner's disc (or both discs for a draw)."""
        px = self.app.theme.px
        return self.panel.x + px(22) + (2 if self.match.model.winner is not None else 3) * px(24) + px(16)

    def headline(self, room: int | None = None) -> tuple[str, str]:
        """The title and the line under it; given the ``room`` in pixels, a computer's long label
        moves from the title to that line, or leaves it, so that both still say who won and how."""
        match = self.match
        winner, ply = match.model.winner, match.model.board.ply
        if winner is None:
            return "Draw!", "The board is full."
        in_moves = f"{match.config.geometry.connect} in a row on move {ply}."
        player = match.config.player(winner)
        if player.is_human:
            return "You win!" if match.mode is Mode.HUMAN_VS_AI else f"{player.title} wins!", in_moves
        title = "You lose" if match.mode is Mode.HUMAN_VS_AI else f"{player.colour.label} wins!"
        found = f"{player.agent_label} found {in_moves.lower()}"
        choices = [(title, found), (title, in_moves)]
        if match.mode is not Mode.HUMAN_VS_AI:
            choices.insert(0, (f"{player.colour.label} ({player.agent_label}) wins!", in_moves))
        theme = self.app.theme
        for title, detail in choices:
            if room is None or max(theme.font(28, True).size(title)[0], theme.font(15).size(detail)[0]) <= room:
                return title, detail
        return choices[-1]

    def score(self) -> str:
        """The tally line: ``Score: You 2 – 1 Medium`` (or the series' final score), then the two players'
        record over all their games when it holds more (``all games: 7 – 4, 2 draws``)."""
        tally, series = self.app.tally, self.match.spectator.series
        label = f"After {series.total} games" if series is not None and series.finished else "Score"
        line = f"{label}: {tally.describe(self.match.config)}" if tally.games else ""
        kept = self._all_games
        if line and kept is not None and sum(kept) > tally.games:
            draws = f", {kept[2]} draw{'s' if kept[2] != 1 else ''}" if kept[2] else ""
            line += f"   ·   all games: {kept[0]} – {kept[1]}{draws}"
        return line

    def draw(self, surface: pygame.Surface) -> None:
        theme, px = self.app.theme, self.app.theme.px
        drawing.translucent(surface, surface.get_rect(), (4, 8, 20), 70)  # the board stays readable
        winner = self.match.model.winner
        border = SUCCESS if winner is not None and self.match.config.player(winner).is_human else None
        drawing.panel(surface, self.panel, px(16), PANEL, border, 2)
        radius, centre_y = px(24), self.panel.y + px(54)
        x = self.panel.x + px(22)
        for index, colour in enumerate([winner] if winner is not None else [Colour.RED, Colour.YELLOW]):
            disc = drawing.disc(DISC[colour], radius)
            surface.blit(disc, disc.get_rect(midleft=(x + index * radius, centre_y)))
        x = self._text_left()
        room = (self.panel.right - px(20) if self.stacked else self.again.rect.x) - x - px(12)
        title, detail = self.headline(room)
        title_rect = theme.draw_text(
            surface,
            fit_headline(theme, title, 28, room),
            28,
            (x, centre_y + px(2)),
            TEXT,
            bold=True,
            anchor="bottomleft",
        )
        theme.draw_text(surface, theme.fit_text(detail, 15, room), 15, (x, title_rect.bottom + px(2)), MUTED)
        score = self.score()
        if score:
            left = self.panel.x + px(22)
            score = theme.fit_text(score, 16, self.panel.right - px(22) - left, bold=True)
            theme.draw_text(
                surface, score, 16, (left, self.panel.bottom - px(10)), TEXT, bold=True, anchor="bottomleft"
            )
        self.form.draw(surface)
