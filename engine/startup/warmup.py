"""Compile the agents' numba kernels before anyone has to wait for them.

numba compiles a kernel the first time it is called with a new type of
arguments, and on a fresh install that takes seconds per agent (later starts
load the compiled code from numba's on-disk cache, which is much quicker but
still not free). Whoever calls :func:`warm_up` pays that price up front: the
game does it from a background thread at start-up, so that the window stays
responsive and the first real move is not slowed down by the compiler.

The trick is simply to ask each agent for one move on a tiny board with a
tiny time budget. The kernels are typed by the *width* of the bitboards, not
by the board size, so one narrow board (a single ``uint64``) compiles what
every board up to 64 bits needs, and one wide board (a ``(low, high)`` pair)
what 8x8 and 9x9 need. Run ``python -m engine.warmup`` to fill the cache by
hand.

An *opening* warm-up (``opening=``, ``--opening 7x6x4``) prepares only what
the first move of a game on that board needs (:meth:`Agent.prepare_for
<engine.agents.base.Agent.prepare_for>` on the empty board and after one
move): no endgame solver for Monte Carlo tree search, no solver at all for
the perfect agent where the opening book answers. The game compiles that
first, so that the first move of a fresh install waits for as little as
possible, and the rest right after it.

With ``jobs=2`` (``--jobs 2``) an opening warm-up also spreads its compiling
over two cores: numba compiles one kernel at a time in a process, but the
independent parts of an agent's preparation (:meth:`Agent.preparation_parts
<engine.agents.base.Agent.preparation_parts>`, e.g. the playouts and the
expansion of Monte Carlo tree search) can each be compiled by a process of
their own. A helper (the same command with ``--part 1``) is started at once
and compiles every other part into numba's on-disk cache while this process
compiles the first; the move that follows waits for the helper and loads
its kernels. numba writes each kernel's cache files under names of their
own, through a temporary file renamed into place, so the two processes never
write the same file at once unless both compile the same kernel (one of the
rules both parts call), for the same types, with the same result.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from engine.agents.base import Agent
from engine.agents.registry import create_agent, presets
from engine.board import Board
from engine.errors import EngineError
from engine.geometry import Geometry
from engine.limits import Limits
from engine.stop import StopFlag
from engine.validate import int_arg

#: The smallest boards of each kernel representation, a few moves in.
NARROW = Geometry(4, 4, 3)
WIDE = Geometry(8, 8, 4)
_OPENING = "12"
#: Seconds a warm-up waits at most for its helpers (they take seconds; a stuck one is not waited for).
HELPER_WAIT = 300.0


@dataclass(frozen=True)
class Warmed:
    """What warming one agent spec cost, or why it failed."""

    spec: str
    seconds: float
    error: str | None = None


def warm_up(
    specs: Iterable[str] | None = None,
    *,
    wide: bool = False,
    budget: float = 0.05,
    stop: StopFlag | None = None,
    opening: Geometry | None = None,
    jobs: int = 1,
    part: int | None = None,
) -> list[Warmed]:
    """Prepare each agent (default: every difficulty preset) and ask it for a move on a tiny board.

    ``wide`` also warms the two-word kernels (boards of more than 64 bits).
    ``opening`` prepares only the first move of a game on that board instead,
    and with ``jobs`` above 1 compiles the independent parts of each agent's
    preparation in that many processes at once: this one and helpers, which
    the first move waits for (see the module docstring). ``part`` makes this
    process such a helper: it compiles only the parts ``part``, ``part +
    jobs``, ... of each agent, and asks for no move. ``budget`` is the time
    limit of each search once its kernels are compiled; ``stop`` ends the
    warm-up early. An agent that fails is reported, not raised: the caller
    will see the same error when it really uses the agent.
    """
    stop = stop or StopFlag()
    specs = list(specs) if specs is not None else [preset.name for preset in presets()]
    helpers: list[subprocess.Popen[bytes]] = []
    if opening is not None:
        boards = [Board(opening), Board.from_moves(str(opening.cols // 2 + 1), opening)]
        if part is None:
            helpers = [_start_helper(specs, opening, jobs, k) for k in range(1, jobs)]
    else:
        boards = [Board.from_moves(_OPENING, geometry) for geometry in ((NARROW, WIDE) if wide else (NARROW,))]
        jobs, part = 1, None  # only an opening warm-up is split into parts
    done: list[Warmed] = []
    try:
        for spec in specs:
            if stop.is_set():
                break
            start = time.perf_counter()
            try:
                agent = create_agent(spec, seed=0)
                if not agent.is_human:
                    try:
                        parts = agent.preparation_parts(boards[0])
                        for prepare in parts[part or 0 :: jobs]:
                            prepare()
                        if part is None:
                            if len(parts) > 1:
                                _wait(helpers, stop)  # their parts are in the cache now: the move only loads them
                            _first_moves(agent, boards, opening is not None, budget, stop)
                    finally:
                        agent.close()
            except Exception as exc:  # reported to the caller, who decides what to tell the user
                done.append(Warmed(spec, time.perf_counter() - start, f"{type(exc).__name__}: {exc}"))
                continue
            done.append(Warmed(spec, time.perf_counter() - start))
    finally:
        for helper in helpers:  # stopped early: what they compile would not be used
            with contextlib.suppress(OSError):
                helper.kill()
            helper.wait()
    return done


def _first_moves(agent: Agent, boards: list[Board], opening: bool, budget: float, stop: StopFlag) -> None:
    """A move of ``agent`` at each board, within ``budget`` once prepared (everything, unless ``opening``)."""
    for board in boards:
        if opening:
            agent.new_game()  # each board is the first move of a game: nothing kept from the last
        else:
            agent.prepare(board.geometry)  # everything, even what a tiny board does not use
        with stop.deadline(budget) as limit:
            agent.choose(board, Limits(stop=limit))


def _start_helper(specs: list[str], opening: Geometry, jobs: int, part: int) -> subprocess.Popen[bytes]:
    """A process that compiles part ``part`` of each agent's opening (it ends with this one)."""
    board = f"{opening.cols}x{opening.rows}x{opening.connect}"
    command = [sys.executable, "-m", "engine.warmup", "--opening", board, "--jobs", str(jobs), "--part", str(part)]
    return subprocess.Popen(
        [*command, "--parent", str(os.getpid()), "--", *specs], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
    )


