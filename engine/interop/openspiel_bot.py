"""The engine's agents as OpenSpiel bots (``pyspiel.Bot``) for the ``connect_four`` game, any size it takes.

::

    import pyspiel
    from engine.interop import as_openspiel_bot

    game = pyspiel.load_game("connect_four")
    bots = [as_openspiel_bot("hard"), pyspiel.make_uniform_random_bot(1, 7)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)

The bot reads the position from the state's history (OpenSpiel's action is the
0-based column) and the board from the game's ``columns``, ``rows`` and
``x_in_row``; a state of another game, a finished one or a chance node is one
:class:`~engine.interop.observations.ObservationError`. Boards the engine does
not play get the plain-Python search. pyspiel is imported when a bot is made,
not with this module; a bot pickles as its spec.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.agents.base import Agent
from engine.board import Board
from engine.interop.observations import ObservationError, checked_position
from engine.interop.plain import PlainBoard, plain_move
from engine.interop.player import EnginePlayer

#: Seconds the plain-Python search takes on a board the engine does not play.
PLAIN_SECONDS = 0.5


def openspiel_position(state: Any) -> tuple[int, int, int, list[int]]:
    """``(columns, rows, x_in_row, moves)`` of a ``connect_four`` state in progress (moves: 0-based columns)."""
    try:
        game = state.get_game()
        name = game.get_type().short_name
        parameters = game.get_parameters()
        moves = [int(action) for action in state.history()]
        terminal, player = state.is_terminal(), state.current_player()
    except Exception as exc:  # not a pyspiel state at all
        kind = type(state).__name__
        raise ObservationError(f"the state must be an OpenSpiel connect_four state, not a {kind}") from exc
    if name != "connect_four":
        raise ObservationError(f"the state is one of OpenSpiel's {name!r}, not of connect_four")
    if terminal:
        raise ObservationError("the state is terminal: there is no move to make")
    if player not in (0, 1):
        raise ObservationError(f"the state's current player is {player}, not 0 or 1")
    cols, rows = int(parameters.get("columns", 7)), int(parameters.get("rows", 6))
    return cols, rows, int(parameters.get("x_in_row", 4)), moves


def openspiel_board(state: Any) -> Board:
    """The engine's board of a ``connect_four`` state (for boards the engine plays)."""
    cols, rows, connect, moves = openspiel_position(state)
    position = checked_position(_plain_cells(cols, rows, moves), cols, rows, connect, "the state")
    if position.geometry is None:
        raise ObservationError(f"the state: the engine does not play {cols}x{rows} connect {connect}")
    return Board.from_moves(moves, position.geometry)


def _plain_cells(cols: int, rows: int, moves: list[int]) -> list[int]:
    """The cells after ``moves`` (any board), 1 for the player to move, top row first."""
    board = PlainBoard([0] * (cols * rows), cols, rows, 4)
    mover_first = len(moves) % 2 == 0
    for ply, col in enumerate(moves):
        if not 0 <= col < cols or board.free[col] == 0:
            raise ObservationError(f"the state's history plays column {col} at move {ply + 1}, which is not free")
        board.play(col, 1 if (ply % 2 == 0) == mover_first else 2)
    return board.cells


@functools.cache
def _bot_class() -> type:
    """The ``pyspiel.Bot`` subclass (made once pyspiel is imported)."""
    import pyspiel

    class EngineBot(pyspiel.Bot):
        """An engine agent as an OpenSpiel bot; see :mod:`engine.interop.openspiel_bot`."""

        def __init__(self, spec: str | Agent, seconds: float | None) -> None:
            pyspiel.Bot.__init__(self)
            self.player, self.seconds = EnginePlayer(spec), seconds

        def step(self, state: Any) -> int:
            cols, rows, connect, moves = openspiel_position(state)
            position = checked_position(_plain_cells(cols, rows, moves), cols, rows, connect, "the state")
            if position.geometry is not None:
                return self.player.move(Board.from_moves(moves, position.geometry), seconds=self.seconds)
            self.player.say(f"connect-four: the engine does not play {cols}x{rows}; a plain-Python search plays")
            return plain_move(position.cells, cols, rows, connect, seconds=self.seconds or PLAIN_SECONDS)

        def restart_at(self, state: Any) -> None:
            self.player.agent.new_game()

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            """Nothing to do: every step reads the whole history."""

        def __reduce__(self) -> tuple[Any, ...]:
            return (as_openspiel_bot, (self.player.spec, self.seconds))

        def __repr__(self) -> str:
            return f"as_openspiel_bot({self.player.spec!r})"

    return EngineBot


def as_openspiel_bot(spec: str | Agent, seconds: float | None = None) -> Any:
    """An engine agent (or spec) as a ``pyspiel.Bot``; ``seconds``: a time limit per move on top of its own."""
    return _bot_class()(spec, seconds)
