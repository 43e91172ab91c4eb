"""``python -m engine.warmup``: the warm-up command at its documented address.

The warm-up itself lives in :mod:`engine.startup.warmup`, with the rest of
what hides numba's load and compile time (:mod:`engine.startup`).
"""

import sys

from engine.startup.warmup import Warmed, main, start_compiler, warm_up

__all__ = ["Warmed", "main", "start_compiler", "warm_up"]

if __name__ == "__main__":
    sys.exit(main())
