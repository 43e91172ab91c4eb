"""``python -m game`` (and the installed ``connect-four`` command): the same as ``python main.py``."""

import os
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def run() -> None:
    """Start the game; ends the process when the window closes."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started without a console (pythonw, the Windows GUI command)
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - open until exit
    from game.launch import leave, main  # imported after the variable above is set

    leave(main())


if __name__ == "__main__":
    run()
