"""``python -m engine``: the command line.

Each command lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> exit status``; :data:`COMMANDS` lists them in ``--help`` order.
Errors the user can fix (:class:`EngineError`) print one clear line and exit 2;
nothing prints a traceback for bad input.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from engine.errors import EngineError

COMMANDS = ("solve", "analyze", "count", "move", "match", "play", "book", "bench", "tournament")


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Connect Four engine: rules, agents, solver and experiments for any board size.",
        formatter_class=_Formatter,
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"engine.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.cli.{name}":
                raise
            continue  # a command that is not built yet
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `python -m engine count ... | head`
        sys.stderr.close()
        return 0
