"""Connect Four: double-click this file, or run `python main.py`.

Until the desktop game lands this starts the terminal game.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engine.cli import main

if __name__ == "__main__":
    sys.exit(main(["play", *sys.argv[1:]]))
