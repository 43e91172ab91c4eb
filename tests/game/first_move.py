"""How long the computer's first move takes after the player's first move, as on a fresh install.

``python -m tests.game.first_move [--fresh] [--agent hard] [--delay 3]`` starts
the real game (real clock, real worker and preparation threads) on a match
of you against ``--agent``, plays your first move ``--delay`` seconds after
the first frame (the time a player takes to click), and prints how long the
computer's reply took to land on the board. ``--fresh`` uses an empty numba
cache, as on the first start of a newly installed version. It runs headless
unless a display is given (``SDL_VIDEODRIVER``), and leaves the player's
settings alone.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.game.first_move", description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="hard", help="the computer player (default hard)")
    parser.add_argument("--delay", type=float, default=3.0, help="seconds from the first frame to your move")
    parser.add_argument("--fresh", action="store_true", help="start with an empty numba cache (a fresh install)")
    parser.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    args = parser.parse_args(argv)
    scratch = tempfile.TemporaryDirectory(prefix="first-move-")
    os.environ["CONNECT_FOUR_SETTINGS"] = os.path.join(scratch.name, "settings.json")
    if args.fresh:  # before the engine is imported: it picks its cache folder then
        os.environ.pop("NUMBA_CACHE_DIR", None)
        os.environ["XDG_CACHE_HOME"] = os.path.join(scratch.name, "cache")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    import pygame

    from game.app import App
    from game.launch import build_parser, options_from

    started = time.perf_counter()
    app = App(options_from(build_parser().parse_args(["--red", "human", "--yellow", args.agent])))
    try:
        while time.perf_counter() - started < args.delay:
            app.step()
        match = app.scene
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_4, mod=0, unicode="4", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_4, mod=0, unicode="4", scancode=0))
        moved = time.perf_counter()
        while match.turns.model.moves_played < 2:
            if time.perf_counter() - moved > args.timeout:
                print(f"{args.agent}: no reply within {args.timeout:g} s", flush=True)
                return 1
            app.step()
        replied = time.perf_counter()
    finally:
        app.close()
        scratch.cleanup()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{args.agent}: your move at {moved - started:.1f} s, the computer's reply {replied - moved:.1f} s later"
        f" ({'fresh' if args.fresh else 'warm'} cache, load average {load:.1f}; processor time {cpu_seconds()})",
        flush=True,
    )
    return 0


def cpu_seconds() -> str:
    """The processor time of this process and of its finished children (the compiling ones)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return "unknown"
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return f"game {own.ru_utime + own.ru_stime:.1f} s, children {children.ru_utime + children.ru_stime:.1f} s"


if __name__ == "__main__":
    sys.exit(main())
