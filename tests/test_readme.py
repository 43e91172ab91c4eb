"""The README is a front page that cannot go stale: every command and example in it runs.

Each line of its ``bash`` blocks runs as written (from a scratch folder that
sees the checkout's ``main.py`` and ``docs/``), with two changes only: the
game's commands get ``--quit-after-first-frame`` and a hidden window, and the
install lines are left to CI, which runs exactly the README's test command
(checked against ``.ci/run`` below). Each ``python`` block runs as a script.
Its difficulty table must be the engine's presets, and its links must lead
somewhere.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from engine.agents.registry import presets

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.M | re.S)


def commands() -> list[str]:
    lines = []
    for block in blocks("bash"):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if command and "pip install" not in command:
                lines.append(command)
    return lines


def test_it_is_a_front_page() -> None:
    assert len(README.splitlines()) <= 200
    assert README.splitlines()[0] == "# Connect Four"
    first_block = blocks("bash")[0]
    assert "python main.py" in first_block and "pytest" in first_block


def test_ci_runs_exactly_the_readmes_test_command_in_a_fresh_virtual_environment() -> None:
    (line,) = [line for line in blocks("bash")[0].splitlines() if "pytest" in line]
    steps = [step.strip() for step in line.split("#")[0].split("&&")]
    script = (ROOT / ".ci" / "run").read_text().splitlines()
    making = [line.split("#")[0].strip() for line in script]
    venv = making.index('python3 -m venv "$scratch/venv"')  # from the machine's python3, no other packages
    assert making[venv + 1] == '. "$scratch/venv/bin/activate"'
    ci = [line.strip() for line in script[venv + 2 :] if line.startswith("python")]
    assert not any(line.startswith(("python", "pip")) for line in making[:venv])  # nothing installed before
    assert [step.replace("--quiet ", "") for step in ci] == [step.replace("--quiet ", "") for step in steps]
    assert "python3 -m venv .venv && . .venv/bin/activate" in README  # what the README tells a newcomer


def test_the_difficulty_table_is_the_engines_presets() -> None:
    rows = re.findall(r"^\| (\d+) \| (\w+) \| (\d+) \| `([^`]+)` \| (.+?) \|$", README, flags=re.M)
    assert [(int(level), name, int(elo), spec, summary) for level, name, elo, spec, summary in rows] == [
        (preset.level, preset.name, preset.elo, preset.spec, preset.summary) for preset in presets()
    ]


def test_every_link_leads_to_a_file() -> None:
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


@pytest.mark.parametrize("command", commands())
def test_each_command_runs(command: str, tmp_path: Path) -> None:
    for name in ("main.py", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    words = shlex.split(command)
    if words[:2] == ["python", "main.py"]:
        words.append("--quit-after-first-frame")
    words[0] = sys.executable if words[0] == "python" else words[0]
    environment = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run(
        words, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() or "main.py" in command, "no output"


@pytest.mark.parametrize("number", range(len(blocks("python"))))
def test_each_python_example_runs(number: int) -> None:
    done = subprocess.run(
        [sys.executable, "-c", blocks("python")[number]], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
