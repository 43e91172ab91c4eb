"""How much memory the game and its analysis process hold: after the start, after 10 games, after an hour's play.

``python -m tests.game.memory [--games 10] [--hour 26] [--seed 1] [--fresh]`` starts
the real game (real clock, real worker, preparation and analysis processes, the
player's numba cache, or with ``--fresh`` an empty one, as on a fresh install)
with a scratch settings file, and plays as a person
would, through the real screens and key presses: Quick game against each
level in turn, the analysis panel on, a hint asked for in every game, random
moves, and the review of every finished game opened and read to its end.
It prints the resident (RSS), proportional (PSS) and unique (USS) memory of
the game's process and of the analysis process (Linux: ``/proc/PID/smaps_rollup``):

- after the start: the menu shown, every level prepared and loaded (the
  preparing of a first start included), nothing played;
- after ``--games`` games on the classic board;
- after the "hour": ``--hour`` games in all (26: what a tester played in 67
  minutes), those after the first ten on every board size a player is likely
  to try (8x8, 9x9, 6x5, 4x4, 7x6 with five in a row), so that each size's
  kernels and tables come in. It is an hour's play without the person's
  thinking time: what memory holds depends on what was played and loaded,
  not on how long the window stayed open;
- then ``--menu`` seconds later, back at the menu (the match closed).

``--detail`` adds where the game's unique memory lies (the heap and anonymous
mappings, which hold numba's compiled code, numpy's tables and pygame's
surfaces, and each library's private pages).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

MB = 1024 * 1024
#: The boards of the "hour" after the first games (the classic one comes back between them).
BOARDS = ((8, 8, 4), (7, 6, 4), (9, 9, 4), (6, 5, 4), (7, 6, 4), (4, 4, 3), (7, 6, 5))


def footprint(pid: int) -> tuple[float, float, float] | None:
    """(RSS, PSS, USS) of process ``pid`` in MB, or None if it is gone (or not on Linux)."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return None
    fields = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[2] == "kB":
            fields[parts[0].rstrip(":")] = int(parts[1]) * 1024
    unique = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return fields.get("Rss", 0) / MB, fields.get("Pss", 0) / MB, unique / MB


def breakdown(pid: int, top: int = 8) -> list[tuple[str, float]]:
    """Where process ``pid``'s unique memory lies, the largest first: (mapping, MB)."""
    unique: dict[str, float] = defaultdict(float)
    name = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        parts = line.split()
        if parts and "-" in parts[0] and len(parts) >= 5:  # a mapping's header: address, perms, ..., path
            path = parts[5] if len(parts) > 5 else "[anonymous]"
            name = Path(path).name if path.startswith("/") else path
        elif parts and parts[0] in ("Private_Clean:", "Private_Dirty:"):
            unique[name] += int(parts[1]) / 1024
    return sorted(unique.items(), key=lambda item: -item[1])[:top]


class Session:
    """The game in this process, played through its screens."""

    def __init__(self, seed: int) -> None:
        import pygame

        from game.app import App

        self.pygame = pygame
        self.app = App()
        self.rng = random.Random(seed)
        self.games = 0

    def step(self) -> None:
        self.app.step()
        if not self.app.running:  # the window was closed (SDL turns SIGTERM into a close)
            raise SystemExit(1)

    def wait(self, condition, seconds: float) -> bool:
        """Run frames until ``condition()`` or ``seconds`` have gone by; whether it came true."""
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                return False
            self.step()
        return True

    def key(self, key: int, text: str = "") -> None:
        pygame = self.pygame
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode=text, scancode=0))
        self.step()
        self.step()

    def settle(self, seconds: float) -> None:
        """Run the menu until every level is prepared and loaded: nothing being prepared, and the game's
        memory steady for 5 s (at most ``seconds``)."""
        catalog, deadline = self.app.catalog, time.monotonic() + seconds
        self.wait(lambda: catalog.ready and self.app.frame_stats.frames > 1, seconds)
        steady_since, last = time.monotonic(), footprint(os.getpid())
        while time.monotonic() < deadline and time.monotonic() - steady_since < 5.0:
            self.wait(lambda: False, 0.5)
            now = footprint(os.getpid())
            if catalog.progress() is not None or now is None or last is None or abs(now[2] - last[2]) > 0.5:
                steady_since = time.monotonic()
            last = now

    def play(self, level: str, board: tuple[int, int, int]) -> None:
        """One game of Quick game against ``level`` on ``board``: a hint, random moves, then its review."""
        from game.model import Colour, Mode
        from game.start import start_match

        settings = self.app.settings
        settings.mode, settings.human_colour = Mode.HUMAN_VS_AI, Colour.RED
        settings.first = Colour.RED if self.games % 2 == 0 else Colour.YELLOW
        settings.set_agent(Colour.YELLOW, level)
        settings.cols, settings.rows, settings.connect = board
        settings.show_analysis = True
        self.app.reset("menu")
        self.step()
        problem = start_match(self.app)
        assert problem is None, problem
        self.step()
        match = self.app.scene
        turns = match.turns
        hinted = False
        while not turns.model.board.is_over:
            if turns.failure:
                raise RuntimeError(turns.failure)
            if turns.model.human_to_move and turns.animations.idle and turns.computer.lane.current is None:
                if not hinted:
                    hinted = True
                    self.key(self.pygame.K_h, "h")
                    self.wait(lambda: turns.hint is not None or not turns.hint_text, 30.0)
                column = self.rng.choice(turns.model.board.legal_columns())
                self.key(getattr(self.pygame, f"K_{column + 1}"), str(column + 1))
            self.step()
        self.wait(lambda: self.app.scene is not match, 10.0)  # the result banner
        self.key(self.pygame.K_v, "v")  # the review, read to its end (or for 20 s)
        review = match.feeds.review
        self.wait(lambda: review.current is not None and review.current.finished, 20.0)
        self.games += 1


