"""Limits of the process and of the file system are one clear line, never a traceback.

``--table-mb`` above what the process may allocate (``ulimit -v``), and a
file name over 255 bytes (or any other OSError) on a path argument of any command.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
resource = pytest.importorskip("resource")

#: The address space the limited processes get: room for Python, numpy and numba, not for a 4 GiB table.
LIMIT = 2 * 2**30


def _engine_limited(*argv: str) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))

    return subprocess.run(
        [sys.executable, "-m", "engine", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _one_error(status: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert "Traceback" not in err, err
    assert status == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux keeps it")
@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--table-mb", "4096", "4444"],
        ["analyze", "--table-mb", "4096", "4444"],
        ["book", "--cols", "4", "--rows", "4", "--table-mb", "4096", "--output", "/tmp/never-written.bin"],
        ["move", "--agent", "perfect:table_mb=4096", "4444"],
    ],
    ids=["solve", "analyze", "book", "perfect agent"],
)
def test_a_table_above_the_process_limit_is_one_line(argv) -> None:
    done = _engine_limited(*argv)
    line = _one_error(done.returncode, done.stderr)
    assert "table" in line or "memory" in line
    assert ("ulimit -v" in line and "MB" in line) or "more than this machine" in line  # (a machine under 4 GiB)
    assert not Path("/tmp/never-written.bin").exists()


LONG = "x" * 300


@pytest.mark.parametrize(
    "argv",
    [
        ["experiment", "random-games", "--quick", "--games", "2", "--jobs", "1", "--out", "{tmp}/" + LONG],
        ["tournament", "random", "greedy", "--games", "1", "--jobs", "1", "--out", "{tmp}/" + LONG],
        ["report", "--quick", "--games", "2", "--only", "random-games", "--jobs", "1", "--out", "{tmp}/" + LONG],
        ["report", "--quick", "--games", "2", "--only", "random-games", "--jobs", "1", "--out", "{tmp}/a/" + LONG],
        ["book", "--cols", "4", "--rows", "4", "--output", "{tmp}/" + LONG + ".bin"],
        ["solve", "--grid", "{tmp}/" + LONG],
        ["move", "--agent", "{tmp}/" + LONG + ".py:agent", "44"],
        ["bench", "ladder", "{tmp}/" + LONG],
    ],
    ids=["experiment", "tournament", "report", "report, deeper", "book", "grid", "agent file", "bench ladder"],
)
def test_a_file_name_over_255_bytes_is_one_line(cli, tmp_path, argv) -> None:
    status, _, err = cli([arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    line = _one_error(status, err)
    assert "too long" in line or "255" in line or "no such" in line.lower() or "not found" in line.lower()
    assert not [path for path in tmp_path.rglob("*") if LONG in path.name]


def test_an_out_under_a_file_is_one_line(cli, tmp_path) -> None:
    (tmp_path / "thesis.txt").write_text("chapter one\n")
    status, _, err = cli(["tournament", "random", "greedy", "--out", str(tmp_path / "thesis.txt" / "run")])
    line = _one_error(status, err)
    assert "thesis.txt" in line and "Not a directory" in line
    assert (tmp_path / "thesis.txt").read_text() == "chapter one\n"
