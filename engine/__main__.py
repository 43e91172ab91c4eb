"""Entry point for ``python -m engine``."""

import gc
import sys

from engine.cli import main

if __name__ == "__main__":
    status = main()
    # The collector's passes over numba's many objects made the interpreter's exit take 0.1 s after
    # a solve (a pipe that starts one process per position pays that each time). Frozen objects are
    # left to the operating system; files, exit handlers and module clean-up still run.
    gc.freeze()
    sys.exit(status)
