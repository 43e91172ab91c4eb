"""``python -m game`` (and the installed ``connect-four`` command): the same as ``python main.py``."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def run() -> None:
    """Start the game; ends the process when the window closes."""
    from game.launch import leave, main  # imported after the variable above is set

    leave(main())


if __name__ == "__main__":
    run()
