"""``play``: the terminal game (seed 003), for people and agents alike."""

from __future__ import annotations

from engine.agents.human import QuitGame
from engine.board import Board, Side
from engine.cli.common import add_command, add_geometry_arguments, start_and_players
from engine.formats import render
from engine.match import play_game


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers, "play", "play in the terminal: you against an agent, or any two agents", agents=True
    )
    parser.add_argument("--red", default="human", metavar="AGENT", help="who plays X, moving first (default human)")
    parser.add_argument("--yellow", default="random", metavar="AGENT", help="who plays O (default random)")
    parser.add_argument("--moves", default="", metavar="POSITION", help="start from this position")
    parser.add_argument("--seed", type=int, default=None, help="seed for agents that use randomness")
    add_geometry_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    board, red, yellow = start_and_players(args)
    geometry = board.geometry
    names = {Side.FIRST: f"X ({red})", Side.SECOND: f"O ({yellow})"}
    print(
        f"Connect {geometry.connect} on {geometry.cols}x{geometry.rows}:",
        names[Side.FIRST],
        "against",
        names[Side.SECOND],
    )
    print(render(board))

    def show(after: Board, result) -> None:
        mover = after.turn.other
        print(f"\n{names[mover]} plays column {result.column + 1}.")
        print(render(after))

    try:
        record = play_game(red, yellow, board, on_move=show)
    except QuitGame as exc:
        print("\nEnd of input: bye!" if str(exc) == "end of input" else "\nBye!")
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
