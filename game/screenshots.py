"""``python -m game.screenshots [DIR]``: the screenshots of the documentation.

Drives the real game - real scenes, real agents, the real worker thread -
with a clock that advances only when told to, so that every picture shows
the same moment on every run: the menu, the mode select, a custom agent
being configured, the board set-up, a spectator game while a computer
thinks, a won game with its line highlighted, the result panel, the
settings screen, the shortcuts card, the records against each opponent,
the saved games, the puzzles and the opening explorer
(:mod:`game.screenshots_trainer`), the won game again in high contrast
with disc shapes, and the Why screen in the colour-blind look with them.
It uses a throwaway settings file, never the player's own.
Works without a display (``SDL_VIDEODRIVER=dummy``) as well as on screen.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # no screen: the pictures are drawn all the same

import pygame

from game.app import App
from game.model import Colour, Look, Mode
from game.players import MatchConfig, player_for
from game.screenshots_trainer import shoot_trainer

SIZE = (880, 620)
#: A hotseat game that red wins on a diagonal with its last move.
WINNING_GAME = "12234334644"


class ManualClock:
    """A clock for the app that moves only when :meth:`advance` is called."""

    def __init__(self) -> None:
        self.time = 0.0

    def __call__(self) -> float:
        return self.time


class Director:
    """Runs the app frame by frame and saves pictures of it."""

    def __init__(self, out: Path, settings_file: Path) -> None:
        self.out = out
        self.clock = ManualClock()
        settings_file.write_text(f'{{"window_width": {SIZE[0]}, "window_height": {SIZE[1]}}}', encoding="utf-8")
        self.app = App(settings_path=settings_file, clock=self.clock, fps=0)
        if self.app.screen.get_size() != SIZE:  # the window was made to fit a smaller screen
            pygame.display.set_mode(SIZE, pygame.RESIZABLE)
            pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=SIZE, w=SIZE[0], h=SIZE[1]))

    def run(self, seconds: float, until=None, timeout: float = 300.0) -> None:
        """Advance the game by ``seconds`` of its time, 60 frames a second; or, given ``until``,
        until ``until()`` holds (at most ``timeout`` real seconds: agents think in real time)."""
        deadline = time.monotonic() + timeout
        frames = 0
        while (frames < seconds * 60) if until is None else (not until() and time.monotonic() < deadline):
            self.clock.time += 1 / 60
            self.app.step()
            frames += 1
            time.sleep(0.002)  # let the worker thread run
        if until is not None and not until():  # never shoot a moment other than the one asked for
            raise RuntimeError(f"the moment for the next screenshot did not come within {timeout:g} s")

    def shoot(self, name: str) -> None:
        path = self.out / f"{name}.png"
        self.app.save_screenshot(path)
        print(f"{path}  ({path.stat().st_size // 1024} KB)")

    def show(self, name: str, *args) -> Any:
        """Open the screen called ``name`` (with these arguments) and give it a moment; returns it."""
        self.app.open(name, *args)
        self.run(0.3)
        return self.app.scene

    def play_game(self, config: MatchConfig, moves: str) -> Any:
        """Show a match of ``config`` and play ``moves`` in it, the pointer over each column before its disc
        drops; returns the match screen."""
        match = self.show("match", config)
        for move in moves:
            column = int(move) - 1
            x, y = match.view.board.cell_centre(column, match.view.board.hand_row)
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y)), rel=(0, 0), buttons=()))
            self.run(0.05)
            match.turns.drop(column)
            self.run(0.25)
        self.run(0.6)
        return match

    def back_to_menu(self) -> None:
        self.app.reset("menu")
        self.run(0.1)


def strongest_presets(app: App, count: int) -> list[str]:
    names = [preset.name for preset in app.catalog.presets()] or ["random"]
    return (names[-count:] * count)[:count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.screenshots",
        description="The screenshots of the documentation, drawn by the real game at fixed moments.",
    )
    parser.add_argument("folder", nargs="?", default="docs/screenshots", help="where the PNGs go (default %(default)s)")
    out = Path(parser.parse_args(argv).folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        parser.error(f"cannot write to {out}: {exc.strerror or exc}")
    with tempfile.TemporaryDirectory() as folder:
        director = Director(out, Path(folder) / "settings.json")
        app = director.app
        director.run(0.2)
        app.catalog.wait(60)
        director.run(0.3)
        director.shoot("menu")

        director.show("mode_select")
        director.shoot("mode_select")
        app.settings.mode = Mode.SPECTATOR
        agents = director.show("agent_select")
        richest = max(app.catalog.agents(), key=lambda info: len(info.params))
        agents._pick_custom()
        agents._pick_agent(richest.name)
        director.run(0.1)
        director.shoot("agent_select")
        director.show("board_setup")
        director.shoot("board_setup")

        director.back_to_menu()
        red, yellow = strongest_presets(app, 2)
        geometry = app.settings.geometry()
        spectator = MatchConfig(
            player_for(Colour.RED, red, Mode.SPECTATOR), player_for(Colour.YELLOW, yellow, Mode.SPECTATOR), geometry
        )
        match = director.show("match", spectator)
        director.run(
            0,
            until=lambda: match.turns.model.moves_played >= 7 and match.turns.thinking and match.turns.animations.idle,
        )
        director.run(0.3)  # into the computer's move: the indicator shows its elapsed time
        director.shoot("match_thinking")

        director.back_to_menu()
        hotseat = MatchConfig(
            player_for(Colour.RED, None, Mode.HOTSEAT), player_for(Colour.YELLOW, None, Mode.HOTSEAT), geometry
        )
        match = director.play_game(hotseat, WINNING_GAME)
        director.shoot("match_won")
        director.run(1.0)
        director.shoot("result")
        shoot_review(director, match)
        shoot_why(director, geometry)
        shoot_analysis(director, geometry)
        shoot_thinking(director, geometry)

        director.back_to_menu()
        director.show("settings")
        director.shoot("settings")
        director.back_to_menu()
        director.show("shortcuts")
        director.shoot("shortcuts")
        shoot_records(director)  # (before the saved games: their deletion's message would show on it)
        shoot_saved_games(director, Path(folder) / "games", [(hotseat, WINNING_GAME), (spectator, "4453")])
        shoot_trainer(director)  # the puzzles and the opening explorer
        director.back_to_menu()
        app.settings.look, app.settings.colour_blind = Look.HIGH_CONTRAST, True
        app.settings_changed()
        director.play_game(hotseat, WINNING_GAME)
        director.shoot("match_high_contrast")
        app.settings.look = Look.COLOUR_BLIND
        app.settings_changed()
        open_why(director, geometry, EVERY_MARK)
        director.shoot("why_colour_blind")
        app.quit()
        app.close()
    return 0


def shoot_saved_games(director: Director, folder: Path, games) -> None:
    """The saved-games screen with a few games, the first one just deleted (its undo offered)."""
    from game import saves

    director.back_to_menu()
    for config, moves in games:
        saves.save(saves.SavedGame(config, moves), folder)
    screen = director.show("saved_games", folder)
    screen.subtitle = "In ~/.local/share/connect-four/games"  # where a Linux player's games are, not the scratch folder
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DELETE, mod=0, unicode="", scancode=0))
    director.run(0.3)
    director.shoot("saved_games")


#: The games of the records shot, beside the won hotseat game the run itself counts: (red, yellow, winners
#: in order, None for a draw, the board); a spec is a computer, any other name a person.
RECORDED_GAMES = (
    ("Ann", "medium", [Colour.RED, Colour.YELLOW, None, Colour.RED, Colour.RED], (7, 6, 4)),
    ("hard", "Ann", [Colour.RED, Colour.RED, Colour.YELLOW], (7, 6, 4)),
    ("Ann", "perfect", [None], (8, 8, 4)),
    ("Ann", "Ben", [None, Colour.YELLOW, Colour.YELLOW, Colour.YELLOW], (7, 6, 4)),
    ("easy", "expert", [Colour.YELLOW] * 6, (7, 6, 4)),
)


def shoot_records(director: Director) -> None:
    """The Records screen: a few pairs' won, drawn and lost games on their boards and their series, the
    newest first."""
    from engine.geometry import Geometry
    from game.records import path_for, records_at

    director.back_to_menu()
    records, _ = records_at(path_for(director.app.settings_path))  # the run's own, in its scratch folder
    specs = {preset.name for preset in director.app.catalog.presets()}
    for red, yellow, winners, board in RECORDED_GAMES:
        geometry = Geometry(*board)
        players = [
            player_for(colour, name, Mode.SPECTATOR) if name in specs else player_for(colour, None, Mode.HOTSEAT, name)
            for colour, name in ((Colour.RED, red), (Colour.YELLOW, yellow))
        ]
        for winner in winners:
            records.count(MatchConfig(players[0], players[1], geometry), winner)
    director.show("records")
    director.shoot("records")


def shoot_review(director: Director, match) -> None:
    """The review of the won hotseat game, at its worst move."""
    director.app.pop()  # the result banner
    director.run(0.1)
    match.show_review()
    director.run(0, until=lambda: match.feeds.review.current is not None and match.feeds.review.current.finished)
    review: Any = director.app.scene
    assert review.name == "review"
    reviews = review.reviews
    worst = max(reviews.values(), key=lambda item: (LABEL_ORDER.index(item.label), item.ply))
    review.go(worst.ply)
    director.run(0.2)
    director.shoot("review")


#: Red to move cannot win: Yellow's claimeven in columns 1 and 6 stops every line of Red's (docs/explain.md).
EXPLAINED = "3324524346452572767551333257727114"
#: The columns Red tries in the Show me shot: Yellow answers each on top of it (claimeven).
TRIED = (5, 5)


#: Red wins with column 5: after 5 6 4 (numbered discs), claimevens, a baseinverse, a before and a threat -
#: every kind of mark (shot in the colour-blind look, with the disc shapes).
EVERY_MARK = "376645334561"


def open_why(director: Director, geometry, moves: str) -> Any:
    """The Why screen of the position after ``moves`` (of a hotseat game), its reason found; returns it."""
    director.back_to_menu()
    config = MatchConfig(
        player_for(Colour.RED, None, Mode.HOTSEAT), player_for(Colour.YELLOW, None, Mode.HOTSEAT), geometry
    )
    match = director.show("match", replace(config, start_moves=moves))
    match.show_why()
    director.run(0.1)
    why: Any = director.app.scene
    director.run(0, until=lambda: why.why is not None or why.error, timeout=300.0)
    director.run(0.2)
    return why


def shoot_why(director: Director, geometry) -> None:
    """The Why screen of a position (its reason on the board), then Show me a few moves in."""
    why = open_why(director, geometry, EXPLAINED)
    director.shoot("why")
    why.show_me()
    for column in TRIED:
        director.run(0, until=lambda: why.answers.current is None, timeout=300.0)
        if why.game.is_over or not why.game.is_legal(column):
            continue
        why.play(column)
        director.run(0.1)
    director.run(0, until=lambda: why.answers.current is None, timeout=300.0)
    director.run(0.2)
    director.shoot("show_me")


#: Review labels from the least to the most worth showing.
LABEL_ORDER = ("unknown", "best", "good", "mistake", "blunder")


def shoot_analysis(director: Director, geometry) -> None:
    """The analysis panel: exact values of a middle-game position, then an opening position being solved."""
    app = director.app
    app.settings.show_analysis = True
    for name, moves, ready in (
        ("analysis_exact", ANALYSED_GAME, lambda box: box.finished),
        ("analysis_solving", "123456", lambda box: box.seconds > 2.5),  # off the book: seconds a column
    ):
        director.back_to_menu()
        config = MatchConfig(
            player_for(Colour.RED, None, Mode.HOTSEAT), player_for(Colour.YELLOW, None, Mode.HOTSEAT), geometry
        )
        match = director.show("match", replace(config, start_moves=moves))
        director.run(
            0,
            until=lambda match=match, ready=ready: (
                match.feeds.analysis.lane.current is not None
                and match.feeds.analysis.snapshot is not None
                and ready(match.feeds.analysis.lane.current)
            ),
        )
        director.run(0.2)
        director.shoot(name)
    app.settings.show_analysis = False


#: The alpha-beta player of the thinking shots: half a second a move, so that its search can be caught.
THINKING_ALPHABETA = "alphabeta:depth=81,seconds=0.5,eval=threats"


def shoot_thinking(director: Director, geometry) -> None:
    """The thinking view of alpha-beta (depth, speed, line) and of MCTS (visit shares)."""
    director.back_to_menu()
    # Alpha-beta with a clock (the hard preset searches four plies, done in a blink) against the expert preset.
    config = MatchConfig(
        player_for(Colour.RED, THINKING_ALPHABETA, Mode.SPECTATOR),
        player_for(Colour.YELLOW, "expert", Mode.SPECTATOR),
        geometry,
    )
    match = director.show("match", config)
    # Half of each player's time (alpha-beta thinks 0.5 s, expert 1.5 s): late enough for a line to show.
    for name, colour, seconds in (("thinking_alphabeta", Colour.RED, 0.25), ("thinking_mcts", Colour.YELLOW, 0.75)):
        director.run(
            0,
            until=lambda colour=colour, seconds=seconds: (
                match.turns.model.moves_played >= 6
                and match.turns.model.colour_to_move is colour
                and match.turns.thinking
                and match.turns.animations.idle
                and match.feeds.thinking.snapshot is not None
                and match.feeds.thinking.snapshot.seconds > seconds
            ),
            timeout=120.0,
        )
        director.shoot(name)


#: A middle game whose every column the solver finishes in moments.
ANALYSED_GAME = "4453432"


if __name__ == "__main__":
    sys.exit(main())
