"""Every screen of the game by name: the one module that knows the screen classes.

Screens open each other by name through the app (``app.open("help")``), so
no screen imports another. Each screen's module is imported the first time
it is opened, so that the menu shows up before the engine (which some
screens import) is loaded.

To add a screen: write its module in ``game/scenes/`` (a :class:`~game.scene.Scene`
whose ``name`` is its name here, with its keys in its ``bindings``), and here
a function that imports its class and a line in :data:`SCREENS` (``menu=``
gives it a button in the row of the main menu, ``key=`` a key there).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.bindings import SHARING, Binding, Bindings

if TYPE_CHECKING:
    from game.scene import Host, Scene


@dataclass(frozen=True)
class Screen:
    """A screen: its name, where its class is, and its button (and key) in the menu."""

    name: str
    load: Callable[[], type[Scene]]  # imports the screen's module (on first use) and gives its class
    menu: str = ""  # the text of its button in the main menu's row ("": none)
    key: Binding | None = None  # the key that opens it from the menu (on the shortcuts card with the menu's)


def _match() -> type[Scene]:
    from game.scenes.match import MatchScene

    return MatchScene


def _menu() -> type[Scene]:
    from game.scenes.menu import MainMenu

    return MainMenu


def _mode_select() -> type[Scene]:
    from game.scenes.mode_select import ModeSelect

    return ModeSelect


def _agent_select() -> type[Scene]:
    from game.scenes.agent_select import AgentSelect

    return AgentSelect


def _board_setup() -> type[Scene]:
    from game.scenes.board_setup import BoardSetup

    return BoardSetup


def _result() -> type[Scene]:
    from game.scenes.result import ResultOverlay

    return ResultOverlay


def _review() -> type[Scene]:
    from game.scenes.review import ReviewScene

    return ReviewScene


def _why() -> type[Scene]:
    from game.scenes.why import WhyScene

    return WhyScene


def _players() -> type[Scene]:
    from game.scenes.players_overlay import PlayersOverlay

    return PlayersOverlay


def _help() -> type[Scene]:
    from game.scenes.help import HelpScene

    return HelpScene


def _settings() -> type[Scene]:
    from game.scenes.settings_screen import SettingsScene

    return SettingsScene


def _saved_games() -> type[Scene]:
    from game.scenes.saved_games import SavedGames

    return SavedGames


def _records() -> type[Scene]:
    from game.scenes.records import RecordsScene

    return RecordsScene


def _puzzles() -> type[Scene]:
    from game.scenes.puzzles import PuzzlesScene

    return PuzzlesScene


def _puzzle() -> type[Scene]:
    from game.scenes.puzzle import PuzzleScene

    return PuzzleScene


def _explorer() -> type[Scene]:
    from game.scenes.explorer import ExplorerScene

    return ExplorerScene


def _confirm() -> type[Scene]:
    from game.scenes.confirm import Confirm

    return Confirm


def _shortcuts() -> type[Scene]:
    from game.scenes.shortcuts import ShortcutsOverlay

    return ShortcutsOverlay


#: In the order a player meets them (the shortcuts card lists their keys in this order).
SCREENS = (
    Screen("match", _match),
    Screen("menu", _menu),
    Screen("mode_select", _mode_select),
    Screen("agent_select", _agent_select),
    Screen("board_setup", _board_setup),
    Screen("result", _result),
    Screen("review", _review),
    Screen("why", _why),
    Screen("players", _players),
    Screen("confirm", _confirm),
    Screen("help", _help, menu="How to play"),
    Screen("settings", _settings, menu="Settings"),
    Screen("records", _records, menu="Records"),
    Screen("puzzles", _puzzles, menu="Puzzles"),
    Screen("puzzle", _puzzle),
    Screen("explorer", _explorer),
    Screen(
        "saved_games",
        _saved_games,
        menu="Saved games",
        key=Binding("ctrl+o", label="Ctrl+O", does="the saved games (in the menu)", group=SHARING),
    ),
    Screen("shortcuts", _shortcuts),
)
BY_NAME = {screen.name: screen for screen in SCREENS}


def make(name: str, host: Host, *args: Any, **kwargs: Any) -> Scene:
    """A new screen of the name ``name`` (a KeyError names an unknown one)."""
    return BY_NAME[name].load()(host, *args, **kwargs)


def menu_entries() -> list[tuple[str, str]]:
    """The screens with a button in the main menu's row: (name, button text)."""
    return [(screen.name, screen.menu) for screen in SCREENS if screen.menu]


def menu_keys() -> list[tuple[str, Binding]]:
    """The screens the main menu opens with a key: (name, the key's binding)."""
    return [(screen.name, screen.key) for screen in SCREENS if screen.key is not None]


def all_bindings() -> Iterator[Bindings]:
    """Every screen's key table, in the order of :data:`SCREENS`, the menu's keys with the menu's (this
    imports every screen)."""
    for screen in SCREENS:
        yield screen.load().bindings
        if screen.name == "menu":
            yield Bindings(*(key for _, key in menu_keys()))
