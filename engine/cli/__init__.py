"""``python -m engine``: the command line.

Each command lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> exit status``; :data:`COMMANDS` lists them in ``--help`` order.
A command line that names its command imports that command's module alone
(the others bring in agents, experiments and plotting), so that a pipe of
``solve`` calls does not pay for them.
Errors the user can fix (:class:`EngineError`) print one clear line and exit 2;
so does an OSError (a path the user gave that cannot be made, read or
written: a name over 255 bytes, a missing folder, no permission) and an
allocation that the machine or the process's limit refuses. Nothing prints a
traceback for bad input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any, NoReturn

from engine.errors import AgentFailure, EngineError
from engine.validate import float_arg, int_arg
from engine.version import VERSION, typed_name

COMMANDS = (
    "solve",
    "analyze",
    "explain",
    "review",
    "explore",
    "puzzles",
    "count",
    "move",
    "match",
    "play",
    "book",
    "bench",
    "experiment",
    "report",
    "tournament",
    "tree",
    "kaggle-submission",
    "grade",
)


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose numbers are checked and whose errors are one line.

    Every ``type=int`` flag of every command (and of the sub-commands made
    from this parser, which inherit the class) reads ASCII digits only, and
    every ``type=float`` flag a finite number: ``nan``, ``inf`` and ``'٤'``
    are refused with the usual message. Flags with a range use
    :func:`engine.validate.int_arg` / :func:`engine.validate.float_arg`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("type", int, int_arg())
        self.register("type", float, float_arg())

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone (the same parser as far as it goes)."""
    parser = CommandParser(
        prog=typed_name("engine", sys.argv[0]),
        description="Connect Four engine: rules, agents, solver and experiments for any board size.",
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=f"connect-four {VERSION}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if command is None else (command,):
        try:
            module = importlib.import_module(f"engine.cli.{name.replace('-', '_')}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.cli.{name.replace('-', '_')}":
                raise
            continue  # a command that is not built yet
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a bad flag (already reported in one line)
        return int(exc.code or 0)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    from engine.cli.common import check_table_memory, memory_message, os_error_message

    try:
        check_table_memory(args)
        return int(args.run(args) or 0)
    except (EngineError, AgentFailure) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `python -m engine count ... | head`
        sys.stderr.close()
        return 0
    except MemoryError as exc:  # (the table's size is checked first; this is what no check foresaw)
        print(f"error: {memory_message(exc, args)}", file=sys.stderr)
        return 2
    except OSError as exc:  # a path of the user's: too long a name, no such folder, no permission, ...
        print(f"error: {os_error_message(exc)}", file=sys.stderr)
        return 2
