"""Study ``ordering`` (seeds 000, 001): how move ordering changes the time and nodes of alpha-beta.

Seed 000's experiment: boards of 4 rows with 4, 5, 6 and 7 columns (its own
boards and depth limits), searched by plain alpha-beta (no table, no
deepening) with natural, centre-first and heuristic move order; we add 8 and 9
columns (five seeded random boards of each width with two full rows, searched
to the end; the report gives their means, since one random board can favour
any order). Each
search runs in the numba kernel and, where it takes reasonable time, in the
plain-Python reference (:mod:`engine.reference_search`, natural and centre
orders only). Times are CPU seconds per move.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from pathlib import Path

from engine.agents.search import plain_alphabeta
from engine.board import Board
from engine.experiments import charts
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.geometry import Geometry
from engine.reference_search import ReferenceSearch
from engine.tasks import Row, derive_seed

ORDERS = ("natural", "center", "heuristic")
#: How the charts name the orders.
ORDER_NAMES = {"natural": "natural", "center": "centre first", "heuristic": "heuristic"}
#: Every board here has four rows (seed 000's, and the wider ones added).
ROWS = 4
#: The Python reference is skipped above this many kernel nodes (it is ~1000 times slower).
PYTHON_NODE_LIMIT = 300_000
#: Random boards of each added width (8 and 9 columns).
WIDE_BOARDS = 5

# Seed 000's timing boards (player 1 = X to move; top row first) with the depth limit it used,
# and its published seconds per move without and with (centre-first) move ordering.
SEED_000_BOARDS = [
    ("4x4", "- - - -\nX O X O\nO X O O\nX X O X", 11, 0.004, 0.004),
    ("4x5", "- - - - -\nO X O X O\nX O X X O\nX X O O X", 13, 0.016, 0.011),
    ("4x6", "- - - - - -\n- X O O O X\nX O O X O O\nX X O X O X", 15, 0.05, 0.010),
    ("4x7", "- - - - - - -\n- - - - - - -\n- O O X X O O\nX O X X X O X", 21, 99.0, 1.26),
]


def seed_board(grid: str) -> tuple[Geometry, int, int]:
    """A seed 000 grid (top row first) as (geometry, stones of X, all stones): X to move, whatever the counts."""
    rows = [line.split() for line in grid.splitlines()]
    geometry = Geometry(len(rows[0]), len(rows))
    x = o = 0
    for top_index, cells in enumerate(rows):
        for col, cell in enumerate(cells):
            bit = geometry.cell(col, geometry.rows - 1 - top_index)
            x |= bit if cell == "X" else 0
            o |= bit if cell == "O" else 0
    return geometry, x, x | o


@dataclass(frozen=True)
class OrderingTask:
    """One board, one order, one implementation."""

    cols: int
    grid: str  # seed 004's text grid, X to move
    depth: int
    order: str
    engine: str  # "numba" or "python"

    @property
    def key(self) -> str:
        return f"{self.cols}|{self.grid}|{self.depth}|{self.order}|{self.engine}"

    def run(self) -> Row:
        geometry, current, mask = seed_board(self.grid)
        row: Row = {"cols": self.cols, "depth": self.depth, "order": self.order, "engine": self.engine}
        kernel = plain_alphabeta(current, mask, geometry, self.depth, "zero", self.order)  # also compiles
        if self.engine == "numba":
            repeats, start = 0, time.process_time()
            while time.process_time() - start < 0.2:
                plain_alphabeta(current, mask, geometry, self.depth, "zero", self.order)
                repeats += 1
            row.update(seconds=(time.process_time() - start) / repeats, nodes=kernel.nodes, column=kernel.column + 1)
            return row
        board = _board(geometry, current, mask)
        if board is None or kernel.nodes > PYTHON_NODE_LIMIT:
            row.update(seconds=None, nodes=None, column=None)
            row["note"] = "X has a stone more: no legal Board" if board is None else "too slow in Python"
            return row
        search = ReferenceSearch("zero", self.order)
        start = time.process_time()
        column, _ = search.best_move(board, min(self.depth, geometry.cells - board.ply))
        row.update(seconds=time.process_time() - start, nodes=search.nodes, column=column + 1)
        return row


def _board(geometry: Geometry, current: int, mask: int) -> Board | None:
    other = mask ^ current
    if current.bit_count() == other.bit_count():
        return Board.from_stones(current, other, geometry)
    if current.bit_count() == other.bit_count() - 1:
        return Board.from_stones(other, current, geometry)
    return None


def _wide_board(cols: int, seed: int) -> str:
    """A seeded board of 4 rows and ``cols`` columns, two rows full, nobody with three in a row."""
    rng = random.Random(seed)
    while True:
        board = Board(Geometry(cols, 4))
        order = [c for c in range(cols) for _ in range(2)]
        rng.shuffle(order)
        for col in order:
            board.play(col)
            if board.is_over:
                break
        if not board.is_over and not any(board.is_winning_move(c) for c in board.legal_columns()):
            from engine.formats import format_grid

            return format_grid(board)


def tasks(settings: Settings) -> list[OrderingTask]:
    boards = [(Geometry(len(g.splitlines()[0].split()), 4).cols, g, depth) for _, g, depth, _, _ in SEED_000_BOARDS]
    if not settings.quick:
        boards += [
            (cols, _wide_board(cols, derive_seed(settings.seed, cols, k)), 16)
            for cols in (8, 9)
            for k in range(WIDE_BOARDS)
        ]
    else:
        boards = [boards[0], boards[3]]  # the smallest board, and 4x7 where the orders differ
    return [
        OrderingTask(cols, grid, depth, order, engine)
        for cols, grid, depth in boards
        for order in ORDERS
        for engine in ("numba", "python")
        if not (engine == "python" and order == "heuristic")
    ]


def _kind(cols: int, published: dict) -> str:
    """Which set a board belongs to: seed 000's own boards, or the wider ones added here."""
    return "seed 000's boards" if cols in published else "wider boards added here"


