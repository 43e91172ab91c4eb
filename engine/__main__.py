"""Entry point for ``python -m engine``."""

import sys

from engine.cli import main

if __name__ == "__main__":
    sys.exit(main())
