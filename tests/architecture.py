"""Reading the code's shape: the modules of a package, what each imports, the circles, CONTRIBUTING's maps.

Shared by ``tests/engine/test_architecture.py`` and ``tests/game/test_architecture.py``. Every module is
parsed with :mod:`ast`, and every import counts - at the top, inside a function, or only for type
checking - because each is an arrow from one module to another that a reader has to follow.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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


def graph(package: str) -> dict[str, set[str]]:
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


def map_entries(package: str) -> list[tuple[int, int, str]]:
    """The map of ``package`` in CONTRIBUTING.md: ``(line, indent, module)`` for every module or folder named
    in its first column (a line at indent 2 names the package's own modules and folders, one at indent 4
    those of the folder named on the line above it); lines are numbered from 1, descriptions not counted."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = text[text.index(f"```\n{package}/") :]
    block = block[: block.index("```", 4)]
    entries: list[tuple[int, int, str]] = []
    number, folder = 0, ""
    for line in block.splitlines()[1:]:
        indent = len(line) - len(line.lstrip())
        names = re.findall(r"([a-z_]+(?:\.py|/))", line.strip().split("   ")[0]) if indent in (2, 4) else []
        if not names:
            continue  # a description going on
        number += 1
        if indent == 2:
            folder = next((name[:-1] for name in names if name.endswith("/")), "")
        for name in names:
            module = name[:-1] if name.endswith("/") else name[:-3]
            if module == "__init__":
                module = ""
            dotted = ".".join(part for part in (package, folder if indent == 4 else "", module) if part)
            entries.append((number, indent, dotted))
    return entries


def line_of(name: str, where: dict[str, int]) -> int | None:
    """The map line of module ``name``: its own, or that of the nearest package above it that has one."""
    parts = name.split(".")
    return next((where[".".join(parts[:k])] for k in range(len(parts), 0, -1) if ".".join(parts[:k]) in where), None)


def class_sizes(package: str) -> list[tuple[str, int, int]]:
    """``(class, attributes, methods)`` of every class of ``package``: the attributes are what its methods
    assign to ``self`` and what its body declares with a type (dataclass fields); the methods, every
    function of its body (properties too). Inherited ones count in the class that defines them."""
    sizes = []
    for name, path in modules(package).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            attributes: set[str] = set()
            methods = 0
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    attributes.add(item.target.id)
                elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods += 1
                    for inner in ast.walk(item):
                        targets = inner.targets if isinstance(inner, ast.Assign) else []
                        if isinstance(inner, (ast.AnnAssign, ast.AugAssign)):
                            targets = [inner.target]
                        for target in targets:
                            for leaf in ast.walk(target):
                                if (
                                    isinstance(leaf, ast.Attribute)
                                    and isinstance(leaf.value, ast.Name)
                                    and leaf.value.id == "self"
                                    and isinstance(leaf.ctx, ast.Store)
                                ):
                                    attributes.add(leaf.attr)
            sizes.append((f"{name}.{node.name}", len(attributes), methods))
    return sorted(sizes, key=lambda size: (-size[1] - size[2], size[0]))
