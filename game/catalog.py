"""The engine's agents, loaded and warmed up in the background.

Importing the agents pulls in numba, and the first move of each agent
compiles its kernels; neither may delay the first frame or freeze the window.
So the :class:`Catalog` does both on its own daemon thread, started after the
first frame: it imports the registry (after which the set-up screens can list
the agents), then warms up the agents the player is most likely to use first,
then every difficulty preset (compiled, on the first start of a version, in a
child process: see :func:`compile_elsewhere`). Screens ask
:attr:`Catalog.ready` before using it and show a short "loading" note until then.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from game.worker import lower_priority

if TYPE_CHECKING:
    from engine.agents.base import Agent
    from engine.agents.registry import AgentInfo, Preset
    from engine.stop import StopFlag

#: Agents the custom-agent editor does not offer: people are chosen by the game mode.
HIDDEN_AGENTS = frozenset({"human"})
#: Written into numba's cache folder (one per engine version) once the presets are compiled there.
COMPILED_MARKER = "presets-compiled"
PROJECT_DIR = Path(__file__).resolve().parent.parent


def _marker() -> Path | None:
    """The marker file in this engine version's numba cache folder (None without such a folder)."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    return Path(folder) / COMPILED_MARKER if folder else None


def first_start() -> bool:
    """True until the presets have been compiled for this engine version (see :func:`compile_elsewhere`)."""
    marker = _marker()
    return marker is not None and not marker.exists()


def compile_elsewhere(specs: list[str], stop: StopFlag, wide: bool = False) -> bool:
    """Compile the kernels of ``specs`` in a child process into numba's on-disk cache; True if it worked.

    Compiling takes far more memory than loading compiled code, and a process
    keeps what its compiler took: compiled in the game's own process, the
    kernels of the perfect agent and MCTS alone push it past 500 MB at the
    first start. The child fills the cache and exits; the game only loads
    from it (under 400 MB).
    """
    command = [sys.executable, "-m", "engine.warmup", *(["--wide"] if wide else []), *specs]
    try:
        child = subprocess.Popen(command, cwd=PROJECT_DIR, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return False  # no child processes here: the in-process warm-up compiles instead
    lower_priority(child.pid)
    while child.poll() is None:
        if stop.is_set():
            child.kill()
            child.wait()
            return False
        time.sleep(0.05)
    return child.returncode == 0


def mark_compiled() -> None:
    marker = _marker()
    if marker is not None:
        with contextlib.suppress(OSError):
            marker.touch()


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
        self._not_compiling = threading.Event()  # cleared while a child compiles the first agents
        self._not_compiling.set()
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

    def wait_until_compiled(self, stop: StopFlag) -> None:
        """Block (a worker thread) while a child process compiles the first agents, unless ``stop`` is set.

        Otherwise the agent's first move would compile the same kernels a second
        time, in the game's own process, with all the memory that takes.
        """
        while not self._not_compiling.wait(0.05):
            if stop.is_set():
                return

    def stop(self) -> None:
        self._not_compiling.set()
        self._stopping = True
        if self._stop is not None:
            self._stop.set()
        self._warm_requests.put(None)

    def _run(self) -> None:
        lower_priority()  # compiling must not slow the frames down
        try:
            from engine.agents import registry
            from engine.stop import StopFlag

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
        first_specs, wide = self._first()
        preset_specs = [preset.name for preset in registry.presets()]
        compiling = first_start()  # then compile in child processes, and only load here
        if compiling:
            self._not_compiling.clear()
            self.warming = ", ".join(first_specs)
            compile_elsewhere(first_specs, self._stop, wide)
            self._not_compiling.set()
        self._warm_each(first_specs, wide)
        if compiling and compile_elsewhere(preset_specs, self._stop):
            mark_compiled()
        self._warm_each(preset_specs, False)
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

    def news(self) -> tuple[object, ...]:
        """What the screens may show of the loading thread's work; a change means: redraw."""
        return (self.ready, self.load_error, self.warming)

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
