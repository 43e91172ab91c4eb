"""The shape of the engine's code: one way down, no circle, every module on CONTRIBUTING.md's map.

The map of ``engine/`` in CONTRIBUTING.md lists the engine's top-level modules and packages from the
top (the command line) to the bottom (errors): each imports only what is on its own line or below it,
every import counted (see :mod:`tests.architecture`). ``python -m tests.engine.test_architecture``
prints the figures.
"""

from __future__ import annotations

from tests.architecture import class_sizes, cycles, graph, imported, line_of, map_entries, modules

#: The order the map must keep, from the bottom up, as python-chess's layers read: each group lies
#: below every group after it (peers within a group may import each other, in the map's order).
LAYERS = (
    ("errors", "stop", "score", "limits"),
    ("geometry", "board"),
    ("kernels",),
    ("solver",),
    ("agents",),
    ("analysis", "review", "puzzles", "explore", "explain", "match", "startup", "interop", "grade"),
    ("experiments",),
    ("bench",),
    ("cli",),
)


def top_level(name: str) -> str:
    """``engine.solver.auto`` -> ``engine.solver``: the module or package of the map's first column."""
    return ".".join(name.split(".")[:2])


def map_lines() -> dict[str, int]:
    """The line of each top-level module and package in the engine's map (its modules share its line)."""
    return {name: number for number, indent, name in map_entries("engine") if indent == 2}


def upward(edges: dict[str, set[str]], where: dict[str, int]) -> list[tuple[str, str]]:
    """The imports from a module to one on a line above its own (modules off the map are left out)."""
    found = []
    for name, targets in edges.items():
        for target in targets:
            source_line, target_line = line_of(name, where), line_of(target, where)
            if source_line is not None and target_line is not None and target_line < source_line:
                found.append((name, target))
    return sorted(found)


def package_graph(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The imports between the engine's top-level modules and packages."""
    out: dict[str, set[str]] = {top_level(name): set() for name in edges}
    for name, targets in edges.items():
        out[top_level(name)] |= {top_level(target) for target in targets} - {top_level(name)}
    return out


def test_the_engine_has_no_import_circle():
    assert cycles(graph("engine")) == []


def test_the_engine_has_no_circle_between_its_packages():
    assert cycles(package_graph(graph("engine"))) == []


def test_every_module_of_the_engine_is_on_the_map():
    where = map_lines()
    assert sorted({top_level(name) for name in modules("engine")} - set(where)) == []


def test_the_map_names_only_modules_that_exist():
    assert [name for _, _, name in map_entries("engine") if name not in modules("engine")] == []


def test_the_map_keeps_the_engine_s_layers():
    """errors, stop, score, limits -> geometry, board -> kernels -> solver -> agents -> services -> cli.

    The grader and the other frameworks' wrappers are services: they use agents, the sandbox and the
    solver, and the studies (the class tournament, the seed-boards study) and the commands use them.
    """
    where = map_lines()
    lines = [[where[f"engine.{name}"] for name in group] for group in LAYERS]
    misplaced = [(LAYERS[k], LAYERS[k + 1]) for k in range(len(LAYERS) - 1) if min(lines[k]) <= max(lines[k + 1])]
    assert misplaced == []


def test_the_engine_imports_only_down_the_map():
    assert upward(graph("engine"), map_lines()) == []


def test_the_engine_never_imports_the_game_or_pygame():
    offenders = {}
    for name, path in modules("engine").items():
        bad = {module for module in imported(path, set()) if module.split(".")[0] in ("game", "pygame")}
        if bad:
            offenders[name] = sorted(bad)
    assert offenders == {}


def measure() -> str:
    """The figures of the architecture review, for people: ``python -m tests.engine.test_architecture``."""
    edges = graph("engine")
    packages = package_graph(edges)
    circles, package_circles = cycles(edges), cycles(packages)
    up = upward(edges, map_lines())
    lines = [f"import circles between modules: {len(circles)}"]
    lines += [f"  {', '.join(group)}" for group in circles]
    lines.append(f"circles between top-level modules and packages: {len(package_circles)}")
    lines += [f"  {len(group)}: {', '.join(group)}" for group in package_circles]
    lines.append(f"imports up the map: {len(up)}")
    lines += [f"  {source} -> {target}" for source, target in up]
    lines.append("broadest classes (attributes, methods):")
    lines += [f"  {attributes:3d} {methods:3d}  {name}" for name, attributes, methods in class_sizes("engine")[:5]]
    return "\n".join(lines)


if __name__ == "__main__":
    print(measure())
