"""The game's command line (``python main.py ...``; ``--help`` lists the options).

With ``--red`` and/or ``--yellow`` the game goes straight to the match (a
side not given is played by a person; two computers make a spectator game).
Bad options, ``--moves`` included, are reported in one line on standard
error, before any window opens, with exit status 2. Without a display the
game says so and exits with status 1; Ctrl+C in the terminal closes it
quietly (status 130), as its close button would.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from game import settings

if TYPE_CHECKING:
    from engine.board import Board
    from engine.geometry import Geometry
    from game.options import Options
    from game.players import MatchConfig


INTERRUPTED = 130  # the usual exit status after Ctrl+C (128 + SIGINT)


class _QuitRequest:
    """A polite kill that may come before the window exists: remembered, then passed on to it."""

    def __init__(self) -> None:
        self._requested = False
        self._quit: Callable[[], None] | None = None

    def set(self) -> None:
        self._requested = True
        if self._quit is not None:
            self._quit()

    def subscribe(self, quit: Callable[[], None]) -> None:
        self._quit = quit
        if self._requested:
            quit()


_quit_requested = _QuitRequest()


def whole_number(text: str) -> int:
    """A board dimension as typed: ASCII digits only (``int()`` would also take '٤' or '４')."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(text)


def build_parser(with_agents: bool = False) -> argparse.ArgumentParser:
    """The parser; ``with_agents`` adds the agent listing to ``--help`` (it loads the engine)."""
    epilog = None
    if with_agents:
        from engine.agents.classroom import with_trust_note
        from engine.agents.registry import describe_agents

        epilog = with_trust_note(describe_agents())
    from engine.version import VERSION, typed_name

    parser = argparse.ArgumentParser(
        prog=typed_name("game", sys.argv[0]),
        description=(
            "Connect Four, the desktop game. Without options it opens the menu:\n"
            "  Play and Quick game, and\n"
            "  Puzzles: positions with one winning or saving move, proven by the solver, in\n"
            "    five bands on five boards; each mistake of yours in a reviewed game becomes\n"
            "    one of My puzzles; your puzzle rating is kept beside your records.\n"
            "The opening explorer (E in a game, its review or a puzzle) shows every\n"
            "column's exact value; play a column to walk the tree."
        ),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file",
        nargs="?",
        type=Path,
        metavar="FILE",
        help="open a saved game (a .json file from the Saved games screen)",
    )
    parser.add_argument("--version", action="version", version=f"connect-four {VERSION}")
    parser.add_argument("--red", metavar="AGENT", help="who plays red, moving first (e.g. human, random, hard)")
    parser.add_argument("--yellow", metavar="AGENT", help="who plays yellow")
    parser.add_argument("--cols", type=whole_number, help="columns, 4 to 9 (default 7)")
    parser.add_argument("--rows", type=whole_number, help="rows, 4 to 9 (default 6)")
    parser.add_argument("--connect", type=whole_number, help="discs in a row that win, 3 to 6 (default 4)")
    parser.add_argument("--moves", default="", metavar="POSITION", help="start from this position (e.g. 4453)")
    parser.add_argument("--grid", type=Path, metavar="FILE", help="start from a seed 004 text grid in FILE")
    parser.add_argument("--exit-after-game", action="store_true", help="close the window when the game is over")
    parser.add_argument(
        "--analysis", action="store_true", help="show the analysis panel from the start (A hides it; not remembered)"
    )
    parser.add_argument(
        "--frame-stats", action="store_true", help="at exit, print 'frames N, median X ms, p99 Y ms' (frame times)"
    )
    desktop = parser.add_argument_group("the Linux applications menu")
    desktop.add_argument(
        "--install-desktop-entry",
        action="store_true",
        help="add Connect Four (with its icon) to your desktop's applications menu, then exit",
    )
    desktop.add_argument(
        "--remove-desktop-entry", action="store_true", help="take out what --install-desktop-entry added, then exit"
    )
    extra = parser.add_argument_group("for testing and documentation")
    extra.add_argument(
        "--frame-log",
        type=Path,
        metavar="FILE",
        help="at exit, write every frame as CSV (interval, whole or partial, work, drawing and showing times)",
    )
    extra.add_argument("--screenshot", type=Path, metavar="FILE", help="save the last frame as a PNG at exit")
    extra.add_argument(
        "--quit-after-first-frame", action="store_true", help="close right after the first frame (start-up timing)"
    )
    return parser


def options_from(args: argparse.Namespace) -> Options:
    """Check the options and build the match they ask for; raises EngineError if they are wrong."""
    from game.options import Options

    if args.grid is not None:
        _use_grid(args)
    options = Options(
        cols=args.cols,
        rows=args.rows,
        connect=args.connect,
        moves=args.moves,
        exit_after_game=args.exit_after_game,
        analysis=args.analysis,
        frame_stats=args.frame_stats,
        frame_log=args.frame_log,
        screenshot=args.screenshot,
        quit_after_first_frame=args.quit_after_first_frame,
    )
    board_options = (args.cols, args.rows, args.connect, args.red, args.yellow)
    if args.file is not None:
        if args.moves or any(option is not None for option in board_options):
            raise ValueError("a saved game brings its own players and board: give FILE alone")
        options.match, options.notes = saved_match(args.file)
        return options
    if not args.moves and all(option is None for option in board_options):
        return options  # the menu: the engine is loaded after the first frame
    from engine.geometry import DEFAULT, Geometry

    geometry = None
    if args.cols is not None or args.rows is not None or args.connect is not None:
        geometry = Geometry(
            DEFAULT.cols if args.cols is None else args.cols,
            DEFAULT.rows if args.rows is None else args.rows,
            DEFAULT.connect if args.connect is None else args.connect,
        )
    if args.red is not None or args.yellow is not None:
        options.match = match_from(args.red or "human", args.yellow or "human", geometry or DEFAULT, args.moves)
    elif args.moves:  # the menu's games start from it, on the board of the saved settings unless one is given
        start_position(args.moves, geometry or settings.load()[0].geometry())
    return options


