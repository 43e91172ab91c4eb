"""``bench``: benchmarks that report figures (speed, strength), never pass/fail."""

from __future__ import annotations

import importlib

from engine.cli.common import add_command

#: Benchmark modules under engine.bench, each with add_parser(subparsers) and run(args).
BENCHMARKS = (
    "playouts",
    "count",
    "search",
    "montecarlo",
    "mcts",
    "solver",
    "random_games",
    "soak",
    "time_limits",
    "ladder",
    "review",
    "kaggle",
    "explain",
)


def add_parser(subparsers) -> None:
    parser = add_command(subparsers, "bench", "benchmarks: print figures such as nodes per second")
    benches = parser.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True)
    for name in BENCHMARKS:
        try:
            module = importlib.import_module(f"engine.bench.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.bench.{name}":
                raise
            continue  # not built yet
        module.add_parser(benches)
