"""``bench solver --parts commands``: early 7x6 positions answered by a person's commands, each a fresh process.

What a person waits for when they type ``python -m engine solve POSITION``
or ``explore POSITION`` is the whole command: starting Python, loading the
book, perhaps numba and its kernels, then the search. So each position runs
as a process of its own here (the kernels already in numba's cache, as after
a first start), timed by its processor time (user and system, every thread:
a figure that does not depend on what else the machine runs) and by the
clock. ``solve`` gets the early-position set of the ``early`` part (after
4 to 12 random moves, with the scores they are checked against); ``explore``
gets seeded positions of up to 6 stones, each of whose columns must come
back with an exact value (the book's every position of 6 and 7 stones).
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from engine.bench.search import random_positions
from engine.console import emit
from engine.errors import EngineError
from engine.geometry import Geometry

ROOT = Path(__file__).resolve().parents[2]
#: The goals (seconds of processor time): at most one position in ``SLOW_SHARE`` over ``SLOW``, none over ``LIMIT``.
SLOW, LIMIT, SLOW_SHARE = 1.0, 2.0, 20


def timed(argv: Sequence[str]) -> tuple[str, float, float]:
    """Run ``python -m engine ARGV`` as a fresh process: its output, processor seconds and clock seconds."""
    before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "engine", *argv], cwd=ROOT, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise EngineError(f"engine {' '.join(argv)}: exit status {done.returncode}: {done.stderr.strip()}")
    return done.stdout, _children_cpu() - before, wall


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_commands(early: list[tuple[str, int]], seed: int, explore_count: int = 30) -> None:
    """``solve`` of each early position and ``explore`` of ``explore_count`` positions of 0 to 6 stones."""
    # The first solve of a version (or of a copy of the project elsewhere) compiles numba's kernels into its
    # cache: not what a person meets each time. A position off the book fills it, untimed.
    timed(["solve", "--no-book", max((moves for moves, _ in early), key=len)])
    cpu_times, wall_times, wrong = [], [], 0
    for moves, expected in early:
        out, cpu, wall = timed(["solve", moves])
        cpu_times.append(cpu)
        wall_times.append(wall)
        score = out.split()[-1]
        wrong += score != str(expected)
        emit(f"  solve {moves}: {score} (expected {expected}), {cpu:.2f} s of processor time, {wall:.2f} s")
    _summary(f"solve, {len(early)} early positions (4 to 12 stones)", cpu_times, wall_times)
    emit(f"  wrong scores: {wrong}")
    cpu_times, wall_times, unsolved = [], [], 0
    for board in random_positions(explore_count, seed, Geometry(), (0, 6), distinct=True):
        moves = board.move_string or ""  # (made by play from the empty board: always known)
        out, cpu, wall = timed(["explore", "--json", moves])
        cpu_times.append(cpu)
        wall_times.append(wall)
        scores = [column["score"] for column in json.loads(out)["columns"] if not column["full"]]
        unsolved += len(scores) != len(board.legal_columns()) or None in scores
        emit(f"  explore {moves or '(empty)'}: {scores}, {cpu:.2f} s of processor time, {wall:.2f} s")
    _summary(f"explore, {explore_count} positions of 0 to 6 stones", cpu_times, wall_times)
    emit(f"  positions with a column not answered: {unsolved}")


def _summary(what: str, cpu: list[float], wall: list[float]) -> None:
    emit(
        f"{what}, each a fresh process: processor time median {statistics.median(cpu):.2f} s, worst "
        f"{max(cpu):.2f} s, over {SLOW:g} s {sum(t > SLOW for t in cpu)} (goal at most 1 in {SLOW_SHARE}), "
        f"over {LIMIT:g} s {sum(t > LIMIT for t in cpu)} (goal none); clock median {statistics.median(wall):.2f} s, "
        f"worst {max(wall):.2f} s"
    )
