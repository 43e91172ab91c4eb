"""What a match needs of the game around it: the app gives all of it, a test may give less real things."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from engine.agents.base import Agent
    from game.catalog import Catalog
    from game.options import Options
    from game.settings import Settings
    from game.sound import Sounds
    from game.tally import Tally
    from game.worker import Worker


class Services(Protocol):
    """What a match needs of the game around it (the app gives all of it; a test may give less real ones)."""

    settings: Settings
    settings_path: Path | None
    options: Options
    worker: Worker
    catalog: Catalog
    tally: Tally
    sounds: Sounds
    make_agent: Callable[[str], Agent]

    def notify(self, text: str, *, error: bool = False, seconds: float = 5.0) -> None: ...

    def quit(self) -> None: ...
