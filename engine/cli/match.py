"""``match``: a series of games between two agents, alternating who starts."""

from __future__ import annotations

from engine.agents.human import QuitGame
from engine.cli.common import add_command, start_and_players
from engine.console import add_geometry_arguments, emit
from engine.formats import format_moves
from engine.match import GameRecord, play_match
from engine.validate import MAX_GAMES, MAX_SEED, int_arg


def add_parser(subparsers) -> None:
    parser = add_command(subparsers, "match", "play G games between two agents, alternating who starts", agents=True)
    parser.add_argument("--red", required=True, metavar="AGENT", help="the red agent (moves first in game 1)")
    parser.add_argument("--yellow", required=True, metavar="AGENT", help="the yellow agent")
    parser.add_argument(
        "--games", type=int_arg(1, MAX_GAMES), default=2, metavar="G", help="number of games (default 2)"
    )
    parser.add_argument(
        "--seed",
        type=int_arg(0, MAX_SEED),
        default=None,
        metavar="S",
        help="seed: the same seed replays the same match",
    )
    parser.add_argument("--moves", default="", metavar="POSITION", help="start every game from this position")
    parser.add_argument("--quiet", action="store_true", help="print only the two summary lines")
    add_geometry_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    start, red, yellow = start_and_players(args)

    def report(index: int, record: GameRecord, red_first: bool) -> None:
        if args.quiet:
            return
        names = {"X": "red" if red_first else "yellow", "O": "yellow" if red_first else "red"}
        outcome = "draw" if record.winner is None else f"{names[record.winner.symbol]} wins"
        if record.forfeit is not None:
            outcome += f" ({names[record.forfeit.symbol]} forfeits: {record.reason})"
        moves = format_moves(record.moves)
        emit(
            f"game {index + 1}: {'red' if red_first else 'yellow'} first, {outcome}, {len(record.moves)} moves: {moves}"
        )

    try:
        result = play_match(red, yellow, args.games, seed=args.seed, start=start, on_game=report)
    except QuitGame as exc:  # a person at the prompt (the human agent) typed q, or the input ended
        print(f"\n{exc.farewell}")
        return 0
    finally:
        red.close()
        yellow.close()
    for line in result.summary_lines():
        emit(line)
    return 0
