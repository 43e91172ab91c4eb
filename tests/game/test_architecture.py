"""The shape of the game's code: imports in one direction, screens by name, modules of a readable size.

Every module of ``game/`` is parsed with :mod:`ast`, and every import counts - at the top, inside a
function, or only for type checking (see :mod:`tests.architecture`).
"""

from __future__ import annotations

import pytest

from tests.architecture import class_sizes, cycles, graph, imported, line_of, map_entries, modules

#: The longest a module of the game may be (lines).
MAX_LINES = 400
#: The most attributes (what its methods assign to ``self``, and its fields) and methods (properties too) a
#: class of the game may have: breadth shows in what a class holds, not in its lines.
MAX_ATTRIBUTES, MAX_METHODS = 24, 32
#: Classes over that budget, at their size today: each is to be split, may not grow, and leaves the list.
OVER_BUDGET = {"game.app.App": (31, 38)}
#: The one module that knows every screen: it gives each a name (the screens ask for each other by it).
SCREEN_INDEX = "game.screens"


def screen_modules(edges: dict[str, set[str]]) -> set[str]:
    return {name for name in edges if name.startswith("game.scenes.") and name != "game.scenes.base"}


def test_the_game_has_no_import_circle():
    assert cycles(graph("game")) == []


def test_the_scene_base_does_not_know_the_app():
    assert "game.app" not in graph("game")["game.scene"]


def test_no_screen_imports_another_screen():
    edges = graph("game")
    screens = screen_modules(edges)
    crossing = {screen: sorted(edges[screen] & screens) for screen in sorted(screens) if edges[screen] & screens}
    assert crossing == {}


def test_only_the_screen_index_and_the_app_open_screens_by_class():
    """Everyone else asks for a screen by its name."""
    edges = graph("game")
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


def test_classes_stay_narrow():
    """No class over the budget, but for those listed, which do not grow."""
    over = {name: (attributes, methods) for name, attributes, methods in class_sizes("game")}
    over = {name: size for name, size in over.items() if size[0] > MAX_ATTRIBUTES or size[1] > MAX_METHODS}
    allowed = {name: (MAX_ATTRIBUTES, MAX_METHODS) for name in over} | OVER_BUDGET
    grown = {name: size for name, size in over.items() if size[0] > allowed[name][0] or size[1] > allowed[name][1]}
    assert grown == {}


def test_the_turn_controller_draws_nothing():
    """The match's turn loop uses neither pygame nor anything of the game that draws."""
    drawing = {"pygame", "game.board_view", "game.drawing", "game.pictures", "game.theme", "game.widgets"}
    for name in (
        "game.match.turns",
        "game.match.spectating",
        "game.match.computer",
        "game.match.keeping",
        "game.match.services",
    ):
        used = imported(modules("game")[name], set()) | graph("game")[name]
        assert used & drawing == set(), name


def map_lines() -> dict[str, int]:
    """The line of each module in the map of game/ in CONTRIBUTING.md (a package: its line, for all in it)."""
    where: dict[str, int] = {}
    for number, _, name in map_entries("game"):
        where.setdefault(name, number)
    return where


def test_the_map_of_the_game_reads_in_one_direction():
    """Each module of CONTRIBUTING.md's map imports only modules on its line or below it, and all are there."""
    where = map_lines()

    def line(name: str) -> int | None:
        return line_of(name, where)

    edges = graph("game")
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
    edges = graph("game")
    sizes = sorted(
        ((len(path.read_text(encoding="utf-8").splitlines()), name) for name, path in modules("game").items()),
        reverse=True,
    )
    lines = ["largest modules:", *(f"  {count:5d}  {name}" for count, name in sizes[:5])]
    lines.append("broadest classes (attributes, methods):")
    lines += [f"  {attributes:3d} {methods:3d}  {name}" for name, attributes, methods in class_sizes("game")[:5]]
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
