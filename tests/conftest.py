"""Shared test settings: headless SDL, and a Hypothesis profile for CI."""

import os

from hypothesis import HealthCheck, settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# Numba compiles a kernel the first time a test reaches it, which can make one
# example slow; that is not what deadlines are meant to catch.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")
