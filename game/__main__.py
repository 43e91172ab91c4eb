"""``python -m game``: the same as ``python main.py``."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game.launch import leave, main  # imported after the variable above is set

leave(main())
