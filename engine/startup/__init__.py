"""Start-up: agents' kernels compiled and loaded ahead of their moves, to hide numba's costs.

numba compiles a kernel the first time it runs (seconds per agent family on a
fresh install) and loads it from its on-disk cache after that (still a few
tenths of a second a process). One module per idea:

* :mod:`~engine.startup.warmup` - compile (or load) agents' kernels ahead of the first move
  (``python -m engine.warmup``);
* :mod:`~engine.startup.compile_log` - which kernels a piece of work compiles, and what each cost.

The solvers that answer before numba is loaded (:mod:`engine.solver.quick`,
:mod:`engine.solver.aot`) are solvers and stay in :mod:`engine.solver`, behind
:class:`~engine.solver.auto.AutoSolver`; numba's cache folder (:mod:`engine.kernel_cache`) and the
packages' names loaded on first use (:mod:`engine.lazy`) are below the kernels, which need them, while
this package prepares agents and so sits above them.

A program that prepares agents in the background (the game) goes through one
function, :func:`preparation`, and the :class:`Preparation` it returns: what to
run in a child process to compile a spec's kernels, whether that was done for
this version (a marker file in numba's cache folder), setting numba's compiler
up in the running process while that child compiles, and loading the kernels
into the running process. :class:`SearchAheadOfTime` is prepared the same way,
after the agents: the solver's search built ahead of time, once a version, for
the commands a person starts afresh (``solve``, ``analyze``); a running program
has numba loaded and no use for it. This module imports nothing heavy (the
warm-up is imported when it is used).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.stop import StopFlag


@dataclass(frozen=True)
class Preparation:
    """One agent spec's kernels, compiled and loaded ahead of its moves.

    ``wide``: those of boards over 64 bits too; ``opening`` (columns, rows,
    connect): only what the first move of a game on that board needs.
    """

    spec: str
    wide: bool = False
    opening: tuple[int, int, int] | None = None

    @property
    def marker(self) -> Path | None:
        """The file that says this is compiled in this engine version's cache (None: no cache folder)."""
        folder = os.environ.get("NUMBA_CACHE_DIR")  # (set by engine.kernel_cache for this version)
        if not folder:
            return None
        digest = hashlib.sha256(f"{self.spec}|{self.wide}|{self.opening}".encode()).hexdigest()[:16]
        return Path(folder) / f"prepared-{digest}"

    def is_done(self) -> bool:
        """True once compiled into the on-disk cache (or when there is no cache to fill: numba compiles in place)."""
        path = self.marker
        return path is None or path.exists()

    def mark_done(self) -> None:
        """Say that a child compiled it (a later start of this version only loads)."""
        path = self.marker
        if path is not None:
            with contextlib.suppress(OSError):  # (only a later start's speed depends on it)
                path.touch()

    def command(self, *, parent: int | None = None, jobs: int = 1) -> list[str]:
        """The command line that compiles it in a child process; ``parent``: the child ends when that process
        does; ``jobs``: an opening's independent parts in that many processes at once."""
        if self.opening is not None:
            board = ["--opening", "x".join(str(number) for number in self.opening), "--jobs", str(jobs)]
        else:
            board = ["--wide"] if self.wide else []
        watch = [] if parent is None else ["--parent", str(parent)]
        return [sys.executable, "-m", "engine.warmup", *watch, *board, self.spec]

    def load(self, stop: StopFlag | None = None) -> None:
        """Load (compiling what is missing) its kernels into this process: one tiny search; ``stop`` ends it."""
        from engine.geometry import Geometry
        from engine.startup.warmup import warm_up

        opening = None if self.opening is None else Geometry(*self.opening)
        warm_up([self.spec], wide=self.wide, stop=stop, opening=opening)

    def start_compiler(self) -> None:
        """Set numba's compiler up in this process (about a second; once a process is enough), e.g. while
        a child runs :meth:`command`, so that :meth:`load` then only loads."""
        from engine.startup.warmup import start_compiler

        start_compiler()


class SearchAheadOfTime(Preparation):
    """The solver's search built ahead of time (:mod:`engine.solver.aot`): a fresh ``solve`` or ``analyze``
    of a middle game then answers without loading numba (0.6 s and more of a command's start).

    Done once a version is built, or its build said why it could not be (no C compiler): a
    machine without one is not asked again at every start. Nothing to load into a running program.
    """

    def __init__(self) -> None:
        super().__init__("")

    def is_done(self) -> bool:  # (no marker: the module, or the note of why there is none, says it)
        from engine.solver import aot

        return aot.tried()

    def mark_done(self) -> None:
        """(The build leaves the module, or the note of why there is none.)"""

    def command(self, *, parent: int | None = None, jobs: int = 1) -> list[str]:
        watch = [] if parent is None else ["--parent", str(parent)]
        return [sys.executable, "-m", "engine.warmup", *watch, "--ahead-of-time-only"]

    def load(self, stop: StopFlag | None = None) -> None:
        """(Nothing: this process has numba's own search.)"""


def preparation(spec: str, *, wide: bool = False, opening: tuple[int, int, int] | None = None) -> Preparation:
    """How ``spec``'s kernels are prepared ahead of its moves (see :class:`Preparation`): a program's one
    way into the start-up machinery (the compiling child's command, its marker, the compiler's set-up in
    this process, the loading)."""
    return Preparation(spec, wide, opening)