def _wait(helpers: list[subprocess.Popen[bytes]], stop: StopFlag) -> None:
    """Wait until the helpers are done (or ``stop`` is set); a failed or stuck helper only leaves more to
    compile here."""
    deadline = time.monotonic() + HELPER_WAIT
    while not stop.is_set() and time.monotonic() < deadline and any(helper.poll() is None for helper in helpers):
        time.sleep(0.01)


def start_compiler() -> None:
    """Set numba's compiler up now rather than on the first kernel this process loads.

    Before it compiles or loads its first kernel, numba builds its CPU target
    (hundreds of typing and lowering registries, and probes for optional
    packages such as SciPy's BLAS): a few tenths of a second. The game does
    it on its loading thread while a child compiles the first player, so
    that the first move only loads that player's kernels.
    """
    from numba import njit

    njit(lambda: 0)()


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.warmup [--wide | --opening CxRxN [--jobs N]] [--ahead-of-time[-only]] [SPEC ...]``:
    fill numba's cache, print what it cost."""
    parser = argparse.ArgumentParser(prog="python -m engine.warmup", description=main.__doc__)
    parser.add_argument("--wide", action="store_true", help="also the kernels of boards of more than 64 bits")
    parser.add_argument("--opening", type=_geometry, help="only what the first move on this board needs, e.g. 7x6x4")
    parser.add_argument(
        "--jobs",
        type=int_arg(1, 8),
        default=1,
        help="with --opening: compile the independent parts of each agent's preparation in this many processes",
    )
    parser.add_argument("--part", type=int_arg(1, 7), help=argparse.SUPPRESS)  # a helper of --jobs: these parts only
    parser.add_argument("--kernels", action="store_true", help="also list the kernels compiled, each with its cost")
    parser.add_argument(
        "--ahead-of-time",
        action="store_true",
        help="also build the solver's search as a module that loads without numba (needs a C compiler): "
        "solve and analyze then answer positions that need a search from about 0.2 s after their start",
    )
    parser.add_argument(
        "--ahead-of-time-only",
        action="store_true",
        help="build only that, no agent's kernels (the game does it once a version, after its players)",
    )
    parser.add_argument("specs", nargs="*", metavar="SPEC", help="agent specs (default: every difficulty preset)")
    parser.add_argument("--parent", type=int, help="end as soon as this process (the one that started it) is gone")
    args = parser.parse_args(argv)
    if args.part is not None and (args.opening is None or args.part >= args.jobs):
        parser.error("--part needs --opening and must be below --jobs")
    if args.ahead_of_time_only and (args.specs or args.opening or args.wide):
        parser.error("--ahead-of-time-only prepares no agent: name no SPEC, --wide or --opening")
    if args.parent is not None:
        _end_with_parent(args.parent)
    from engine.startup.compile_log import CompileLog  # numba: imported once the helpers are on their way

    log = CompileLog()
    done: list[Warmed] = []
    with log.recording() if args.kernels else contextlib.nullcontext():
        if not args.ahead_of_time_only:
            done = warm_up(args.specs or None, wide=args.wide, opening=args.opening, jobs=args.jobs, part=args.part)
    failures = 0
    for item in done:
        failures += item.error is not None
        print(f"{item.spec:<24} {item.seconds:6.2f} s  {item.error or 'ok'}")
    if args.kernels:
        print(log.table())
    if args.ahead_of_time or args.ahead_of_time_only:
        failures += not _build_ahead_of_time()
    return 1 if failures else 0


def _build_ahead_of_time() -> bool:
    """Build the solver's search ahead of time (see engine.solver.aot); say how it went in one line."""
    from engine.solver import aot

    start = time.perf_counter()
    try:
        path = aot.build()
    except aot.NotBuilt as exc:
        print(f"{'ahead-of-time search':<24} {time.perf_counter() - start:6.2f} s  not built: {exc}")
        return False
    print(f"{'ahead-of-time search':<24} {time.perf_counter() - start:6.2f} s  ok ({path})")
    return True


def _end_with_parent(parent: int, poll: float = 0.2) -> None:
    """End this process as soon as ``parent``, the process that started it, is gone.

    The game ends its compiling child when it closes, but a game that dies
    (killed, or its display gone) cannot; then nobody would use what the
    child compiles, and it would go on taking a core for seconds.
    """

    def watch() -> None:
        while os.getppid() == parent:  # a child whose parent ended is handed to another process
            time.sleep(poll)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _geometry(text: str) -> Geometry:
    try:
        return Geometry.parse(text)
    except EngineError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


if __name__ == "__main__":
    sys.exit(main())
