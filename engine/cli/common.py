"""What several commands share: agent options, position input, the table's memory (the board options and
the answer line are :mod:`engine.console`'s, which the benchmarks use too)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.board import Board
from engine.console import emit, geometry_from
from engine.errors import EngineError, ResourceError
from engine.geometry import Geometry
from engine.validate import shown

if TYPE_CHECKING:
    from engine.agents.base import Agent


def add_grid_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="FILE",
        help="a position from a text grid file (seed 004: rows top first, - X O); may be repeated",
    )


def grid_positions(args: argparse.Namespace) -> list[str]:
    """The move strings of the ``--grid`` files (an order of moves that reaches each grid)."""
    paths = getattr(args, "grid", [])
    if not paths:
        return []  # (without loading the grid reader, which needs numpy: see engine.solver.quick)
    from engine.grid_file import grid_moves

    return [grid_moves(path, geometry_from(args)) for path in paths]


def agents_epilog() -> str:
    """The agent listing for a command's ``--help``."""
    from engine.agents.registry import describe_agents  # (the agents load numba: only the commands that need them)

    return describe_agents()


def add_command(subparsers, name: str, help: str, *, agents: bool = False) -> argparse.ArgumentParser:
    """A sub-command parser; with ``agents`` its --help lists every agent."""
    return subparsers.add_parser(
        name,
        help=help,
        description=help.replace("%%", "%"),  # (the list of commands formats help with %; the description not)
        epilog=agents_epilog() if agents else None,
        formatter_class=_AgentsFormatter,
    )


class _AgentsFormatter(argparse.RawDescriptionHelpFormatter):
    """Fills in what a student's file may do on this machine, only when the help is shown."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        from engine.agents.registry import TRUST_MARK

        if TRUST_MARK in text:
            from engine.agents.classroom import with_trust_note

            text = with_trust_note(text)
        return super()._fill_text(text, width, indent)


@dataclass
class PositionLine:
    """One position to answer: where it came from and its text."""

    label: str  # "argument 2" or "line 5"
    text: str


def position_lines(positions: list[str]) -> Iterator[PositionLine]:
    """The POSITION arguments, or else standard input line by line (lazily).

    Bytes that are not UTF-8 become U+FFFD, so such a line is answered as
    a bad position instead of ending the batch with a decoding error.
    """
    if positions:
        for index, text in enumerate(positions, start=1):
            yield PositionLine(f"argument {index}", text.strip())
        return
    with contextlib.suppress(AttributeError, ValueError):  # a replaced stdin (tests) may not reconfigure
        sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    for number, line in enumerate(sys.stdin, start=1):
        yield PositionLine(f"line {number}", line.strip())


#: What stdout says for an input line that cannot be answered (the reason goes to stderr).
UNANSWERED = "?"


class PositionReporter:
    """Answers positions one by one; a bad one gets a message and a failing exit status.

    Every input line gets exactly one line on stdout, in order, so a program
    that pipes positions in can read one answer per line: an unanswerable
    line is answered ``POSITION ?`` and explained on stderr.
    """

    def __init__(self) -> None:
        self.failures = 0

    def fail(self, line: PositionLine, message: str) -> None:
        self.failures += 1
        print(f"error: {line.label} {shown(line.text)}: {message}", file=sys.stderr, flush=True)
        emit(f"{line.text} {UNANSWERED}")

    def board(self, line: PositionLine, geometry: Geometry) -> Board | None:
        """The board of ``line``, or None after reporting why it is bad."""
        try:
            return Board.from_moves(line.text, geometry)
        except EngineError as exc:
            self.fail(line, str(exc))
            return None

    @property
    def status(self) -> int:
        return 1 if self.failures else 0


def start_and_players(args: argparse.Namespace) -> tuple[Board, Agent, Agent]:
    """The start position (``--moves``) and the red and yellow agents, seeded from ``--seed``."""
    from engine.agents.registry import create_agent

    board = Board.from_moves(args.moves, geometry_from(args))
    if board.is_over:
        raise EngineError(f"the game is already over after {args.moves!r}")
    red = create_agent(args.red, seed=args.seed)
    yellow = create_agent(args.yellow, seed=None if args.seed is None else args.seed + 1)
    return board, red, yellow


def os_error_message(exc: OSError) -> str:
    """One line for an OSError on a path the user gave: the path (cut short if huge) and the reason."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.errno == errno.ENAMETOOLONG:
        reason += " (a name in a path may have at most 255 bytes)"
    if exc.filename is None:
        return reason
    return f"{shown_path(exc.filename)}: {reason}"


def shown_path(path: object) -> str:
    """A path for a message: as it is, or cut in the middle when it is huge (with its length in bytes)."""
    name = os.fsdecode(path) if isinstance(path, bytes) else str(path)
    if len(name) <= 160:
        return name
    return f"{name[:80]}...{name[-40:]} ({len(os.fsencode(name)):,} bytes)"


def memory_limit() -> tuple[int, int, str] | None:
    """``(bytes left, limit, flag)`` of the tightest memory limit set on this process, or None if none is.

    The limits are RLIMIT_AS (``ulimit -v``: all the address space) and
    RLIMIT_DATA (``ulimit -d``: the heap and private mappings, where a big
    table goes); what is left is the limit less what the process uses now.
    """
    try:
        import resource
    except ImportError:  # not a POSIX system
        return None
    tightest: tuple[int, int, str] | None = None
    for which, field, flag in (("RLIMIT_AS", "VmSize", "ulimit -v"), ("RLIMIT_DATA", "VmData", "ulimit -d")):
        if not hasattr(resource, which):
            continue
        soft, _hard = resource.getrlimit(getattr(resource, which))
        if soft == resource.RLIM_INFINITY or soft < 0:
            continue
        left = max(0, soft - _in_use(field))
        if tightest is None or left < tightest[0]:
            tightest = (left, soft, flag)
    return tightest


def _in_use(field: str) -> int:
    """The process's ``VmSize`` or ``VmData`` in bytes (0 where the system does not say)."""
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024  # "VmSize:   332036 kB"
    return 0


def check_table_memory(args: argparse.Namespace) -> None:
    """Refuse a ``--table-mb`` this process may not allocate (``ulimit -v``/``-d``), before any work, in one line.

    (A table larger than the machine's memory is refused by
    :func:`engine.solver.settings.checked_table_bits`; this is the process's own limit.)
    """
    megabytes = getattr(args, "table_mb", None)
    if not isinstance(megabytes, int | float):
        return
    limit = memory_limit()
    if limit is None:
        return
    from engine.solver.settings import table_bits_for, table_bytes

    wide = all(hasattr(args, name) for name in ("cols", "rows", "connect")) and geometry_from(args).wide
    size = table_bytes(table_bits_for(megabytes, wide), wide)
    left, total, flag = limit
    if size > left:
        raise ResourceError(
            f"--table-mb {megabytes:g}: a table of {size / 2**20:,.0f} MB is more than this process may still "
            f"allocate ({left / 2**20:,.0f} MB of its {total / 2**20:,.0f} MB limit, {flag}); ask for less"
        )


def memory_message(exc: MemoryError, args: argparse.Namespace) -> str:
    """One line for an allocation that failed: what failed, the process's limit, what to ask for instead."""
    text = f"out of memory ({str(exc) or 'an allocation failed'})"
    limit = memory_limit()
    if limit is not None:
        text += f"; this process may use at most {limit[1] / 2**20:,.0f} MB ({limit[2]})"
    if hasattr(args, "table_mb"):
        text += "; ask for a smaller --table-mb"
    return text
