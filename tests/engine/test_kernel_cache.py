"""The numba cache follows the engine's source: a changed file means a fresh cache."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import kernel_cache

ROOT = Path(__file__).resolve().parents[2]


def test_the_digest_changes_with_any_source_file(tmp_path, monkeypatch) -> None:
    (tmp_path / "kernels").mkdir()
    (tmp_path / "a.py").write_text("X = 1\n")
    (tmp_path / "kernels" / "b.py").write_text("Y = 2\n")
    monkeypatch.setattr(kernel_cache, "ENGINE_DIR", tmp_path)
    before = kernel_cache.source_digest()
    assert kernel_cache.source_digest() == before
    (tmp_path / "kernels" / "b.py").write_text("Y = 3\n")
    assert kernel_cache.source_digest() != before


def test_the_program_uses_a_cache_folder_named_after_its_source(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | {"XDG_CACHE_HOME": str(tmp_path)}
    code = "import os, engine, numba.core.config as c; print(os.environ['NUMBA_CACHE_DIR']); print(c.CACHE_DIR)"
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    folder, numba_folder = done.stdout.split()
    assert folder == numba_folder == str(tmp_path / "connect-four" / "numba" / kernel_cache.source_digest())


def test_a_folder_chosen_by_the_user_is_respected(tmp_path) -> None:
    env = dict(os.environ) | {"NUMBA_CACHE_DIR": str(tmp_path / "mine")}
    code = "import os, engine; print(os.environ['NUMBA_CACHE_DIR'])"
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == str(tmp_path / "mine")


KERNEL = """
import sys
sys.path.insert(0, {root!r})
import engine.kernels  # as every kernel module of the engine does: this installs the guard
from numba import njit

@njit(cache=True)
def triple(x):
    return 3 * x

print(triple(14))
"""


@pytest.mark.parametrize(
    "damage",
    [
        "truncate index",
        pytest.param("random index", marks=pytest.mark.slow),
        pytest.param("random data", marks=pytest.mark.slow),
    ],
)
def test_a_damaged_cache_entry_is_removed_and_compiled_again(tmp_path, damage: str) -> None:
    """The guard that the engine installs: a run after the damage answers, warns once, and repairs."""
    script = tmp_path / "kernel.py"
    script.write_text(KERNEL.format(root=str(ROOT)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(script)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
        )

    assert run().stdout.strip() == "42"
    index = next((tmp_path / "cache").rglob("*.nbi"))
    data = next((tmp_path / "cache").rglob("*.nbc"))
    rng = random.Random(damage)
    if damage == "truncate index":
        index.write_bytes(index.read_bytes()[:10])
    else:
        target = index if damage == "random index" else data
        target.write_bytes(bytes(rng.randrange(256) for _ in range(300)))
    damaged = run()
    assert damaged.returncode == 0 and damaged.stdout.strip() == "42", damaged.stderr
    assert damaged.stderr.count("damaged compiled-kernel cache") == 1 and "Traceback" not in damaged.stderr
    repaired = run()
    assert repaired.stdout.strip() == "42" and "damaged" not in repaired.stderr


def test_a_kernel_compiles_in_place_where_no_cache_folder_can_be_written(monkeypatch, capsys) -> None:
    """numba raised 'cannot cache function ...: no locator available' at every kernel (Kaggle's read-only agent
    folder); now such a kernel gets no cache, one warning, and runs."""
    from numba import njit
    from numba.core import caching

    def no_locator(py_func):
        raise RuntimeError(f"cannot cache function {py_func.__name__!r}: no locator available for file 'x.py'")

    monkeypatch.setattr("numba.core.dispatcher.FunctionCache", no_locator)

    @njit(cache=True)
    def twice(x):
        return 2 * x

    assert twice(21) == 42 and isinstance(twice._cache, caching.NullCache)
