"""``bench kaggle``: a submission's move times in Kaggle's own environment, from an empty cache.

For each level and board, a fresh submission (:mod:`engine.interop.submission`)
is unpacked into an empty folder and plays one game against Kaggle's
``negamax`` in ``kaggle_environments`` (its path given, as Kaggle's runner
loads it: the first move includes loading ``main.py``), in a process of its
own with an empty numba cache folder. ``--no-cache`` runs it where no folder
can be written at all (as root: a mount namespace in which the submission's
folder, ``/tmp`` and ``/var/tmp`` are read-only and ``HOME`` is no folder).
The durations are Kaggle's (``env.logs``: the time around each call of the
agent). Per game: the first move, the slowest, the median, how many moves
went over ``actTimeout``, the overage bank left, when the engine agent was
ready (it prepares on a thread; plain Python plays until then) and the result.
Nothing is asserted: the machine decides the figures.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from engine.console import emit
from engine.geometry import Geometry
from engine.interop.submission import archive

GAME = r"""
import json, re, sys
from kaggle_environments import make
main, configuration = sys.argv[1], json.loads(sys.argv[2])
env = make("connectx", configuration=configuration)
steps = env.run([main, "negamax"])
durations = [log[0]["duration"] for log in env.logs if log and "duration" in log[0]]
print(json.dumps({
    "durations": durations,
    "statuses": [state["status"] for state in steps[-1]],
    "rewards": [state["reward"] for state in steps[-1]],
    "overage": steps[-1][0]["observation"]["remainingOverageTime"],
    "act_timeout": env.configuration.actTimeout,
    "log": "".join(log[0].get("stderr", "") for log in env.logs if log),
}))
"""

#: What the --no-cache game runs inside (as root): every folder numba could write to made read-only.
READ_ONLY = """set -e
for folder in "$1" /tmp /var/tmp; do mount --bind "$folder" "$folder"; mount -o remount,bind,ro "$folder"; done
shift
exec "$@"
"""


def add_parser(benches) -> None:
    parser = benches.add_parser("kaggle", help="a Kaggle submission's move times in kaggle_environments, cold cache")
    parser.add_argument("specs", nargs="*", metavar="AGENT", help="levels (default: every difficulty preset)")
    parser.add_argument(
        "--board",
        action="append",
        type=Geometry.parse,
        metavar="COLSxROWSxCONNECT",
        help="boards (repeatable; default 7x6x4 and 9x9x4)",
    )
    parser.add_argument(
        "--size",
        action="append",
        default=[],
        metavar="COLSxROWSxCONNECT",
        help="a board the engine does not play (e.g. 10x3x7), answered by the plain-Python search",
    )
    parser.add_argument("--no-cache", action="store_true", help="no folder can be written (root: a mount namespace)")
    parser.set_defaults(run=run)


def run(args) -> int:
    if importlib_missing("kaggle_environments"):
        emit("kaggle_environments is not installed: pip install --no-deps -r requirements-kaggle.txt")
        return 1
    from engine.agents.registry import presets

    specs = args.specs or [preset.name for preset in presets()]
    boards = [(g.cols, g.rows, g.connect) for g in args.board or [Geometry(7, 6, 4), Geometry(9, 9, 4)]]
    for size in args.size:
        cols, rows, connect = (int(part) for part in size.split("x"))
        boards.append((cols, rows, connect))
    mode = "no writable folder" if args.no_cache else "empty cache folder"
    emit(f"Kaggle's connectx vs negamax, a fresh submission each game, {mode}; times are Kaggle's, in seconds")
    emit("level        board      first  slowest median  over  moves overage  ready_after  result")
    for cols, rows, connect in boards:
        for spec in specs:
            emit(line(spec, (cols, rows, connect), play(spec, (cols, rows, connect), args.no_cache)))
    return 0


def importlib_missing(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is None


def play(spec: str, board: tuple[int, ...], no_cache: bool) -> dict:
    """One game of a fresh submission of ``spec`` (first to move) on ``board``, in a process of its own."""
    cols, rows, connect = board
    folder = Path(tempfile.mkdtemp(prefix="kaggle-submission-"))
    try:
        with tarfile.open(fileobj=__import__("io").BytesIO(archive(spec)), mode="r:gz") as tar:
            tar.extractall(folder, filter="data")
        cache = folder / "cache"
        cache.mkdir()
        environment = {key: value for key, value in os.environ.items() if not key.startswith(("NUMBA_", "XDG_"))}
        environment["PYTHONPATH"] = ""  # the engine comes from the submission, as on Kaggle
        environment["XDG_CACHE_HOME"] = str(cache)
        command = [
            sys.executable,
            "-c",
            GAME,
            str(folder / "main.py"),
            json.dumps({"columns": cols, "rows": rows, "inarow": connect}),
        ]
        if no_cache:
            if os.geteuid() != 0 or shutil.which("unshare") is None:
                return {"error": "--no-cache needs root and unshare here"}
            environment.update(HOME="/nonexistent", XDG_CACHE_HOME="/nonexistent")
            command = [
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                READ_ONLY,
                "sh",
                str(folder),
                *command,
            ]
        done = subprocess.run(
            command, cwd=folder, env=environment, capture_output=True, text=True, timeout=1800, check=False
        )
        if done.returncode != 0:
            return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["log"] += done.stderr
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def result_words(statuses: list[str], rewards: list) -> str:
    """The submission's (the first agent's) result: won, lost or drawn; else Kaggle's statuses as they are
    (an ERROR, INVALID or TIMEOUT says which side broke)."""
    if statuses == ["DONE", "DONE"] and rewards[0] in (1, 0, -1):
        return {1: "won", 0: "drawn", -1: "lost"}[rewards[0]]
    return "/".join(f"{status} {reward}" for status, reward in zip(statuses, rewards, strict=True))


def line(spec: str, board: tuple[int, ...], result: dict) -> str:
    name = "x".join(str(part) for part in board)
    if "error" in result:
        return f"{spec:<12} {name:<9}  {result['error']}"
    durations = result["durations"]
    over = sum(duration > result["act_timeout"] for duration in durations)
    ready = "-"
    for text in result["log"].splitlines():
        if " is ready (" in text:
            ready = text.split(" is ready (")[1].split(" s")[0] + " s"
        elif "plain-Python search plays" in text:
            ready = "plain"
    outcome = result_words(result["statuses"], result["rewards"])
    return (
        f"{spec:<12} {name:<9} {durations[0]:6.2f} {max(durations):8.2f} {statistics.median(durations):6.2f} "
        f"{over:5d} {len(durations):6d} {result['overage']:7.1f}  {ready:>11}  {outcome}"
    )
