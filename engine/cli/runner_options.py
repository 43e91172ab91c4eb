"""What ``experiment``, ``report`` and ``tournament`` share: where games run and where rows go."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from engine.errors import EngineError
from engine.experiments.executors import CLUSTER_TIMEOUT, CLUSTER_TIMEOUT_VARIABLE, cluster_argument
from engine.validate import int_arg

#: Seeds are whole numbers from 0 to 2**32 - 1 (what numpy's SeedSequence and the agents take).
MAX_SEED = 2**32 - 1


def add_runner_arguments(parser: argparse.ArgumentParser, out_help: str) -> None:
    group = parser.add_argument_group("running")
    group.add_argument(
        "--seed",
        type=int_arg(0, MAX_SEED),
        default=0,
        metavar="S",
        help="seed: the same seed gives the same rows (default 0)",
    )
    group.add_argument(
        "--jobs",
        type=int_arg(1, 1024),
        default=None,
        metavar="N",
        help="local worker processes (default: every core; 1 runs here)",
    )
    group.add_argument(
        "--cluster",
        type=cluster_argument,
        default=None,
        metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at tcp://HOST:PORT; its scheduler and workers must be "
        "trusted and able to import this project (docs/cluster.md); stops with an error after "
        f"{CLUSTER_TIMEOUT:g} s without an answer or a worker ({CLUSTER_TIMEOUT_VARIABLE}=SECONDS changes it)",
    )
    group.add_argument("--out", type=Path, default=None, metavar="DIR", help=out_help)
    group.add_argument(
        "--restart", action="store_true", help="forget the rows of an earlier run in DIR (default: resume it)"
    )
    group.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def prepare_out(args: argparse.Namespace, default: Path) -> Path:
    """The output folder (``--out`` or ``default``), emptied of old rows with ``--restart``."""
    out: Path = args.out or default
    if out.exists() and not out.is_dir():
        raise EngineError(f"--out {str(out)!r} is a file, not a folder")
    if args.restart and out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    return out
