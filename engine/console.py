"""What every command prints and reads alike, below the commands: ``cli/`` and ``bench/`` both use it.

One answer line on standard output (:func:`emit`), and the board options (``--cols``, ``--rows``,
``--connect``) with the :class:`~engine.geometry.Geometry` they give.
"""

from __future__ import annotations

import argparse
import sys

from engine.geometry import Geometry


def emit(text: str) -> None:
    """Print one answer and flush, so that a pipe sees it at once.

    An input line echoed back may hold what standard output cannot encode (a
    lone surrogate, or any character on a narrow console): it is printed with
    replacement characters rather than stopping the batch.
    """
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    print(text.encode(encoding, "replace").decode(encoding), flush=True)


def add_geometry_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("board")
    group.add_argument("--cols", type=int, default=7, help="columns, 4 to 9 (default 7)")
    group.add_argument("--rows", type=int, default=6, help="rows, 4 to 9 (default 6)")
    group.add_argument("--connect", type=int, default=4, help="stones in a row that win, 3 to 6 (default 4)")


def geometry_from(args: argparse.Namespace) -> Geometry:
    return Geometry(args.cols, args.rows, args.connect)
