"""The shape of the game's code: imports in one direction, screens by name, modules of a readable size.

Every module of ``game/`` is parsed with :mod:`ast`, and every import counts -
at the top, inside a function, or only for type checking - because each is an
arrow from one module to another that a reader has to follow.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The longest a module of the game may be (lines).
MAX_LINES = 400
#: The one module that knows every screen: it gives each a name (the screens ask for each other by it).
SCREEN_INDEX = "game.screens"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` (a top-level folder of the project) by its dotted name."""
    return {module_name(path): path for path in sorted((ROOT / package).rglob("*.py"))}


def imported(path: Path, known: set[str]) -> set[str]:
    """The modules ``path`` imports anywhere in it (``from game import drawing`` is game.drawing)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                names.add(submodule if submodule in known else node.module)
    return names


def graph(package: str = "game") -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of the package it imports."""
    found = modules(package)
    known = set(found)
    return {name: imported(path, known) & known - {name} for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: groups of modules each of which imports the others, through each other (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def screen_modules(edges: dict[str, set[str]]) -> set[str]:
    return {name for name in edges if name.startswith("game.scenes.") and name != "game.scenes.base"}


def test_the_game_has_no_import_circle():
    assert cycles(graph()) == []


def test_the_scene_base_does_not_know_the_app():
    assert "game.app" not in graph()["game.scene"]


def test_no_screen_imports_another_screen():
    edges = graph()
    screens = screen_modules(edges)
    crossing = {screen: sorted(edges[screen] & screens) for screen in sorted(screens) if edges[screen] & screens}
    assert crossing == {}


def test_only_the_screen_index_and_the_app_open_screens_by_class():
    """Everyone else asks for a screen by its name."""
    edges = graph()
    screens = screen_modules(edges)
    users = {name for name, targets in edges.items() if targets & screens} - screens
    assert users <= {SCREEN_INDEX}


def test_every_screen_is_known_by_its_name():
    from game.screens import SCREENS

    assert {screen.name: screen.load().name for screen in SCREENS} == {screen.name: screen.name for screen in SCREENS}


@pytest.mark.parametrize("name", sorted(modules("game")))
def test_modules_stay_readable(name):
    lines = len(modules("game")[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines"


def test_the_turn_controller_draws_nothing():
    """The match's turn loop uses neither pygame nor anything of the game that draws."""
    drawing = {"pygame", "game.board_view", "game.drawing", "game.pictures", "game.theme", "game.widgets"}
    for name in ("game.match.turns", "game.match.spectating", "game.match.services"):
        used = imported(modules("game")[name], set()) | graph()[name]
        assert used & drawing == set(), name


def test_the_engine_never_imports_the_game_or_pygame():
    offenders = {}
    for name, path in modules("engine").items():
        bad = {module for module in imported(path, set()) if module.split(".")[0] in ("game", "pygame")}
        if bad:
            offenders[name] = sorted(bad)
    assert offenders == {}


def map_lines() -> dict[str, int]:
    """The line of each module in the map of game/ in CONTRIBUTING.md (a package: its line, for all in it)."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = text[text.index("```\ngame/\n") :]
    block = block[: block.index("```", 4)]
    where: dict[str, int] = {}
    number, package = 0, ""
    for line in block.splitlines()[2:]:
        indent = len(line) - len(line.lstrip())
        names = re.findall(r"([a-z_]+(?:\.py|/))", line.strip().split("   ")[0]) if indent <= 4 else []
        if not names:
            continue  # a description going on
        number += 1
        if indent == 2:
            package = names[0][:-1] if names[0].endswith("/") else ""
        for name in names:
            module = name[:-1] if name.endswith("/") else name[:-3]
            where.setdefault(f"game.{package}.{module}" if indent == 4 else f"game.{module}", number)
    return where


def test_the_map_of_the_game_reads_in_one_direction():
    """Each module of CONTRIBUTING.md's map imports only modules on its line or below it, and all are there."""
    where = map_lines()

    def line(name: str) -> int | None:
        parts = name.split(".")
        return next(
            (where[".".join(parts[:k])] for k in range(len(parts), 1, -1) if ".".join(parts[:k]) in where), None
        )

    edges = graph()
    assert [name for name in edges if name != "game" and line(name) is None] == []
    upward = [
        (name, target)
        for name, targets in edges.items()
        for target in targets
        if name != "game" and target != "game.match" and line(target) < line(name)  # type: ignore[operator]
    ]
    assert upward == []


def measure() -> str:
    """The figures of the architecture review, for people: ``python -m tests.game.test_architecture``."""
    edges = graph()
    sizes = sorted(
        ((len(path.read_text(encoding="utf-8").splitlines()), name) for name, path in modules("game").items()),
        reverse=True,
    )
    lines = ["largest modules:", *(f"  {count:5d}  {name}" for count, name in sizes[:5])]
    circles = cycles(edges)
    lines.append(f"import circles: {len(circles)}")
    lines += [f"  {len(group)} modules: {', '.join(group)}" for group in circles]
    up = sorted(edges["game.scene"] & {"game.app"})
    lines.append(f"game.scene imports the app: {bool(up)}")
    screens = screen_modules(edges)
    crossing = sum(len(edges[screen] & screens) for screen in screens)
    lines.append(f"screen-to-screen imports: {crossing}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(measure())
