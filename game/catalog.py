"""The engine's agents, loaded in the background, and their preparation.

Importing the agents pulls in numba, and the first move of each agent
compiles or loads its kernels; neither may delay the first frame or freeze
the window. So the :class:`Catalog` imports the registry on its own daemon
thread, started after the first frame (after which the set-up screens can
list the agents), and hands the agents to a :class:`~game.preparation.Preparer`:
first the players the game is about to need (their first move, then the
rest), then every difficulty level, then the solver's search built ahead of time
for the command line (once a version). The players of a match named on the
command line go to the preparer at once, before the engine is loaded here.
Screens ask :attr:`Catalog.ready` before using it and show a short "loading"
note until then, and :meth:`Catalog.progress` while players are prepared.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.labels import board_name
from game.preparation import AHEAD_OF_TIME, Preparer, Progress, Task, engine_preparation, is_compiled
from game.worker import lower_priority

if TYPE_CHECKING:
    from engine.agents.base import Agent
    from engine.agents.registry import AgentInfo, Preset
    from engine.board import Board
    from engine.geometry import Geometry
    from engine.stop import StopFlag

#: Agents the custom-agent editor does not offer: people are chosen by the game mode.
HIDDEN_AGENTS = frozenset({"human"})


class Catalog:
    """Agents and presets from :mod:`engine.agents.registry`, loaded off the main thread."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._preparer: Preparer | None = None
        self._warmed = False  # a match asked for its players: the guess of first() comes after them
        self._lock = threading.Lock()
        self._first: Callable[[], tuple[list[str], Geometry | None]] = lambda: ([], None)
        self.load_error: str | None = None

    # -- background loading ------------------------------------------------------------
    def start(self, first: Callable[[], tuple[list[str], Geometry | None]], warm: bool = True) -> None:
        """Load the registry on the loading thread; then, if ``warm``, prepare the agents of ``first()``
        (the specs to prepare first and their board), then every preset. ``first`` is called on the
        loading thread because working it out needs the engine."""
        if self._thread is None:
            self._first = first
            if warm:
                self.prepare_now()
            self._thread = threading.Thread(target=self._run, name="engine-registry", daemon=True)
            self._thread.start()

    def prepare_now(self) -> None:
        """Start the preparing thread, if it is not running yet. Call it from the main thread, so that the
        thread keeps the full priority (see Preparer); it needs no engine, so it may run before the first frame."""
        if self._preparer is None:
            self._preparer = Preparer(_load, _start_compiler)
            self._preparer.start()

    def warm(self, specs: list[str], geometry: Geometry) -> None:
        """These players are about to play on ``geometry``: prepare them before anything else,
        what their first move needs first. Needs no engine: the preparing starts at once."""
        with self._lock:
            self._warmed = True
        if self._preparer is not None:
            self._preparer.urgent(_match_tasks(specs, geometry), for_match=True)

    def waits_for(self, spec: str, board: Board) -> bool:
        """True while a move of ``spec`` at ``board`` would wait for its kernels to be compiled (a first start)."""
        preparer = self._preparer
        return preparer is not None and preparer.waits_for(_task_for(spec, board))

    def wait_until_prepared(self, spec: str, board: Board, stop: StopFlag) -> None:
        """Block (a worker thread) while the kernels of ``spec``'s move at ``board`` are compiled elsewhere,
        unless ``stop`` is set.

        Otherwise its first move would compile the same kernels a second
        time, in the game's own process, with all the memory that takes.
        """
        preparer = self._preparer
        if preparer is not None:
            preparer.wait(_task_for(spec, board), stop)

    def hold_loading(self, hold: bool) -> None:
        """While ``hold`` (a match is on screen), load no other players into this process."""
        if self._preparer is not None:
            self._preparer.hold_loading(hold)

    def progress(self) -> Progress | None:
        """What is being prepared now, if anything."""
        preparer = self._preparer
        return None if preparer is None else preparer.progress()

    def stop(self) -> None:
        """End the loading and preparing at once (the window is closing)."""
        if self._preparer is not None:
            self._preparer.close()

    def _run(self) -> None:
        lower_priority()  # loading must not slow the frames down
        try:
            from engine.agents import registry

            registry.agents()
        except Exception as exc:  # a broken agent module must not take the game down
            self.load_error = f"{type(exc).__name__}: {exc}"
            self._ready.set()
            return
        self._ready.set()
        preparer = self._preparer
        if preparer is None:
            return
        first_specs, geometry = self._first()  # the players a first game would have
        first = [] if geometry is None else _match_tasks(first_specs, geometry)
        with self._lock:
            if not self._warmed:  # no match has asked yet: prepare the likely one first
                preparer.urgent(first)
                first = []
        preparer.plan([*first, *(Task(preset.name) for preset in registry.presets()), AHEAD_OF_TIME])

    # -- what the screens use --------------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def news(self) -> tuple[object, ...]:
        """What the screens may show of the loading thread's work; a change means: redraw."""
        progress = self.progress()
        shown = progress and (progress.spec, progress.done, progress.total, int(progress.seconds()))
        return (self.ready, self.load_error, shown)

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
        """Why ``spec`` cannot be used, or None.

        The agent is made and closed at once (making one only checks its keys and how they go together,
        e.g. ``mode=`` only with ``eval=seed000``; nothing is loaded or searched), so that a spec from a
        file that passes here also opens a match.
        """
        from engine.agents.registry import create_agent
        from engine.errors import EngineError

        try:
            create_agent(spec).close()
        except EngineError as exc:
            return str(exc)
        return None

    def resolve(self, spec: str) -> str:
        """``spec``, or the default difficulty for an empty or unusable one (say, a preset this version lacks)."""
        return spec if spec and self.check(spec) is None else self.default_spec()

    def create(self, spec: str) -> Agent:
        from engine.agents.registry import create_agent

        return create_agent(spec)

    def guesses(self, spec: str, geometry: Geometry) -> bool:
        """Whether ``spec`` is a level that plays perfectly on the classic board but only guesses on
        ``geometry`` (the game then says "best guess" wherever it names that level)."""
        preset = next((preset for preset in self.presets() if preset.name == spec), None)
        return preset is not None and _guesses(preset, geometry)


