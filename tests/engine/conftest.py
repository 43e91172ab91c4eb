"""Fixtures for the engine's tests."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable

import pytest

from engine.cli import main


@pytest.fixture
def cli(capsys, monkeypatch) -> Callable[..., tuple[int, str, str]]:
    """Run ``python -m engine ARGV`` in-process: ``cli(argv, stdin=None) -> (status, out, err)``."""

    def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        status = main(argv)
        out, err = capsys.readouterr()
        return status, out, err

    return run
