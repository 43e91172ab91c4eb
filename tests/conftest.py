"""Shared test settings: headless SDL, a Hypothesis profile for CI, and Ctrl-C for the programs tests start."""

import os
import signal
import threading

from hypothesis import HealthCheck, settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# Numba compiles a kernel the first time a test reaches it, which can make one
# example slow; that is not what deadlines are meant to catch.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")


def pytest_configure(config) -> None:
    """Give SIGINT its default back if this run was started with it ignored.

    A shell ignores SIGINT in what it starts in the background of a script
    (``pytest &``), every program started from there inherits that, and
    Python leaves an ignored SIGINT ignored: the tests that press Ctrl-C on
    a game or a tournament would then wait for a program that cannot hear it.
    """
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
