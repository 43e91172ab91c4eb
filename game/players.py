"""Who plays a match: two players, the board, who starts and from where.

A :class:`MatchConfig` is everything needed to (re)start a match. It comes
from the set-up screens (through :class:`~game.settings.Settings`) or from the
command line, and a rematch is the same config with the other colour first.
Agents are kept as spec strings here; the match screen builds them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from game.labels import agent_words
from game.model import Colour, Mode
from game.settings import Settings

if TYPE_CHECKING:
    from engine.board import Board
    from engine.geometry import Geometry


@dataclass(frozen=True)
class Player:
    """One side: its colour, the name shown, and its agent spec (None for a person)."""

    colour: Colour
    name: str
    spec: str | None = None

    @property
    def is_human(self) -> bool:
        return self.spec is None

    @property
    def title(self) -> str:
        """How a headline names the player: a person's own name, else the colour (``Red``)."""
        return self.name if self.is_human and self.name != default_name(self.colour, None) else self.colour.label

    @property
    def agent_label(self) -> str:
        return "Human" if self.spec is None else spec_label(self.spec)


@dataclass(frozen=True)
class MatchConfig:
    """Everything that defines a match; immutable, so a rematch is a copy."""

    red: Player
    yellow: Player
    geometry: Geometry
    first: Colour = Colour.RED
    start_moves: str = ""  # the position the game starts from, as a move string
    start_grid: str = ""  # or as a text grid (a position shared without its moves)
    replay: str = ""  # moves played at once when the match opens (a saved game), which undo can take back

    def player(self, colour: Colour) -> Player:
        return self.red if colour is Colour.RED else self.yellow

    @property
    def mode(self) -> Mode:
        return self.mode_of(self.red.is_human, self.yellow.is_human)

    @staticmethod
    def mode_of(red_human: bool, yellow_human: bool) -> Mode:
        return (Mode.SPECTATOR, Mode.HUMAN_VS_AI, Mode.HOTSEAT)[red_human + yellow_human]

    def start_board(self) -> Board:
        """A new board at the start position (raises PositionError if it is not a legal one)."""
        from engine.board import Board
        from engine.formats import parse_grid

        if self.start_grid:
            return parse_grid(self.start_grid, self.geometry.connect)
        return Board.from_moves(self.start_moves, self.geometry)

    def rematch(self) -> MatchConfig:
        """The same match with the other colour moving first, from the same start position."""
        return replace(self, first=self.first.other, replay="")

    def swapped(self) -> MatchConfig:
        """The two players change colours (the discs on the board stay where they are).

        A person keeps their name; a computer takes the name of its new colour (``Red computer``).
        """
        mode = self.mode

        def moved(player: Player, colour: Colour) -> Player:
            return replace(player, colour=colour) if player.is_human else player_for(colour, player.spec, mode)

        return replace(self, red=moved(self.yellow, Colour.RED), yellow=moved(self.red, Colour.YELLOW))


def spec_label(spec: str) -> str:
    """How an agent is shown: a readable name, then its settings (``Medium``, ``MCTS · seconds=0.1, c=2``)."""
    name, settings = agent_words(spec)
    return " · ".join([name, ", ".join(settings)]) if settings else name


def sentence(text: str) -> str:
    """``text`` with a capital first letter and the rest untouched ("Monte Carlo", not "Monte carlo")."""
    return text[:1].upper() + text[1:]


MAX_NAME = 40


def clean_name(name: str) -> str:
    """A person's name as the game keeps it: one line, no control characters, at most 40 characters."""
    name = "".join(char for char in name if char.isprintable())
    return " ".join(name.split())[:MAX_NAME]


def default_name(colour: Colour, mode: Mode | None) -> str:
    """A person's name when they have not given one."""
    return "You" if mode is Mode.HUMAN_VS_AI else f"{colour.label} player"


def player_for(colour: Colour, spec: str | None, mode: Mode | None, name: str = "") -> Player:
    """A player with the name the match screen shows for it (a person's own ``name`` if given)."""
    if spec is None:
        return Player(colour, clean_name(name) or default_name(colour, mode))
    return Player(colour, "Computer" if mode is Mode.HUMAN_VS_AI else f"{colour.label} computer", spec)


def side_label(settings: Settings, colour: Colour, resolve: Callable[[str], str]) -> str:
    """How the set-up screens and Quick game name a side: a person by the name given (``Ann``), else ``You``
    or the colour (``Red``); a computer by its agent (``Medium``)."""
    if settings.is_human(colour):
        return settings.name(colour) or ("You" if settings.mode is Mode.HUMAN_VS_AI else colour.label)
    return spec_label(resolve(settings.agent(colour)))


def config_from_settings(settings: Settings, resolve: Callable[[str], str], start_moves: str = "") -> MatchConfig:
    """The match the set-up screens describe; ``resolve(spec)`` turns ``""`` into the default agent."""
    players = {
        colour: player_for(
            colour,
            None if settings.is_human(colour) else resolve(settings.agent(colour)),
            settings.mode,
            settings.name(colour),
        )
        for colour in Colour
    }
    return MatchConfig(players[Colour.RED], players[Colour.YELLOW], settings.geometry(), settings.first, start_moves)
