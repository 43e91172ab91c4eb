"""A PNG of an alpha-beta search on an abstract tree, as a student would draw it by hand.

MAX nodes are triangles pointing up, MIN nodes triangles pointing down, leaves
squares; every node shows its minimax value. Branches that a cut removed are
dashed and grey with a red stroke across them, and everything alpha-beta never
visited is grey. Children are drawn in the order the search visited them (the
written order unless ``--order`` changed it), so the picture reads left to
right like the trace. matplotlib is imported here only, on first use.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.files import write_atomic
from engine.tree import (
    AlphaBetaResult,
    Enter,
    MinimaxResult,
    Node,
    Order,
    Player,
    TreeError,
    fmt,
    ordered_children,
    player_at,
    shape,
)

#: More leaves than this make a drawing no one can read.
MAX_DRAWN_LEAVES = 256
DPI = 110

INK, GREY, PALE, CUT_RED, PATH_BLUE = "#222222", "#b0b0b0", "#f0f0f0", "#c0392b", "#1f5fa8"
FILL = {Player.MAX: "#fde2d4", Player.MIN: "#d6e6f5"}
MARKER = {Player.MAX: "^", Player.MIN: "v"}


def check_drawable(tree: Node) -> None:
    leaves = len(tree.leaves())
    if leaves > MAX_DRAWN_LEAVES:
        raise TreeError(f"a drawing holds at most {MAX_DRAWN_LEAVES} leaves; this tree has {leaves:,}")


def layout(tree: Node, root_player: Player, order: Order, values: dict[str, float]) -> dict[str, tuple[float, int]]:
    """``(x, depth)`` of every node: leaves one unit apart in visiting order, a parent centred over its children."""
    where: dict[str, tuple[float, int]] = {}
    next_leaf = [0.0]

    def place(node: Node) -> float:
        if node.is_leaf:
            x = next_leaf[0]
            next_leaf[0] += 1.0
        else:
            xs = [place(child) for child in ordered_children(node, player_at(node, root_player), order, values)]
            x = (xs[0] + xs[-1]) / 2
        where[node.path] = (x, node.depth)
        return x

    place(tree)
    return where


@dataclass(frozen=True)
class Marks:
    """What a drawing of part of a search adds (the grader's first divergence of a student's search).

    ``rings``: nodes circled, path -> (colour, what the ring means); ``names``: what a node is called
    instead of its path (``O 3``: the move that leads there); ``title``: the headline; ``value``: how
    a node's value is written.
    """

    rings: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    title: str = ""
    value: Callable[[float], str] = fmt


def draw(
    tree: Node,
    root_player: Player,
    order: Order,
    plain: MinimaxResult,
    result: AlphaBetaResult,
    path: Path,
    marks: Marks | None = None,
) -> Path:
    """Write the drawing to ``path`` (through a temporary file: a killed run leaves no half PNG).

    ``tree`` may be a part of the searched tree (a node and all below it): ``plain`` and ``result``
    are then the whole search's, and the part is drawn as the search went through it.
    """
    check_drawable(tree)
    marks = marks or Marks()
    from engine.optional import require

    require("matplotlib", "studies", "drawing a tree").use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    top = tree.depth  # a part of a tree is drawn from its own top
    where = {node: (x, d - top) for node, (x, d) in layout(tree, root_player, order, plain.values).items()}
    leaves = len(tree.leaves())
    depth = max(d for _, d in where.values())
    step = 0.62 if leaves <= 32 else 0.5 if leaves <= 64 else 0.34  # inches per leaf
    step = max(step, 8.0 / leaves)  # a small tree spreads over a page's width
    width = leaves * step + 1.0
    height = 1.5 * depth + 2.9
    scale = min(1.0, step / 0.62)  # markers and fonts shrink with the spacing
    marker_pt = 30 * scale  # marker size in points
    value_font = 10 * scale + 1
    small_font = 7 * scale + 1.5

    visited = set(result.visited)
    pruned_roots = {p for cut in result.cuts for p in cut.pruned}
    windows = {e.path: (e.alpha.value, e.beta.value) for e in result.events if isinstance(e, Enter)}
    returns = result.returns
    line = principal_line(tree, result, plain)
    parent_x = {child.path: where[node.path][0] for node in tree.walk() for child in node.children}

    figure = Figure(figsize=(width, height), dpi=DPI)
    axis = figure.add_axes((0.01, 0.02, 0.98, 1 - 1.45 / height))  # the title and the legend above
    axis.set_xlim(-0.8, leaves - 0.2)
    axis.set_ylim(-depth - 0.75, 0.55)
    axis.axis("off")

    for node in tree.walk():
        x0, d0 = where[node.path]
        for child in node.children:
            x1, d1 = where[child.path]
            edge = {"xs": (x0, x1), "ys": (-d0, -d1)}
            if child.path in pruned_roots:
                axis.plot(*edge.values(), color=GREY, lw=1.4, ls=(0, (4, 3)), zorder=1)
                # a red stroke across the branch, a third of the way down: "cut here"
                mx, my = x0 + (x1 - x0) * 0.32, -d0 - (d1 - d0) * 0.32
                axis.plot([mx - 0.12, mx + 0.12], [my - 0.07, my + 0.07], color=CUT_RED, lw=2.2, zorder=2)
            elif child.path in visited:
                thick = child.path in line and node.path in line
                axis.plot(*edge.values(), color=PATH_BLUE if thick else INK, lw=3.0 if thick else 1.2, zorder=1)
            else:
                axis.plot(*edge.values(), color=GREY, lw=1.0, ls=(0, (1, 2)), zorder=1)

    for node in tree.walk():
        x, d = where[node.path]
        seen = node.path in visited
        player = player_at(node, root_player)
        marker = "s" if node.is_leaf else MARKER[player]
        size = marker_pt * (0.8 if node.is_leaf else 1.0)
        face = ("white" if node.is_leaf else FILL[player]) if seen else PALE
        axis.plot([x], [-d], marker=marker, ms=size, mfc=face, mec=INK if seen else GREY, mew=1.3, ls="none", zorder=3)
        # a triangle's middle is off its bounding box's centre: nudge the value towards the wide side
        nudge = 0.0 if node.is_leaf else (-0.05 if player is Player.MAX else 0.05)
        axis.text(
            x,
            -d + nudge,
            marks.value(plain.values[node.path]),
            ha="center",
            va="center",
            fontsize=value_font,
            color=INK if seen else GREY,
            fontweight="bold" if seen else "normal",
            zorder=4,
        )
        name = marks.names.get(node.path, node.path)
        if node.path in marks.rings:
            colour, _ = marks.rings[node.path]
            axis.plot([x], [-d], marker="o", ms=size * 1.75, mfc="none", mec=colour, mew=2.6, ls="none", zorder=6)
        if node.is_leaf:
            axis.text(x, -d - 0.3, name, ha="center", va="top", rotation=90, fontsize=small_font, color="#555555")
            continue
        # labels on the side away from the branch up to the parent, on white so a branch never hides them
        left = node.path in parent_x and x < parent_x[node.path]
        align = "right" if left else "left"
        side: dict[str, Any] = {
            "x": x - 0.3 if left else x + 0.3,
            "ha": align,
            "multialignment": align,
            "fontsize": small_font,
        }
        box = {"facecolor": "white", "edgecolor": "none", "pad": 0.6, "alpha": 0.9}
        # what fits in half the gap to the next node on that side (leaf units; the rest is the neighbour's)
        room = room_beside(node.path, left, where, leaves) * 0.5 - 0.3
        lines = [name] if text_width(name, small_font) / step <= room else []
        if node.path in windows:
            alpha, beta = (
                f"{name}={marks.value(bound).replace('inf', '∞')}"
                for name, bound in zip("αβ", windows[node.path], strict=True)
            )
            if text_width(f"{alpha} {beta}", small_font) / step <= room:
                lines.append(f"{alpha} {beta}")
            elif max(text_width(alpha, small_font), text_width(beta, small_font)) / step <= room:
                lines += [alpha, beta]
        if lines:
            axis.text(y=-d + 0.04, s="\n".join(lines), va="bottom", color="#444444", bbox=box, zorder=5, **side)
        back = returns.get(node.path)
        if back is not None and back.low != back.high:
            known = back.known if marks.value is fmt else _known(back.low, back.high, marks.value)
            known = known.replace("at least ", "≥ ").replace("at most ", "≤ ")
            text = f"α-β: {known}" if text_width(f"α-β: {known}", small_font) / step <= room else known
            axis.text(y=-d - 0.05, s=text, va="top", color=CUT_RED, style="italic", bbox=box, zorder=5, **side)

    cuts = len(result.cuts)
    order_words = {"given": "as given", "best": "best first", "worst": "worst first"}[order]
    form = shape(tree)
    form = f"a {form} tree" if form[0].isdigit() else "an irregular tree" if form.startswith("irregular") else form
    headline = (
        f"Alpha-beta on {form}, children visited {order_words}: root value {marks.value(result.value)}\n"
        f"{result.leaves} of {plain.leaves} leaves evaluated, {result.nodes} of {plain.nodes} nodes visited, "
        f"{cuts} cut{'s' * (cuts != 1)} (plain minimax visits all)"
    )
    figure.suptitle(marks.title or headline, fontsize=12, y=1 - 0.05 / height)
    legend = [
        Line2D([], [], marker="^", ms=11, mfc=FILL[Player.MAX], mec=INK, ls="none", label="MAX to move"),
        Line2D([], [], marker="v", ms=11, mfc=FILL[Player.MIN], mec=INK, ls="none", label="MIN to move"),
        Line2D([], [], marker="s", ms=9, mfc="white", mec=INK, ls="none", label="leaf (evaluated)"),
        Line2D([], [], color=PATH_BLUE, lw=3, label="the chosen line"),
        Line2D([], [], color=GREY, lw=1.4, ls=(0, (4, 3)), label="cut branch (red stroke)"),
        Line2D([], [], marker="s", ms=9, mfc=PALE, mec=GREY, color=GREY, ls=(0, (1, 2)), label="never visited"),
    ]
    legend += [
        Line2D([], [], marker="o", ms=13, mfc="none", mec=colour, mew=2.6, ls="none", label=meaning)
        for colour, meaning in dict.fromkeys(marks.rings.values())
    ]
    figure.legend(
        handles=legend,
        loc="upper center",
        bbox_to_anchor=(0.5, 1 - 0.75 / height),
        ncol=6 if width >= 13 else 3,
        fontsize=9,
        frameon=False,
    )
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=DPI)
    try:
        write_atomic(path, image.getvalue())
    except OSError as exc:  # named after the user's path, not the temporary file beside it
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    return path


def room_beside(path: str, left: bool, where: dict[str, tuple[float, int]], leaves: int) -> float:
    """How far (in leaf units) the node is from its nearest neighbour on the same level on one side
    (twice as far as the edge of the picture when it has none: a neighbour shares the gap, the edge does not)."""
    x, depth = where[path]
    others = [ox for other, (ox, od) in where.items() if od == depth and other != path]
    gaps = [x - ox for ox in others if ox < x] if left else [ox - x for ox in others if ox > x]
    edge = x + 0.8 if left else leaves - 0.2 - x
    return min(gaps, default=2 * edge)


def text_width(text: str, points: float) -> float:
    """A rough width in inches of ``text`` in the default sans-serif font (about 0.68 em per character, to be safe)."""
    return len(text) * points * 0.68 / 72


def _known(low: float, high: float, value: Callable[[float], str]) -> str:
    """:attr:`Return.known <engine.tree.Return.known>` with values written by ``value``."""
    if low == -math.inf:
        return f"at most {value(high)}"
    if high == math.inf:
        return f"at least {value(low)}"
    return f"between {value(low)} and {value(high)}"


def symbol(value: float) -> str:
    """A bound as a student writes it: ``-∞``, ``+∞`` or the number."""
    return fmt(value).replace("inf", "∞")


def principal_line(tree: Node, result: AlphaBetaResult, plain: MinimaxResult) -> set[str]:
    """The root, the child alpha-beta chose, and below it the children that give each node its value."""
    visited = set(result.visited)
    line = {tree.path}
    node = next((c for c in tree.children if c.path == result.best_child), None)
    while node is not None:
        line.add(node.path)
        value = plain.values[node.path]
        node = next((c for c in node.children if c.path in visited and plain.values[c.path] == value), None)
    return line