def show(stage: str, session: Session, detail: bool) -> None:
    game = footprint(os.getpid())
    analysis_pid = session.app.analysis_process.pid
    analysis = footprint(analysis_pid) if analysis_pid else None
    parts = [f"{stage}: game RSS {game[0]:.0f} MB, PSS {game[1]:.0f}, USS {game[2]:.0f}" if game else stage]
    if analysis is not None:
        parts.append(f"analysis RSS {analysis[0]:.0f} MB, PSS {analysis[1]:.0f}, USS {analysis[2]:.0f}")
    print("; ".join(parts), flush=True)
    if detail:
        print("   game's unique memory: " + ", ".join(f"{n} {mb:.0f}" for n, mb in breakdown(os.getpid())))
        if analysis_pid:
            print("   analysis's: " + ", ".join(f"{n} {mb:.0f}" for n, mb in breakdown(analysis_pid)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.game.memory", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games on the classic board (default 10)")
    parser.add_argument("--hour", type=int, default=26, help="games in all for the hour (default 26; 0: none)")
    parser.add_argument("--seed", type=int, default=1, help="the person's random moves")
    parser.add_argument("--settle", type=float, default=600.0, help="at most this long for the start (s)")
    parser.add_argument("--menu", type=float, default=70.0, help="seconds at the menu at the end (default 70)")
    parser.add_argument("--fresh", action="store_true", help="an empty numba cache, as on a fresh install")
    parser.add_argument("--detail", action="store_true", help="where the unique memory lies")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("memory is read from /proc: Linux only", file=sys.stderr)
        return 2
    scratch = tempfile.TemporaryDirectory(prefix="memory-")
    os.environ["CONNECT_FOUR_SETTINGS"] = os.path.join(scratch.name, "settings.json")
    os.environ["CONNECT_FOUR_GAMES"] = os.path.join(scratch.name, "games")
    if args.fresh:  # before the engine is imported: it picks its cache folder then
        os.environ.pop("NUMBA_CACHE_DIR", None)
        os.environ["XDG_CACHE_HOME"] = os.path.join(scratch.name, "cache")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from engine.agents.presets import LADDER

    levels = [name for name, *_ in LADDER]
    session = Session(args.seed)
    began = time.monotonic()
    try:
        session.settle(args.settle)
        show(f"after the start ({time.monotonic() - began:.0f} s)", session, args.detail)
        for index in range(args.games):
            session.play(levels[index % len(levels)], (7, 6, 4))
        show(f"after {session.games} games ({time.monotonic() - began:.0f} s)", session, args.detail)
        for index in range(max(0, args.hour - args.games)):
            session.play(levels[(index + 3) % len(levels)], BOARDS[index % len(BOARDS)])
        if args.hour > args.games:
            show(f"after {session.games} games, the hour ({time.monotonic() - began:.0f} s)", session, args.detail)
        session.app.reset("menu")  # the player leaves the game for the menu and stays there
        session.wait(lambda: False, args.menu)
        show(f"then {args.menu:.0f} s at the menu", session, args.detail)
    finally:
        session.app.close()
        scratch.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