def start_position(moves: str, geometry: Geometry) -> Board:
    """The board after ``moves``; raises PositionError if they are not a game that can go on."""
    from engine.board import Board
    from engine.errors import PositionError

    board = Board.from_moves(moves, geometry)
    if board.is_over:
        raise PositionError(f"the game is already over after {moves!r}")
    return board


def _use_grid(args: argparse.Namespace) -> None:
    """``--grid FILE``: its position as ``--moves`` (a move order that reaches it), its size as the board's."""
    from engine.errors import EngineError
    from engine.grid_file import move_order, read_grid_file

    if args.moves:
        raise EngineError("give --moves or --grid, not both")
    board = read_grid_file(args.grid, 4 if args.connect is None else args.connect)
    for name, size in (("cols", board.geometry.cols), ("rows", board.geometry.rows)):
        if getattr(args, name) not in (None, size):
            raise EngineError(f"the grid {str(args.grid)!r} has {size} {name}, not {getattr(args, name)}")
        setattr(args, name, size)
    args.moves = move_order(board)


def match_from(red: str, yellow: str, geometry: Geometry, moves: str) -> MatchConfig:
    """The match of ``--red``/``--yellow``: red moves first, as in ``python -m engine play``."""
    from engine.agents.registry import create_agent
    from game.model import Colour, Mode
    from game.players import MatchConfig, player_for

    specs = {}
    for colour, spec in ((Colour.RED, red), (Colour.YELLOW, yellow)):
        agent = create_agent(spec)  # raises a one-line AgentSpecError for a bad spec
        specs[colour] = None if agent.is_human else spec
        agent.close()
    start_position(moves, geometry)
    humans = sum(spec is None for spec in specs.values())
    mode = (Mode.SPECTATOR, Mode.HUMAN_VS_AI, Mode.HOTSEAT)[humans]
    players = {colour: player_for(colour, spec, mode) for colour, spec in specs.items()}
    return MatchConfig(players[Colour.RED], players[Colour.YELLOW], geometry, Colour.RED, moves)


def saved_match(path: Path) -> tuple[MatchConfig, tuple[str, ...]]:
    """The match of a saved game, its moves to be replayed, and the notes the window shows (a student's
    agent became a person); raises ValueError if it cannot be opened. The file names no code that runs."""
    from dataclasses import replace

    from engine.agents.registry import create_agent
    from game.saves import load

    game = load(path)
    for player in (game.config.red, game.config.yellow):
        if player.spec is not None:
            create_agent(player.spec).close()  # a one-line AgentSpecError for a player this version lacks
    return replace(game.config, replay=game.moves), tuple(game.notes)


def leave(status: int) -> NoReturn:
    """End the process at once, without waiting for the background threads.

    The warm-up thread may be inside numba's compiler when the window closes;
    letting the interpreter shut down around it can crash in LLVM, and waiting
    for it would keep a closed game alive for seconds. The game has already
    saved its settings and stopped its searches, so only the output streams
    need flushing.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def main(argv: list[str] | None = None) -> int:
    """Run the game; the exit status: 0, 1 (no window), 2 (bad options) or 130 (interrupted by Ctrl+C)."""
    # A polite kill (SIGTERM) closes the window like its close button: settings saved, children ended.
    # Installed first, so that a kill while the game is still starting is not the default sudden death
    # (SDL leaves a handler that is already there alone): the window then closes as soon as it exists.
    signal.signal(signal.SIGTERM, lambda signum, frame: _quit_requested.set())
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:  # Ctrl+C in the terminal: the window is closed (App.run cleans up), quietly
        return INTERRUPTED


def pygame_problem() -> str | None:
    """Why the game cannot draw with the pygame installed here (None: it can), found before any window opens.

    ``pip install kaggle-environments`` (and other packages) install the classic pygame, whose files
    replace pygame-ce's in the same folder: the game then failed at its first blur.
    """
    try:
        import pygame
    except ImportError as exc:
        return f"pygame-ce is not installed ({exc}): pip install -r requirements.txt"
    if not getattr(pygame, "IS_CE", False):
        return (
            "the classic 'pygame' is installed where pygame-ce should be (they share one folder): "
            "pip uninstall -y pygame pygame-ce, then pip install pygame-ce"
        )
    return None


def _desktop_entry(install: bool) -> int:
    from game import desktop_entry

    try:
        print(desktop_entry.install() if install else desktop_entry.remove())
    except OSError as exc:
        print(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 1
    return 0


def _run(argv: list[str]) -> int:
    parser = build_parser(with_agents=any(arg in ("-h", "--help") for arg in argv))
    args = parser.parse_args(argv)
    if args.install_desktop_entry or args.remove_desktop_entry:
        return _desktop_entry(install=args.install_desktop_entry)
    problem = pygame_problem()
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    try:
        options = options_from(args)
    except ValueError as exc:  # EngineError and its subclasses: a clear message, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import pygame  # only now: SDL takes over the signals it finds unhandled (see main)

    from game.app import App

    try:
        app = App(options)
    except pygame.error as exc:  # no display (a remote shell), or a broken video driver
        print(f"error: cannot open the game window: {exc}", file=sys.stderr)
        print("(run it on a desktop; SDL_VIDEODRIVER=dummy runs it without a window)", file=sys.stderr)
        return 1
    _quit_requested.subscribe(app.quit)
    return app.run()