def level_title(preset: Preset, geometry: Geometry) -> str:
    """A level as the level list names it on ``geometry``: its Elo only on the board where it was measured
    (the list says which: :func:`ladder_note`), and "best guess" where its moves are exact on the classic
    board but not on this one."""
    guess = "best guess" if _guesses(preset, geometry) else ""
    return " · ".join(filter(None, (preset.name.capitalize(), preset.rating_on(geometry), guess)))


def ladder_note(presets: list[Preset], geometry: Geometry) -> str:
    """Where the level list's Elo ratings were measured, when it shows them ("" when it shows none): the
    list comes before the board is chosen, and an Elo from 7x6 says little of another board."""
    return f"Elo measured on {board_name(geometry)}" if any(preset.rating_on(geometry) for preset in presets) else ""


def level_summary(preset: Preset, geometry: Geometry) -> str:
    """What a level does on ``geometry``: its own summary, unless its claim of exact play does not hold there."""
    if not _guesses(preset, geometry):
        return preset.summary
    return (
        f"a best guess on {board_name(geometry)}: exact only where the solver finishes in its time (late in a game),"
        " else a short search's choice"
    )


@functools.lru_cache(maxsize=64)
def _guesses(preset: Preset, geometry: Geometry) -> bool:
    return preset.guesses_on(geometry)  # (makes the agent to ask it: kept, as the screens ask every frame)


def _match_tasks(specs: list[str], geometry: Geometry) -> list[Task]:
    """What the players of a match on ``geometry`` need: their first moves, then everything."""
    return [Task.first_move(spec, geometry) for spec in specs] + [Task(spec, geometry.wide) for spec in specs]


def _task_for(spec: str, board: Board) -> Task:
    """The task a move of ``spec`` at ``board`` waits for: the first move's, early in a game, unless
    everything is compiled already."""
    everything = Task(spec, board.geometry.wide)
    opening = Task.first_move(spec, board.geometry)
    return opening if opening.covers(board) and not is_compiled(everything) else everything


def _start_compiler(task: Task) -> None:
    """Set numba's compiler up in this process while a child compiles ``task`` (the first player's), at full
    priority (a move that waits for it must not wait for a low-priority thread); the first move then only loads."""
    engine_preparation(task).start_compiler()


def _load(task: Task, stop: StopFlag) -> None:
    """Load ``task``'s compiled kernels into this process (one tiny search)."""
    engine_preparation(task).load(stop)
