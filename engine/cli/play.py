"""``play``: the terminal game (seed 003), for people and agents alike.

After each computer move it prints seed 003's two lines, "Time elapsed: 0.02
secs." and "Number of Nodes examined: 788", from the agent's statistics. Run
in an interactive terminal with no ``--red``/``--yellow``, it offers seed
004's menu flow: choose an opponent, play, "Would you like to continue? [y/n]".
"""

from __future__ import annotations

import argparse
import sys

from engine.agents.human import QuitGame
from engine.board import Board, Side
from engine.cli.common import add_command, add_grid_argument, grid_positions, start_and_players
from engine.console import add_geometry_arguments
from engine.errors import EngineError
from engine.match import play_game
from engine.validate import MAX_SEED, int_arg

#: Seed 004's opponents, then the difficulty presets: (menu label, agent spec).
MENU = (
    ("Random moves", "random"),
    ("A* Search", "astar"),
    ("MiniMax", "minimax:depth=5,eval=seed004"),
    ("Alpha-beta", "alphabeta:depth=8"),
    ("Monte Carlo Tree Search", "mcts:seconds=1"),
    ("Perfect (the solver)", "perfect"),
)


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers, "play", "play in the terminal: you against an agent, or any two agents", agents=True
    )
    parser.add_argument("--red", default=None, metavar="AGENT", help="who plays X, moving first (default human)")
    parser.add_argument("--yellow", default=None, metavar="AGENT", help="who plays O (default random)")
    parser.add_argument("--moves", default="", metavar="POSITION", help="start from this position")
    parser.add_argument("--seed", type=int_arg(0, MAX_SEED), default=None, help="seed for agents that use randomness")
    add_geometry_arguments(parser)
    add_grid_argument(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.grid:
        if len(args.grid) > 1:
            raise EngineError("play starts from one position: give --grid once")
        if args.moves:
            raise EngineError("play starts from one position: give --moves or --grid, not both")
        args.moves = grid_positions(args)[0]
    if args.red is None and args.yellow is None and _interactive():
        return _menu(args)
    args.red = args.red or "human"
    args.yellow = args.yellow or "random"
    return play_once(args)


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _menu(args: argparse.Namespace) -> int:
    """Seed 004's flow: pick an opponent, play it, and again until "n" or 0."""
    while True:
        print("\n# ----------------------------- #")
        print("|   Player vs Algorithms        |")
        print("# ----------------------------- #")
        for number, (label, spec) in enumerate(MENU, start=1):
            print(f"| {number} - {label:<26}| {spec}")
        print("| 0 - Exit")
        choice = _ask("  OPTION: ", {str(n) for n in range(len(MENU) + 1)})
        if choice in (None, "0"):
            print("Bye!")
            return 0
        opponent = MENU[int(choice) - 1][1]
        play_once(argparse.Namespace(**{**vars(args), "red": "human", "yellow": opponent}))
        if _ask("\nWould you like to continue? [y/n] : ", {"y", "n"}) != "y":
            print("Bye!")
            return 0


def _ask(prompt: str, allowed: set[str]) -> str | None:
    """Ask until the answer is one of ``allowed``; None at the end of input."""
    while True:
        try:
            answer = input(prompt).strip().lower()
        except EOFError:
            return None
        if answer in allowed:
            return answer


def play_once(args: argparse.Namespace) -> int:
    board, red, yellow = start_and_players(args)
    geometry = board.geometry
    names = {Side.FIRST: f"X ({red})", Side.SECOND: f"O ({yellow})"}
    agents = {Side.FIRST: red, Side.SECOND: yellow}
    print(
        f"Connect {geometry.connect} on {geometry.cols}x{geometry.rows}:",
        names[Side.FIRST],
        "against",
        names[Side.SECOND],
    )
    print(board)

    def show(after: Board, result) -> None:
        mover = after.turn.other
        print(f"\n{names[mover]} plays column {result.column + 1}.")
        if not agents[mover].is_human:  # seed 003's lines after a computer move
            print(f"Time elapsed: {result.seconds:.2f} secs.")
            print(f"Number of Nodes examined: {result.nodes}")
        print(after)

    try:
        record = play_game(red, yellow, board, on_move=show)
    except QuitGame as exc:
        print(f"\n{exc.farewell}")
        return 0
    finally:
        red.close()
        yellow.close()
    if record.forfeit is not None:
        print(f"\n{names[record.forfeit]} forfeits: {record.reason}")
    if record.winner is None:
        print("\nTie game!")
    else:
        print(f"\nWin for {names[record.winner]}! Bye!")
    return 0