def merged(rows: list[Row]) -> list[Row]:
    """One row per width, order and implementation: the mean time and nodes over its boards (None where
    a board did not run there, with that board's note), and how many boards."""
    groups: dict[tuple, list[Row]] = {}
    for row in rows:
        groups.setdefault((row["cols"], row["order"], row["engine"]), []).append(row)
    out = []
    for (cols, order, engine), group in groups.items():
        mean: Row = {"cols": cols, "depth": group[0]["depth"], "order": order, "engine": engine, "boards": len(group)}
        missing = next((r for r in group if r.get("seconds") is None), None)
        if missing is not None:
            mean.update(seconds=None, nodes=None, note=missing.get("note"))
        else:
            mean.update(
                seconds=sum(r["seconds"] for r in group) / len(group),
                nodes=round(sum(r["nodes"] for r in group) / len(group)),
            )
        out.append(mean)
    return out


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    rows = merged(rows)
    published = {len(g.splitlines()[0].split()): (plain, ordered) for _, g, _, plain, ordered in SEED_000_BOARDS}
    cols_list = sorted({row["cols"] for row in rows})

    def cell(cols: int, order: str, engine: str, key: str = "seconds"):
        for row in rows:
            if (row["cols"], row["order"], row["engine"]) == (cols, order, engine):
                return row.get(key)
        return None

    table_rows = []
    for cols in cols_list:
        depth = next(row["depth"] for row in rows if row["cols"] == cols)
        seed = published.get(cols, (None, None))
        boards = _boards(rows, [cols])
        table_rows.append(
            [
                f"{cols}x{ROWS}",
                _kind(cols, published) + (f" ({boards}, means)" if boards > 1 else ""),
                depth,
                _fmt(seed[0]),
                _fmt(seed[1]),
                *[
                    _python_cell(cell(cols, order, "python"), cell(cols, order, "python", "note"))
                    for order in ORDERS[:2]
                ],
                *[_fmt(cell(cols, order, "numba")) for order in ORDERS],
                *[_count(cell(cols, order, "numba", "nodes")) for order in ORDERS],
            ]
        )
    headers = [
        "board (cols x rows)",
        "boards",
        "depth",
        "seed 000 natural (s)",
        "seed 000 centre (s)",
        "Python natural (s)",
        "Python centre (s)",
        "numba natural (s)",
        "numba centre (s)",
        "numba heuristic (s)",
        "nodes natural",
        "nodes centre",
        "nodes heuristic",
    ]
    table = markdown_table(headers, table_rows, right=[False, False] + [True] * (len(headers) - 2))
    kinds = list(dict.fromkeys(_kind(cols, published) for cols in cols_list))
    _chart(rows, cols_list, published, kinds, out / "ordering.png")
    widest = cols_list[-1]
    natural, centre = cell(widest, "natural", "numba", "nodes"), cell(widest, "center", "numba", "nodes")
    heuristic = cell(widest, "heuristic", "numba", "nodes")
    boards = _boards(rows, [widest])
    over = f" (the means over {boards} random boards)" if boards > 1 else ""
    headline = (
        f"on {widest}x{ROWS}{over} centre-first order searches {compared(natural, centre)} nodes than natural "
        f"order and the heuristic order {compared(natural, heuristic)}"
    )
    seed_figures = markdown_table(
        ["board (cols x rows)", "seed 000 natural (s)", "seed 000 centre (s)", "seed's speed-up"],
        [[f"{c}x{ROWS}", p, o, f"{p / o:.0f}x"] for c, (p, o) in sorted(published.items())],
        right=[False, True, True, True],
    )
    biggest = max(published)
    plain, ordered = published[biggest]
    reading = " ".join(
        part
        for part in (
            "Ordering does not change the move's value, only how soon alpha-beta finds the cut-offs. The boards "
            "differ in more than their width (seed 000 fills its boards to different heights and searches each "
            "to its own depth; the wider ones added here have two rows full), so the chart has one panel per kind "
            f"of board. On the widest, {widest}x{ROWS}{over}, natural order searches "
            f"{natural / max(centre, 1):.1f} times the nodes of centre-first order and "
            f"{natural / max(heuristic, 1):.1f} times those of the heuristic order. The seed measured {plain:g} s "
            f"against {ordered:g} s on its {biggest}x{ROWS} board in its own Python.",
            _speed_sentence(rows),
            _unreachable_sentence(rows),
        )
        if part
    )
    return Findings(table, ["ordering.png"], headline, seed_figures, reading)


