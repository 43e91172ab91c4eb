"""The exact search built ahead of time: real searches in a process that has not loaded numba.

A process that needs the compiled search spends about 0.4 s loading numba and
its cached kernels before the search starts (numba's import, then its one-time
set-up of everything it can compile). ``python -m engine.warmup
--ahead-of-time`` builds :func:`~engine.solver.negamax.solve_kernel` for boards
of one word (up to 9x6 and 8x7) into an ordinary Python extension module, with numba's
ahead-of-time compiler (which needs a C compiler), in this version's cache
folder (:mod:`engine.kernel_cache`: any change to the engine's source builds
anew). Loading that module takes milliseconds and no numba. The game builds it
too, once a version, as the last of its first start's preparation, at a low
priority (:class:`engine.startup.SearchAheadOfTime`); a build that fails leaves
a note of why beside it (:func:`note_path`), so that it is tried once a version,
not at every start.

When it is there, ``solve`` and ``analyze`` try each position with it after
the plain-Python :mod:`~engine.solver.quick` solver and before numba:
:class:`AheadOfTimeSolver` is the quick solver with this search in place of
its Python one. Its code is 6-8 % slower per node than numba's own (measured
on 4444: 24 M nodes, 6.1-6.2 vs 5.8 s), so it too has a node budget; a position it
cannot finish within it goes to the numba solver, which loads then, takes over
its transposition table (what it proved is not searched again) and answers
everything after it. Positions the opening book holds are left to that solver
too (it has the book). Without a C compiler, or when the build fails, nothing
changes but the start-up time.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import re
import tempfile
from pathlib import Path
from types import ModuleType

from engine.board import Board
from engine.errors import GeometryError
from engine.geometry import Geometry
from engine.kernel_cache import cache_root, loaded_digest
from engine.solver.quick import OverBudget, QuickSolver
from engine.solver.settings import MIN_BITS, checked_table_bits

# (The solver's arrays, its statistics and the stop flag are numpy's: imported where they are used, so
# that whether the module is built is asked without numpy.)

#: The extension module's name (its file adds the interpreter's suffix, e.g. ``.cpython-311-x86_64-linux-gnu.so``).
MODULE = "connect_four_search"
#: Positions an ahead-of-time solve may visit before the numba solver takes over (about 0.3 s).
BUDGET = 2_000_000
#: The plain-Python solver's budget where the module is built (about 30 ms; 5,000 where it is not).
#: Beyond it plain Python seldom finishes an early or middle-game position (docs/solver.md), and this
#: search answers about 0.1 s after it gives up (numpy and the module loaded).
QUICK_BUDGET = 1_000
#: The board whose types the module is built for: every board of one word has the same.
_SAMPLE = Geometry()


def module_path() -> Path:
    """Where this version of the engine keeps its module built ahead of time."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return cache_root() / loaded_digest() / "ahead-of-time" / f"{MODULE}{suffix}"


def built(geometry: Geometry) -> bool:
    """Is there a module of this version for ``geometry`` (a stat: no numpy, nothing loaded)?"""
    return not geometry.wide and module_path().is_file()


def note_path() -> Path:
    """Where a build of this version that failed says why (one line)."""
    return module_path().with_name("not-built.txt")


def tried() -> bool:
    """True once this version's module was built, or a build said why it could not be."""
    return module_path().is_file() or note_path().is_file()


class NotBuilt(RuntimeError):
    """The module could not be built here (no C compiler, most often): one line says why."""


def load() -> ModuleType | None:
    """The module built ahead of time for this version, or None if there is none that loads."""
    path = module_path()
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(MODULE, path)
    if spec is None or spec.loader is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (ImportError, OSError):  # (a damaged file, or one built for another machine)
        return None
    return module if hasattr(module, "solve_kernel") else None


def build() -> Path:
    """Build the module for this version (seconds; needs numba and a C compiler); return its path.

    Raises :class:`NotBuilt` with the first line of what numba's ahead-of-time
    compiler or the C toolchain raised (no C compiler, most often), and
    leaves that line in :func:`note_path`. The module appears at once or not at all.
    """
    try:
        path = _compile()
    except Exception as exc:  # (numba's compiler and the C toolchain raise many kinds: each is one line here)
        reason = _first_sentence(str(exc)) or type(exc).__name__
        with contextlib.suppress(OSError):  # (only whether a later start tries again depends on it)
            note_path().parent.mkdir(parents=True, exist_ok=True)
            note_path().write_text(reason + "\n", encoding="utf-8")
        raise NotBuilt(reason) from exc
    note_path().unlink(missing_ok=True)
    return path


def _first_sentence(message: str) -> str:
    """The first sentence of a message (numba's go on with advice for other set-ups, e.g. conda's)."""
    line = (message.strip().splitlines() or [""])[0]
    return re.split(r"(?<=\.)\s+", line)[0]


def _compile() -> Path:
    from numba import typeof, types
    from numba.pycc import CC

    from engine.solver.arrays import SolveContext, new_scratch, new_table
    from engine.solver.negamax import solve_kernel
    from engine.stats import new_stats
    from engine.stop import StopFlag

    board = Board(_SAMPLE)
    current, mask = board.kernel_state()
    ctx = SolveContext(new_stats(), StopFlag().array, new_table(MIN_BITS, False), new_scratch(_SAMPLE))
    arguments = (current, mask, 0, False, _SAMPLE.kernel, ctx)
    signature = types.int64(*(typeof(argument) for argument in arguments))
    path = module_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent) as folder:
        compiler = CC(MODULE)
        # (For any processor of this architecture, not only this one: a cache folder may be shared
        # between machines. Measured no slower than the module built for this processor.)
        compiler.output_dir = folder
        compiler.export("solve_kernel", signature)(solve_kernel.py_func)
        compiler.compile()
        os.replace(Path(folder) / path.name, path)
    return path


class AheadOfTimeSolver(QuickSolver):
    """The quick solver's answers, searched by the module built ahead of time (within :data:`BUDGET` nodes)."""

    def __init__(self, geometry: Geometry, module: ModuleType, table_mb: float, budget: int | None = None) -> None:
        from engine.solver.arrays import new_scratch, new_table
        from engine.stop import StopFlag

        if geometry.wide:
            raise GeometryError("the search built ahead of time is for boards of up to 64 bits")
        super().__init__(geometry, BUDGET if budget is None else budget)
        self._kernel = module.solve_kernel
        #: What the searches proved: numba's solver goes on from it when this one gives up.
        self.table = new_table(checked_table_bits(table_mb, False), False)
        self._scratch = new_scratch(geometry)
        self._flag = StopFlag().array  # (nobody stops it: the budget does)

    def _solve(self, current: int, mask: int, ply: int, weak: bool) -> int:
        from engine.solver.arrays import SolveContext
        from engine.stats import ABORTED, NODES, new_stats

        if self.nodes >= self.budget:
            raise OverBudget  # (a limit of 0 would mean none)
        to_kernel = self.geometry.to_kernel
        stats = new_stats(self.budget - self.nodes)
        ctx = SolveContext(stats, self._flag, self.table, self._scratch)
        score = self._kernel(to_kernel(current), to_kernel(mask), ply, weak, self.geometry.kernel, ctx)
        self.nodes += int(stats[NODES])
        if stats[ABORTED]:
            raise OverBudget
        return int(score)
