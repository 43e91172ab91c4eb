"""Connect Four: double-click this file, or run `python main.py` (`--help` lists the options).

This file only checks that the libraries the game needs are installed (and
says how to install them if not), then starts :mod:`game`. It works from any
directory: the project folder is put on the import path first.
"""

import importlib.metadata
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REQUIREMENTS = os.path.join(HERE, "requirements.txt")


def missing_dependencies() -> list[str]:
    """The pip names of the libraries that are missing (or, for pygame, the wrong flavour)."""
    missing = [
        name for module, name in (("numpy", "numpy"), ("numba", "numba")) if not importlib.util.find_spec(module)
    ]
    if importlib.util.find_spec("pygame") is None:
        missing.insert(0, "pygame-ce")
    elif not _distribution_installed("pygame-ce"):  # read from the package list: SDL is loaded later, by the game
        missing.insert(0, "pygame-ce (the classic 'pygame' is installed: uninstall it first)")
    return missing


def _distribution_installed(name: str) -> bool:
    try:
        importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def explain(missing: list[str]) -> None:
    print("Connect Four needs some libraries that are not installed:", ", ".join(missing))
    print("Install everything it needs with:")
    print(f'    "{sys.executable}" -m pip install -r "{REQUIREMENTS}"')
    if sys.platform == "win32":  # started by a double-click: keep the console open to be read
        import ctypes

        if ctypes.windll.kernel32.GetConsoleProcessList((ctypes.c_uint * 2)(), 2) <= 1:
            input("Press Enter to close this window.")


def main() -> int:
    if sys.version_info < (3, 10):  # noqa: UP036 - an old Python gets a sentence, not a syntax error
        print(f"Connect Four needs Python 3.10 or newer; this is Python {sys.version.split()[0]}.")
        return 1
    sys.path.insert(0, HERE)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    missing = missing_dependencies()
    if missing:
        explain(missing)
        return 1
    try:
        from game import launch
    except KeyboardInterrupt:  # Ctrl+C while the libraries load: leave quietly, as the game itself does
        return 130
    return launch.leave(launch.main())  # leave() ends the process once the window is closed


if __name__ == "__main__":
    sys.exit(main())
