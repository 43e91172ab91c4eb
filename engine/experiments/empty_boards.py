"""Study ``empty-boards`` (seed 001): how long the first move takes on an empty board, column by column.

Seed 001 asks twice "How long does it take to make a move? Start with a smaller
board with 4 columns and make the board larger by adding columns." (Task 3 for
alpha-beta, Task 4 for the search with a cut-off), and answers the first for
empty boards: "For a 6x7 board and no move ordering, alpha-beta search takes an
substantial amount of time to make a move. With a 6x4 board and no move
ordering, the interpreter only took about a second and a half." Its sizes are
rows x columns; here, as everywhere in the engine, a board is columns x rows
(its "6x4" is our 4x6).

- To the end: the seeds' plain alpha-beta (no table, no deepening, every
  position worth 0 until a line or a full board) from the empty board, in
  natural order ("no move ordering") and centre first (seed 001's ordering),
  on 6 rows (seed 001's text) and 4 rows (its code's ``HEIGHT = 4``), 4 to 7
  columns. A search stops at :data:`NODE_CAP` nodes and is shown as stopped:
  its time is a lower bound.
- Cut off: the same search stopped at depth 2, 4, 6 and 8 and scored with seed
  000's evaluation (mode 1), centre first, on 6 rows and 4 to 9 columns.

The numba kernel times every search (CPU seconds; one under 0.2 s is repeated,
and the fastest of three batches counts); the plain-Python reference (:mod:`engine.reference_search`) times
those the kernel finishes within :data:`PYTHON_NODE_LIMIT` nodes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from engine.agents.search import plain_alphabeta
from engine.board import Board
from engine.experiments import charts
from engine.experiments.stats import cpu_seconds_per_call
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.geometry import Geometry
from engine.reference_search import ReferenceSearch
from engine.tasks import Row

#: A search to the end stops here (about 4 s of CPU on the machine of the report).
NODE_CAP, QUICK_NODE_CAP = 20_000_000, 300_000
#: The plain-Python reference runs the searches the kernel finishes within this many nodes.
PYTHON_NODE_LIMIT, QUICK_PYTHON_NODE_LIMIT = 100_000, 30_000
END_ROWS, END_COLS = (6, 4), (4, 5, 6, 7)
QUICK_END = ((4, 4), (5, 4))
CUTOFF_ROWS, CUTOFF_COLS, CUTOFF_DEPTHS = 6, (4, 5, 6, 7, 8, 9), (2, 4, 6, 8)
QUICK_CUTOFF_COLS, QUICK_CUTOFF_DEPTHS = (4, 7), (2, 4)
ORDERS = ("natural", "center")
ORDER_NAMES = {"natural": "natural order", "center": "centre first"}
#: The same, after a figure: "3,503,796 nodes in natural order", "... centre first".
ORDER_WAYS = {"natural": "in natural order", "center": "centre first"}
#: Seed 001's figure: its 6x4 (4 columns, 6 rows) empty board, no ordering, "about a second and a half".
SEED_001_SECONDS = 1.5
#: The evaluation of the searches with a cut-off: seed 000's weights, mode 1.
CUTOFF_EVAL = "seed000/1"


@dataclass(frozen=True)
class EmptyBoardSearch:
    """One search of the empty board: to the end (``depth`` 0) or cut off at ``depth``."""

    cols: int
    rows: int
    depth: int  # 0: to the end of the game
    order: str
    engine: str  # "numba" or "python"
    cap: int  # the kernel's node limit
    python_nodes: int  # the Python reference runs the searches the kernel finishes within this many nodes

    @property
    def key(self) -> str:
        return f"{self.cols}x{self.rows}|{self.depth}|{self.order}|{self.engine}|{self.cap}|{self.python_nodes}"

    def run(self) -> Row:
        geometry = Geometry(self.cols, self.rows)
        eval_name = "zero" if self.depth == 0 else CUTOFF_EVAL
        depth = geometry.cells if self.depth == 0 else self.depth
        row: Row = {
            "board": f"{self.cols}x{self.rows}",
            "cols": self.cols,
            "rows": self.rows,
            "search": "to the end" if self.depth == 0 else f"cut-off {self.depth}",
            "depth": self.depth,
            "order": self.order,
            "engine": self.engine,
        }
        plain_alphabeta(0, 0, geometry, 1, eval_name, self.order)  # compile (or load) outside the clock
        start = time.process_time()
        kernel = plain_alphabeta(0, 0, geometry, depth, eval_name, self.order, nodes=self.cap)
        seconds = time.process_time() - start
        finished = kernel.completed
        if finished and seconds < 0.2 and self.engine == "numba":
            seconds = cpu_seconds_per_call(lambda: plain_alphabeta(0, 0, geometry, depth, eval_name, self.order))
        value = None
        if finished and self.depth == 0 and kernel.score is not None:
            sign = kernel.score.value
            value = "first player wins" if sign > 0 else "second player wins" if sign < 0 else "draw"
        row.update(
            finished=finished,
            nodes=kernel.nodes,
            column=kernel.column + 1 if finished else None,
            value=value,
        )
        if self.engine == "numba":
            row.update(seconds=seconds, note=None if finished else f"stopped at {self.cap:,} nodes")
            return row
        if not finished or kernel.nodes > self.python_nodes:
            row.update(seconds=None, nodes=None, note="too slow in Python")
            return row
        search = ReferenceSearch(eval_name, self.order)
        start = time.process_time()
        column, _ = search.best_move(Board(geometry), depth)
        row.update(seconds=time.process_time() - start, nodes=search.nodes, column=column + 1, note=None)
        return row


def _end_sizes(settings: Settings) -> list[tuple[int, int]]:
    return list(QUICK_END) if settings.quick else [(c, r) for r in END_ROWS for c in END_COLS]


def tasks(settings: Settings) -> list[EmptyBoardSearch]:
    cap = QUICK_NODE_CAP if settings.quick else NODE_CAP
    python = QUICK_PYTHON_NODE_LIMIT if settings.quick else PYTHON_NODE_LIMIT
    out = [
        EmptyBoardSearch(cols, rows, 0, order, engine, cap, python)
        for cols, rows in _end_sizes(settings)
        for order in ORDERS
        for engine in ("numba", "python")
    ]
    cols_list = QUICK_CUTOFF_COLS if settings.quick else CUTOFF_COLS
    depths = QUICK_CUTOFF_DEPTHS if settings.quick else CUTOFF_DEPTHS
    out += [
        EmptyBoardSearch(cols, CUTOFF_ROWS, depth, "center", engine, cap, python)
        for depth in depths
        for cols in cols_list
        for engine in ("numba", "python")
    ]
    return out


# -- the figures ------------------------------------------------------------------------------------
def find(rows: list[Row], board: str, depth: int, order: str, engine: str = "numba") -> Row | None:
    return next(
        (r for r in rows if (r["board"], r["depth"], r["order"], r["engine"]) == (board, depth, order, engine)),
        None,
    )


def seed_name(board: str) -> str:
    """Seed 001's name of a board: rows x columns."""
    cols, rows = board.split("x")
    return f"{rows}x{cols}"


