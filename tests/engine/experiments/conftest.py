"""Fixtures of the studies' tests: every study run once with --quick, shared by the test modules."""

from __future__ import annotations

import pytest

from engine.experiments.study import all_studies


@pytest.fixture(scope="session")
def quick_runs(tmp_path_factory):
    """``{name: (exit status, folder)}`` of each study run once with ``experiment NAME --quick``."""
    from engine.cli import main

    runs = {}
    for study in all_studies():
        out = tmp_path_factory.mktemp(study.name)
        status = main(["experiment", study.name, "--quick", "--jobs", "1", "--no-progress", "--out", str(out)])
        runs[study.name] = (status, out)
    return runs
