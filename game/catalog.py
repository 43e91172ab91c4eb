"""The engine's agents, loaded and warmed up in the background.

Importing the agents pulls in numba, and the first move of each agent
compiles its kernels; neither may delay the first frame or freeze the window.
So the :class:`Catalog` does both on its own daemon thread, started after the
first frame: it imports the registry (after which the set-up screens can list
the agents), then warms up the agents the player is most likely to use first,
then every difficulty preset. Screens ask :attr:`Catalog.ready` before using
it and show a short "loading" note until then.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.worker import lower_priority

if TYPE_CHECKING:
    from engine.agents.base import Agent
    from engine.agents.registry import AgentInfo, Preset

#: Agents the custom-agent editor does not offer: people are chosen by the game mode.
HIDDEN_AGENTS = frozenset({"human"})


class Catalog:
    """Agents and presets from :mod:`engine.agents.registry`, loaded off the main thread."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._warm_requests: queue.SimpleQueue[tuple[list[str], bool] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._stop = None  # a StopFlag once the engine is imported
        self._stopping = False
        self._first: Callable[[], tuple[list[str], bool]] = lambda: ([], False)
        self._warm = True
        self.warming: str | None = None  # the spec being warmed up, for the "thinking" note
        self.load_error: str | None = None

    # -- background loading ------------------------------------------------------------
    def start(self, first: Callable[[], tuple[list[str], bool]], warm: bool = True) -> None:
        """Load the registry on the loading thread; then, if ``warm``, warm up the agents of ``first()``
        (the specs to warm first and whether their board is wide), then every preset. ``first`` is
        called on the loading thread because working it out may need the engine."""
        if self._thread is None:
            self._first, self._warm = first, warm
            self._thread = threading.Thread(target=self._run, name="engine-warm-up", daemon=True)
            self._thread.start()

    def warm(self, specs: list[str], wide: bool) -> None:
        """Ask for more warming (e.g. a custom agent about to play)."""
        self._warm_requests.put((specs, wide))

    def stop(self) -> None:
        self._stopping = True
        if self._stop is not None:
            self._stop.set()
        self._warm_requests.put(None)

    def _run(self) -> None:
        lower_priority()  # compiling must not slow the frames down
        try:
            from engine.agents import registry
            from engine.agents.base import StopFlag

            registry.agents()
        except Exception as exc:  # a broken agent module must not take the game down
            self.load_error = f"{type(exc).__name__}: {exc}"
            self._ready.set()
            return
        self._stop = StopFlag()
        if self._stopping:
            self._stop.set()
        self._ready.set()
        if not self._warm:
            return
        self._warm_each(*self._first())
        self._warm_each([preset.name for preset in registry.presets()], False)
        while (request := self._warm_requests.get()) is not None:
            self._warm_each(*request)

    def _warm_each(self, specs: list[str], wide: bool) -> None:
        from engine.warmup import warm_up

        for spec in specs:
            if self._stop.is_set():
                break
            self.warming = spec
            warm_up([spec], wide=wide, stop=self._stop)
        self.warming = None

    # -- what the screens use --------------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    def presets(self) -> list[Preset]:
        from engine.agents.registry import presets

        return presets()

    def agents(self) -> list[AgentInfo]:
        """The agents a player can configure by hand."""
        from engine.agents.registry import agents

        return [info for info in agents() if info.name not in HIDDEN_AGENTS]

    def hint_spec(self) -> str:
        """The agent that gives hints: the strongest preset."""
        presets = self.presets()
        return presets[-1].name if presets else "random"

    def default_spec(self) -> str:
        """The middle difficulty preset, or ``random`` if there are none."""
        presets = self.presets()
        return presets[len(presets) // 2].name if presets else "random"

    def check(self, spec: str) -> str | None:
        """Why ``spec`` cannot be used, or None; checks names and values without building the agent."""
        from engine.agents.registry import agent_info, parse_spec
        from engine.errors import EngineError

        try:
            name, raw = parse_spec(spec)
            info = agent_info(name)
            for key, text in raw.items():
                info.param(key).parse(text)
        except EngineError as exc:
            return str(exc)
        return None

    def resolve(self, spec: str) -> str:
        """``spec``, or the default difficulty for an empty or unusable one (say, a preset this version lacks)."""
        return spec if spec and self.check(spec) is None else self.default_spec()

    def create(self, spec: str) -> Agent:
        from engine.agents.registry import create_agent

        return create_agent(spec)
