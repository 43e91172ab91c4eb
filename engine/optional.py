"""Libraries only some features need, installed as extras: ``pip install "connect-four[studies]"``.

The base install plays the game and runs the engine and its adapters; the
studies' charts and the tree drawings need matplotlib (``[studies]``, or
``requirements-studies.txt`` in a checkout), and so on. :func:`require`
imports such a library, or says in one line how to install it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.errors import EngineError

#: Each extra and its requirements file in a checkout.
EXTRAS = {
    "studies": "requirements-studies.txt",
    "cluster": "requirements-cluster.txt",
    "kaggle": "requirements-connectx.txt",
}


class MissingExtra(EngineError):
    """A feature needs a library of an extra that is not installed."""


def require(module: str, extra: str, feature: str) -> ModuleType:
    """``import module``, or a :class:`MissingExtra` naming the extra that brings it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module.split(".")[0]:
            raise
        raise MissingExtra(
            f'{feature} needs {exc.name}, which is not installed: pip install "connect-four[{extra}]"'
            f" (in a checkout: pip install -r {EXTRAS[extra]})"
        ) from None