def compared(natural: float, nodes: float) -> str:
    """``2.5 times fewer`` or ``2.5 times more``: an order's nodes against natural order's (one random
    board can make a good order search more)."""
    natural, nodes = max(natural, 1), max(nodes, 1)
    return f"{natural / nodes:.1f} times fewer" if nodes <= natural else f"{nodes / natural:.1f} times more"


def _speed_sentence(rows: list[Row]) -> str:
    """How much faster the numba kernel is than the plain-Python reference, over the searches both ran."""
    ratios = []
    for row in rows:
        if row["engine"] != "python" or not row["seconds"]:
            continue
        twin = next(
            (r for r in rows if r["engine"] == "numba" and (r["cols"], r["order"]) == (row["cols"], row["order"])),
            None,
        )
        if twin and twin["seconds"]:
            ratios.append(row["seconds"] / twin["seconds"])
    if not ratios:
        return "No search ran in both the Python reference and the numba kernel here."
    return (
        "Our counts of nodes show where the gap comes from; on the searches both ran, the numba kernel is "
        f"{min(ratios):,.0f} to {max(ratios):,.0f} times faster than our plain-Python reference."
    )


def _unreachable_sentence(rows: list[Row]) -> str:
    boards = sorted({row["cols"] for row in rows if "stone more" in str(row.get("note") or "")})
    if not boards:
        return ""
    names = [f"{cols}x{ROWS}" for cols in boards]
    sizes = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return (
        f"The seed's {sizes} board{'s have' if len(boards) > 1 else ' has'} X to move with a stone more than O: "
        f"no game can reach {'them' if len(boards) > 1 else 'it'}, so only the kernel (which does not check) "
        f"searches {'them' if len(boards) > 1 else 'it'}."
    )


def _boards(rows: list[Row], widths: list[int]) -> int:
    """How many boards the merged rows of these widths stand for."""
    return max(row["boards"] for row in rows if row["cols"] in widths)


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.2g}" if value < 0.01 else f"{value:.3f}"


def _python_cell(seconds, note) -> str:
    if seconds is not None:
        return _fmt(seconds)
    return "unreachable" if note and "stone more" in note else "too slow" if note else "-"


def _count(value) -> str:
    return "-" if value is None else f"{value:,}"


def _chart(rows: list[Row], cols_list: list[int], published: dict, kinds: list[str], path: Path) -> None:
    """One panel per kind of board: seed 000's own (its depths) and the wider ones added here."""
    figure, axes = charts.new_figure(6.5 * len(kinds), 5.5, columns=len(kinds))
    styles = {"numba": "-", "python": "--"}
    for axis, kind in zip(axes, kinds, strict=True):
        mine = [c for c in cols_list if _kind(c, published) == kind]
        lines = [(engine, order) for engine in ("numba", "python") for order in ORDERS]
        for index, (engine, order) in enumerate(lines):
            seconds = {r["cols"]: r["seconds"] for r in rows if r["engine"] == engine and r["order"] == order}
            ys = [seconds.get(c) or float("nan") for c in mine]  # a gap where it did not run
            if not all(math.isnan(y) for y in ys):  # (one colour per line in every panel)
                label = f"{engine}, {ORDER_NAMES[order]}"
                axis.plot(mine, ys, styles[engine], marker="o", color=f"C{index}", label=label)
        seeds = [c for c in mine if c in published]
        for index, label in enumerate(("seed 000, natural", "seed 000, centre first")):
            if seeds:
                axis.plot(
                    seeds,
                    [published[c][index] for c in seeds],
                    ":",
                    marker="x",
                    color="black" if index == 0 else "grey",
                    label=label,
                )
        depths = sorted({r["depth"] for r in rows if r["cols"] in mine})
        boards = _boards(rows, mine)
        means = f"; means over {boards} boards each" if boards > 1 else ""
        axis.set_yscale("log")
        axis.set_xticks(mine, [f"{c}x{ROWS}" for c in mine])
        charts.decorate(
            axis,
            "board (cols x rows)",
            "CPU seconds per move (log scale)",
            f"{kind[0].upper()}{kind[1:]} (depth {', '.join(map(str, depths))}{means})",
        )
        axis.legend(fontsize=8)
    figure.suptitle("Alpha-beta time per move by move order")
    charts.save(figure, path)


STUDY = Study(
    name="ordering",
    summary="alpha-beta time and nodes per move against the number of columns, by move order",
    seeds="000, 001",
    tasks=tasks,
    summarize=summarize,
    charts=("ordering.png",),
)
