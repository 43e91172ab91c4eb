"""``python -m game``: the same as ``python main.py``."""

import os
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game.launch import main  # imported after the variable above is set

sys.exit(main())