def _seconds(row: Row | None) -> str:
    if row is None:
        return "-"
    if row["seconds"] is None:
        return "too slow" if row["engine"] == "python" else "-"
    text = f"{row['seconds']:.3g}"
    return text if row["finished"] else f"> {text} (stopped)"


def _nodes(row: Row | None) -> str:
    if row is None or row["nodes"] is None:
        return "-"
    return f"{row['nodes']:,}" if row["finished"] else f"> {row['nodes']:,}"


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    end = [r for r in rows if r["depth"] == 0]
    end_boards = list(dict.fromkeys(r["board"] for r in end))
    end_rows = []
    for board in end_boards:
        cells = []
        for order in ORDERS:
            kernel = find(rows, board, 0, order)
            cells += [_nodes(kernel), _seconds(kernel), _seconds(find(rows, board, 0, order, "python"))]
        value = next((r["value"] for r in end if r["board"] == board and r["value"]), None)
        end_rows.append([board, seed_name(board), *cells, value or "-"])
    end_table = markdown_table(
        [
            "board (cols x rows)",
            "seed 001 says (rows x cols)",
            "nodes, natural",
            "CPU s, natural",
            "CPU s, natural, Python",
            "nodes, centre first",
            "CPU s, centre first",
            "CPU s, centre first, Python",
            "value (proven)",
        ],
        end_rows,
        right=[False, False, True, True, True, True, True, True, False],
    )
    cut = [r for r in rows if r["depth"] > 0]
    depths = sorted({r["depth"] for r in cut})
    cut_boards = list(dict.fromkeys(r["board"] for r in cut))
    cut_rows = []
    for board in cut_boards:
        cells = []
        for depth in depths:
            kernel = find(rows, board, depth, "center")
            cells.append("-" if kernel is None else f"{kernel['seconds'] * 1000:.3g} ({kernel['nodes']:,})")
        cut_rows.append([board, seed_name(board), *cells])
    cut_table = markdown_table(
        ["board (cols x rows)", "seed 001 says", *[f"cut-off {d}: CPU ms (nodes)" for d in depths]],
        cut_rows,
        right=[False, False] + [True] * len(depths),
    )
    table = (
        f"{end_table}\n\nFrom the empty board to the end of the game (`>`: stopped at the node limit, "
        f"the time a lower bound). With a cut-off, seed 000's evaluation (mode 1), centre first:\n\n{cut_table}"
    )
    _chart(rows, out / "empty_boards.png")
    return Findings(table, ["empty_boards.png"], _headline(rows), _seed_figures(), _reading(rows))


