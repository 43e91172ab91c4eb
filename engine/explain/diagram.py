"""A reason drawn on its board, as a PNG: the pictures of docs/explain.md (``explain --png``).

Stones carry shapes as well as colours (a cross for Red, a ring for Yellow),
so that the picture reads without telling red from yellow. On the board:

* a cell the defender is sure to get: a thick ring in the defender's colour,
  with the rule's short name (``ce`` claimeven, ``bi`` baseinverse, ...);
* two cells of which the defender gets one: a dotted link between them;
* the defender's own line (an aftereven's, a before's): a solid bar;
* a group of the mover's that the rules refute: a thin dashed white line;
* a winning cell: a star; the cell below an odd threat: a black square.

matplotlib is imported here only, on first use.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from engine.board import Board, Side
from engine.explain.explanation import Explanation
from engine.explain.marks import CLAIM, LINE, PAIR, POISON, REFUTED, THREAT, Picture, picture
from engine.files import write_atomic

#: The rules' short names on the board.
SHORT = {
    "claimeven": "ce",
    "baseinverse": "bi",
    "vertical": "v",
    "aftereven": "ae",
    "lowinverse": "li",
    "highinverse": "hi",
    "baseclaim": "bc",
    "before": "b",
    "specialbefore": "sb",
    "odd-threat": "t",
    "double-threat": "dt",
}
COLOURS = {"Red": "#d1202f", "Yellow": "#f2b705"}
EDGES = {"Red": "#7a0d17", "Yellow": "#8a6500"}
BOARD, HOLE, INK = "#2f5fa7", "#f7f7f2", "#1a1a1a"
DPI = 110


def draw(board: Board, explanation: Explanation, path: Path, only: str | None = None) -> Path | None:
    """Draw the reason of ``explanation`` (about ``board``) into ``path``; None (nothing written) without one.

    ``only``: draw the marks of that rule alone (the docs' one picture per rule).
    """
    shown = picture(board, explanation)
    if shown is None:
        return None
    image = io.BytesIO()
    _figure(shown, explanation, only).savefig(image, format="png", dpi=DPI)
    try:
        write_atomic(path, image.getvalue())
    except OSError as exc:  # named after the user's path, not the temporary file beside it
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    return path


def _figure(shown: Picture, explanation: Explanation, only: str | None) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import patheffects
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Rectangle

    def outlined(width: float) -> list[Any]:
        return [patheffects.withStroke(linewidth=width, foreground=INK)]

    label: dict[str, Any] = {
        "fontsize": 7,
        "color": INK,
        "zorder": 8,
        "bbox": {"boxstyle": "round,pad=0.15", "fc": "white", "lw": 0},
    }

    board = shown.board
    g = board.geometry
    figure = Figure(figsize=(0.62 * g.cols + 1.2, 0.62 * g.rows + 1.7))
    axis = figure.add_axes((0.05, 0.16, 0.9, 0.7))
    axis.set_xlim(-0.6, g.cols - 0.4)
    axis.set_ylim(-0.9, g.rows - 0.4)
    axis.set_aspect("equal")
    axis.axis("off")
    axis.add_patch(Rectangle((-0.5, -0.5), g.cols, g.rows, facecolor=BOARD, edgecolor="none", zorder=0))
    for col in range(g.cols):
        axis.text(col, -0.75, "abcdefghi"[col], ha="center", va="center", fontsize=9, color=INK)
        for row in range(g.rows):
            side = board.cell(col, row)
            if side is None:
                axis.add_patch(Circle((col, row), 0.38, facecolor=HOLE, edgecolor="none", zorder=1))
            else:
                name = "Red" if side is Side.FIRST else "Yellow"
                axis.add_patch(Circle((col, row), 0.38, facecolor=COLOURS[name], edgecolor=EDGES[name], zorder=1))
                symbol = "x" if side is Side.FIRST else "o"  # the shapes of the colour-blind look
                axis.text(col, row, symbol, ha="center", va="center", fontsize=10, color="white", zorder=2)
    for row in range(g.rows):
        axis.text(-0.62, row, str(row + 1), ha="right", va="center", fontsize=8, color=INK)
    own = COLOURS[shown.defender]
    refuted = 0
    for mark in shown.marks:
        if only is not None and mark.rule != only and not (only == "odd-threat" and mark.kind == POISON):
            continue
        xs = [col for col, _ in mark.cells]
        ys = [row for _, row in mark.cells]
        short = SHORT.get(mark.rule, "")
        if mark.kind == REFUTED:
            # (groups along one line would hide each other: each is moved a little across its direction)
            shift = 0.09 * (refuted % 3 - 1)
            refuted += 1
            dx, dy = xs[-1] - xs[0], ys[-1] - ys[0]
            norm = max(1e-9, (dx * dx + dy * dy) ** 0.5)
            xs = [x - shift * dy / norm for x in xs]
            ys = [y + shift * dx / norm for y in ys]
            axis.plot(xs, ys, color="white", lw=1.6, ls=(0, (4, 3)), zorder=3, path_effects=outlined(2.8))
        elif mark.kind == LINE:
            axis.plot(xs, ys, color=own, lw=6, zorder=4, solid_capstyle="round", path_effects=outlined(9))
        elif mark.kind == PAIR:
            axis.plot(xs, ys, color=own, lw=3, ls=(0, (1, 1.2)), zorder=5, path_effects=outlined(5))
            axis.text(sum(xs) / 2 + 0.12, sum(ys) / 2, short, ha="left", va="center", **label)
        elif mark.kind == CLAIM:
            for col, row in mark.cells:
                ring = Circle((col, row), 0.33, facecolor="none", edgecolor=own, lw=3.5, zorder=6)
                ring.set_path_effects(outlined(5.5))
                axis.add_patch(ring)
                axis.text(col, row, short, ha="center", va="center", **label)
        elif mark.kind == THREAT:
            axis.plot(xs, ys, marker="*", ms=18, color=own, mec=INK, mew=1.2, ls="none", zorder=6)
        elif mark.kind == POISON:
            for col, row in mark.cells:
                axis.add_patch(Rectangle((col - 0.14, row - 0.14), 0.28, 0.28, color=INK, zorder=6))
    mover = "Red" if board.ply % 2 == 0 else "Yellow"
    after = f" after {shown.moves}" if shown.moves else ""
    claim = explanation.claim or ""
    title = f"{only} (Allis §{_section(only)})" if only else _claim_words(claim, mover)
    figure.suptitle(f"{title}\n{explanation.position or 'empty board'}{after}: {mover} to move", fontsize=10)
    figure.text(
        0.5,
        0.03,
        "ring: a cell the defender gets   dots: it gets one of the two\n"
        "bar: its own line   dashes: a group of the mover's it refutes\n"
        "star: a winning cell   square: the mover must play it last",
        ha="center",
        fontsize=7,
        color=INK,
    )
    return figure


def _claim_words(claim: str, mover: str) -> str:
    other = "Yellow" if mover == "Red" else "Red"
    words = {"mover wins": f"{mover} wins", "mover cannot win": f"{mover} cannot win", "opponent wins": f"{other} wins"}
    return words.get(claim, claim)


def _section(rule: str | None) -> str:
    from engine.explain.prove import RULES

    sections: dict[str, str] = {module.NAME: module.SECTION for module in RULES}
    return sections.get(rule or "", "4.3" if rule == "odd-threat" else "")
