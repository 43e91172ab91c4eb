"""The picture of a first divergence: the part of the reference's search where a student's search left it.

It is the ``engine tree`` drawing (:func:`engine.tree_drawing.draw`) of the
smallest part of the searched tree that holds both nodes, grown up the tree
while it stays readable, with two rings: blue where the reference goes next,
red where the student's search went. Values of ``±sys.maxsize`` (seed 003's
wins) are written ±∞.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from engine.grade.trees import Reference
from engine.tree import Node, fmt
from engine.tree_drawing import Marks, draw

#: The most leaves a divergence picture shows.
MAX_LEAVES = 40
REFERENCE_RING, STUDENT_RING = "#1f5fa8", "#d62728"


def draw_divergence(
    reference: Reference,
    ours: str | None,
    theirs: str | None,
    names: Mapping[str, str],
    path: Path,
    title: str,
) -> Path:
    """Write the picture of the divergence between the reference's next node ``ours`` and the student's
    ``theirs`` (either may be None: that search had ended) to ``path``."""
    nodes = {node.path: node for node in reference.tree.root.walk()}
    marked = [p for p in (ours, theirs, theirs and theirs.rsplit(".", 1)[0]) if p is not None and p in nodes]
    top = _common_ancestor(marked) if marked else "A"
    while "." in top:
        parent = top.rsplit(".", 1)[0]
        if len(nodes[parent].leaves()) > MAX_LEAVES:
            break
        top = parent
    part = nodes[top]
    names = dict(names)
    if len(part.leaves()) > MAX_LEAVES:  # too wide: open only the nodes on the way to the marks
        part = _collapsed(part, marked, reference, names)
    rings: dict[str, tuple[str, str]] = {}
    if ours is not None:
        rings[ours] = (REFERENCE_RING, "the reference goes here next")
    if theirs is not None and theirs in nodes:
        rings[theirs] = (STUDENT_RING, "your search goes here next")
    elif theirs is not None and theirs.rsplit(".", 1)[0] in nodes:  # below a leaf of the reference
        rings[theirs.rsplit(".", 1)[0]] = (STUDENT_RING, "your search goes on below here")
    headline = title if len(title) <= 60 else title[:57] + "..."
    infinite = any(abs(v) == sys.maxsize for v in reference.plain.values.values())
    note = "the first divergence, in part of the reference's search" + ("; ±∞: ±sys.maxsize" if infinite else "")
    marks = Marks(rings, names, f"{headline}\n{note}", _value)
    return draw(part, reference.root_player, "given", reference.plain, reference.search, Path(path), marks)


def _common_ancestor(paths: list[str]) -> str:
    parts = [p.split(".") for p in paths]
    common = []
    for level in zip(*parts, strict=False):
        if len(set(level)) != 1:
            break
        common.append(level[0])
    ancestor = ".".join(common) or "A"
    if ancestor in paths and "." in ancestor:  # a node and its own child: show the node's parent too
        ancestor = ancestor.rsplit(".", 1)[0]
    return ancestor


def _collapsed(node: Node, keep: list[str], reference: Reference, names: dict[str, str]) -> Node:
    """``node`` with only the nodes on the way to ``keep`` opened: every other node is drawn closed, as a
    box with its minimax value (its name ends in "…")."""
    if node.is_leaf:
        return node
    if not any(_within(k, node.path) for k in keep):
        names[node.path] = names.get(node.path, node.path) + " …"
        return Node(node.path, value=reference.plain.values[node.path])
    return Node(node.path, tuple(_collapsed(child, keep, reference, names) for child in node.children))


def _within(path: str, ancestor: str) -> bool:
    return path == ancestor or path.startswith(ancestor + ".")


def _value(value: float) -> str:
    if value == sys.maxsize:
        return "+∞"
    if value == -sys.maxsize:
        return "-∞"
    return fmt(value)