def _headline(rows: list[Row]) -> str:
    finished = [r for r in rows if r["depth"] == 0 and r["engine"] == "numba" and r["finished"]]
    stopped = [r for r in rows if r["depth"] == 0 and r["engine"] == "numba" and not r["finished"]]
    if not finished:
        return "no search to the end finished within its node limit"
    largest = max(finished, key=lambda r: (r["cols"] * r["rows"], -r["seconds"]))
    text = (
        f'plain alpha-beta solves the empty {largest["board"]} (seed 001\'s "{seed_name(largest["board"])}") in '
        f"{largest['seconds']:.3g} s of CPU ({largest['nodes']:,} nodes, {ORDER_NAMES[largest['order']]})"
    )
    if stopped:
        boards = sorted({r["board"] for r in stopped}, key=lambda b: tuple(map(int, b.split("x")))[::-1])
        text += f"; on {', '.join(boards)} it stops unfinished at {stopped[0]['nodes']:,} nodes"
    return text


def _reading(rows: list[Row]) -> str:
    sentences = []
    six = [r for r in rows if r["depth"] == 0 and r["rows"] == 6 and r["engine"] == "numba"]
    if six:
        done = [r for r in six if r["finished"]]
        stopped = sorted({r["cols"] for r in six if not r["finished"]})
        parts = [f"{r['nodes']:,} nodes ({r['seconds']:.3g} s) {ORDER_WAYS[r['order']]}" for r in done]
        sentences.append(
            "On boards of 6 rows, the seed's, plain alpha-beta from the empty board finishes "
            + (
                f"only on {', '.join(sorted({r['board'] for r in done}))}: {'; '.join(parts)}"
                if done
                else "on none of them"
            )
        )
        if stopped:
            unfinished = [r for r in six if not r["finished"]]
            sentences[-1] += (
                f"; with {', '.join(str(c) for c in stopped)} columns it stops unfinished at "
                f"{max(r['nodes'] for r in unfinished):,} nodes ({min(r['seconds'] for r in unfinished):.2g} to "
                f'{max(r["seconds"] for r in unfinished):.2g} s): seed 001\'s "substantial amount of time".'
            )
        else:
            sentences[-1] += "."
    python = [r for r in rows if r["engine"] == "python" and r["seconds"]]
    tall, low = find(rows, "4x6", 0, "natural"), find(rows, "4x4", 0, "natural")
    if python and tall and tall["finished"]:
        speed = sum(r["nodes"] for r in python) / sum(r["seconds"] for r in python)
        sentences.append(
            f"Our plain-Python reference visits {speed:,.0f} nodes a second (over the searches it ran), so the "
            f"{tall['nodes']:,} nodes of 4x6 in natural order would take it about {tall['nodes'] / speed:,.0f} s, "
            f'where seed 001 reports about {SEED_001_SECONDS:g} s for its "6x4"'
            + (
                f"; its code sets HEIGHT = 4, and on 4 rows the same search needs {low['nodes']:,} nodes "
                f"({low['nodes'] / speed:.1f} s at that speed)."
                if low and low["finished"]
                else "."
            )
        )
    order_sentence = _order_sentence(rows)
    if order_sentence:
        sentences.append(order_sentence)
    cut = [r for r in rows if r["depth"] > 0 and r["engine"] == "numba"]
    if cut:
        deepest = max(r["depth"] for r in cut)
        mine = sorted((r for r in cut if r["depth"] == deepest), key=lambda r: r["cols"])
        sentences.append(
            f"With a cut-off the first move stays cheap: at depth {deepest} it takes {mine[0]['seconds'] * 1000:.3g} "
            f"ms on {mine[0]['board']} and {mine[-1]['seconds'] * 1000:.3g} ms on {mine[-1]['board']} "
            f"({mine[0]['nodes']:,} and {mine[-1]['nodes']:,} nodes): a cut-off search looks the same number "
            "of plies ahead on any board, and a column more only widens each ply."
        )
    return " ".join(sentences)


