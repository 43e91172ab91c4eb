"""The pages under docs/ cannot show Python that does not run: each ``python`` block runs as a script.

A block that cannot run on its own (a piece of a larger program) says so in its fence, ```` ```python
fragment ````, and must still be Python. The README's blocks are run by ``tests/test_readme.py``; the
generated report (docs/report/) has none.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "CONTRIBUTING.md"]
FENCE = re.compile(r"^```python( fragment)?\n(.*?)^```", flags=re.M | re.S)


def python_blocks() -> list[tuple[str, bool, str]]:
    """``(where, is_fragment, code)`` of every python block of the pages."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{page.relative_to(ROOT)}:{line}", bool(match.group(1)), match.group(2)))
    return found


def test_the_pages_have_python_to_check():
    assert len([block for block in python_blocks() if not block[1]]) >= 4


@pytest.mark.parametrize(("where", "fragment", "code"), python_blocks(), ids=[b[0] for b in python_blocks()])
def test_each_python_block_runs_or_is_marked_a_fragment(where: str, fragment: bool, code: str, tmp_path: Path):
    compile(code, where, "exec")  # a fragment too is Python
    if fragment:
        return
    (tmp_path / "docs").symlink_to(ROOT / "docs")  # as from the checkout: the examples' files are there
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, f"{where}:\n{done.stderr[-2000:]}"