def _order_sentence(rows: list[Row]) -> str:
    """Where both orders finished, which searched fewer nodes."""
    better: list[str] = []
    worse: list[str] = []
    for board in dict.fromkeys(r["board"] for r in rows if r["depth"] == 0):
        natural, centre = find(rows, board, 0, "natural"), find(rows, board, 0, "center")
        if natural and centre and natural["finished"] and centre["finished"]:
            (better if centre["nodes"] < natural["nodes"] else worse).append(
                f"{board} ({centre['nodes']:,} against {natural['nodes']:,})"
            )
    if not better and not worse:
        return ""
    parts = []
    if better:
        parts.append(f"fewer nodes than natural order on {', '.join(better)}")
    if worse:
        parts.append(f"as many or more on {', '.join(worse)}")
    return f"Where both orders finish, centre first searches {' and '.join(parts)}."


def _seed_figures() -> str:
    return markdown_table(
        ["source", "board (rows x cols, as the seed writes it)", "search", "time per move"],
        [
            ["seed 001", "6x7", "alpha-beta, no move ordering", '"a substantial amount of time"'],
            [
                "seed 001",
                "6x4",
                "alpha-beta, no move ordering",
                f'"about a second and a half" ({SEED_001_SECONDS:g} s)',
            ],
            ["seed 001", "any, with a cut-off", "heuristic alpha-beta", "asked, left empty"],
        ],
        right=[False, False, False, False],
    )


def _chart(rows: list[Row], path: Path) -> None:
    figure, (end_axis, cut_axis) = charts.new_figure(13, 5.5, columns=2)
    series = [
        (height, order)
        for height in sorted({r["rows"] for r in rows if r["depth"] == 0}, reverse=True)
        for order in ORDERS
    ]
    for index, (height, order) in enumerate(series):
        mine = sorted(
            (
                r
                for r in rows
                if r["depth"] == 0 and r["rows"] == height and r["order"] == order and r["engine"] == "numba"
            ),
            key=lambda r: r["cols"],
        )
        shift = (index - (len(series) - 1) / 2) * 0.06  # side by side where several stop at the same limit
        done = [r for r in mine if r["finished"]]
        stopped = [r for r in mine if not r["finished"]]
        colour = f"C{index}"
        end_axis.plot(
            [r["cols"] + shift for r in done],
            [r["seconds"] for r in done],
            "-o",
            color=colour,
            label=f"{height} rows, {ORDER_NAMES[order]}",
        )
        end_axis.plot(
            [r["cols"] + shift for r in stopped],
            [r["seconds"] for r in stopped],
            "^",
            color=colour,
            markerfacecolor="none",
            markersize=9,
        )
    caps = {r["nodes"] for r in rows if r["depth"] == 0 and r["engine"] == "numba" and not r["finished"]}
    if caps:
        label = f"stopped unfinished at {max(caps):,} nodes: at least this long"
        end_axis.plot([], [], "^", color="grey", markerfacecolor="none", markersize=9, label=label)
    end_axis.plot([4], [SEED_001_SECONDS], "kx", markersize=10, label='seed 001, "6x4", its Python, no ordering')
    end_axis.set_yscale("log")
    end_axis.set_xticks(sorted({r["cols"] for r in rows if r["depth"] == 0}))
    charts.decorate(
        end_axis, "columns", "CPU seconds for the first move (log scale)", "To the end of the game (numba kernel)"
    )
    end_axis.legend(fontsize=8, loc="lower right")
    for index, depth in enumerate(sorted({r["depth"] for r in rows if r["depth"] > 0})):
        mine = sorted((r for r in rows if r["depth"] == depth and r["engine"] == "numba"), key=lambda r: r["cols"])
        cut_axis.plot(
            [r["cols"] for r in mine],
            [r["seconds"] * 1000 for r in mine],
            "-o",
            color=f"C{index}",
            label=f"depth {depth}",
        )
    cut_axis.set_yscale("log")
    cut_axis.set_xticks(sorted({r["cols"] for r in rows if r["depth"] > 0}))
    charts.decorate(
        cut_axis,
        f"columns ({CUTOFF_ROWS} rows)",
        "CPU milliseconds for the first move (log scale)",
        "Cut off, seed 000's evaluation, centre first",
    )
    cut_axis.legend(title="cut-off", fontsize=8)
    figure.suptitle("Seed 001: how long the first move on an empty board takes, adding columns")
    charts.save(figure, path)


STUDY = Study(
    name="empty-boards",
    summary="seed 001's timing: the first move on empty boards of 4 to 9 columns, to the end and cut off",
    seeds="001",
    tasks=tasks,
    summarize=summarize,
    charts=("empty_boards.png",),
    question='"How long does it take to make a move? Start with a smaller board with 4 columns and make the board '
    'larger by adding columns." (Task 3 for alpha-beta, and again in Task 4 for the search with a cut-off)',
)
