"""Study ``seed-boards`` (seeds 000, 001, 003, 004): every hand-made test board of the seeds, as written.

The seeds test their agents on boards they draw by hand ("does the agent spot
the win?"). :mod:`engine.grade.seed_boards` keeps each of them in its
seed's own encoding; here each is read by :func:`read_leniently`, which also
takes what the engine's readers refuse on purpose: boards whose disc counts no
game can reach (the side asked to move has a disc more than the other). Such a
board is refused by :func:`engine.formats.from_array`,
:func:`~engine.formats.parse_grid` and :meth:`Board.from_stones
<engine.board.Board.from_stones>`; the table says why, and the agents are asked
about it anyway: a search only needs the stones of the side to move and of the
other side. Seed 001's arrays of ``'x'`` and ``'o'`` characters go through the
engine's readers as they are (as 1 and -1).

The right answers come from the rules, not from the seeds: the columns that win
at once for the side to move, else the one column that stops an immediate win
of the opponent (:func:`tactics`), and, where the solver finishes within its
limit, the columns of best exact score. Each agent the seeds discuss, and each
preset of the game, then moves on every board (several runs with different
seeds: most agents pick at random among equally good moves).

Seed 000's three boards for its evaluation function are also scored with its
weight modes, as the search agents' ``mode=`` key gives them, and without the
cap the kernels put on their sum (see :data:`engine.kernels.evaluation.SEED000_CAP`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.agents.classroom import board_for_player
from engine.agents.registry import create_agent
from engine.board import Board, has_line
from engine.errors import PositionError
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.formats import CHARACTERS, from_array, parse_grid
from engine.geometry import Geometry
from engine.grade.seed_boards import BOARDS, SeedBoard
from engine.limits import Limits
from engine.notation import format_moves
from engine.tasks import Row, derive_seed

#: The agents the seeds use on their boards: (name in the table, spec, seeds).
SEED_AGENTS = (
    ("random", "random", "000, 001, 003, 004"),
    ("alpha-beta to the end", "alphabeta:depth=81,eval=zero,nodes=1000000", "000, 001"),
    ("cut-off alpha-beta", "alphabeta:depth=5,eval=seed000,mode=1", "000"),
    ("pure Monte Carlo", "montecarlo:playouts=1000", "000"),
    ("minMax", "minimax:depth=2,eval=seed003", "003"),
    ("A*", "astar", "004"),
    ("minimax", "minimax:depth=5,eval=seed004", "004"),
    ("MCTS", "mcts:iterations=10000", "004"),
)
#: The game's presets (``beginner`` is ``random``, above).
PRESETS = ("novice", "easy", "medium", "hard", "expert", "perfect")
QUICK_AGENTS = (
    ("random", "random", "000, 001, 003, 004"),
    ("cut-off alpha-beta", "alphabeta:depth=5,eval=seed000,mode=1", "000"),
    ("A*", "astar", "004"),
)
QUICK_PRESETS = ("easy",)
#: The solver's limit per board for the "best exact" columns (boards it cannot finish show "-").
SOLVE_SECONDS, QUICK_SOLVE_SECONDS = 10.0, 1.0
#: Solved only where the empty cells are this few (or the board is small): the others cannot finish.
SOLVE_EMPTY_CELLS = 30
#: Seed 000's ``heuristic_evaluation`` weights (In [219]): windows of three, two and one of the
#: player's discs, by ``heur_id``; a win is its utility 1.
SEED_000_WEIGHTS = {1: (0.9, 0.6, 0.3), 2: (0.6, 0.4, 0.2), 3: (30, 20, 10)}
#: Seed 000's printed ``heuristic_evaluation(board, 1)`` of its three evaluation boards (mode 1).
SEED_000_EVALUATIONS = {"5x4 eval a": 0.9, "5x4 eval b": 0.9, "5x4 eval c": -0.9}


# -- reading the boards, leniently -------------------------------------------------------------
@dataclass(frozen=True)
class SeedPosition:
    """A seed's board as stones: the side asked to move and the other side."""

    source: SeedBoard
    geometry: Geometry
    mover: int  # stones of the side asked to move
    opponent: int
    mover_is_x: bool  # whether the side asked to move is the seed's 1, 'x' or X (else -1, 'o', O)
    problem: str | None  # why the engine's strict readers refuse the board (None: they take it)

    @property
    def stones(self) -> int:
        return (self.mover | self.opponent).bit_count()

    @property
    def over(self) -> str | None:
        """Why no move can be asked here (a line already made, a full board), or None."""
        if has_line(self.mover, self.geometry) or has_line(self.opponent, self.geometry):
            who = "the side to move" if has_line(self.mover, self.geometry) else "the side that just moved"
            return f"{who} already has a line"
        if self.mover | self.opponent == self.geometry.board_mask:
            return "the board is full"
        return None

    def board(self) -> Board:
        """The position as a :class:`Board` for the agents: the strict one where the engine's readers
        take it, else :func:`unchecked_board`."""
        strict = _strict_board(self)
        return strict if strict is not None else unchecked_board(self.geometry, self.mover, self.opponent)


def unchecked_board(geometry: Geometry, mover: int, opponent: int) -> Board:
    """A :class:`Board` with ``mover`` to move, built WITHOUT :meth:`Board.from_stones`'s checks.

    For this study only: it lets the agents answer a seed's board that no game
    reaches (the side asked to move has a disc too many). Its ``turn`` follows
    the number of stones, as always, so it may name the wrong colour; the
    searches only read the stones of the side to move and of the other side.
    The stones must not float and neither side may have a line (the caller checks).
    """
    board = Board(geometry)
    board._mask = mover | opponent
    board._current = mover
    board._root_ply = board._mask.bit_count()
    board._root_known = False
    return board


def read_leniently(source: SeedBoard) -> SeedPosition:
    """Read a seed's board as it is written (see the module docstring): every encoding of
    :mod:`engine.grade.seed_boards`, impossible disc counts included.

    Raises :class:`PositionError` only for what no reading can fix: floating discs,
    an unknown symbol, a move into a full column.
    """
    if source.encoding == "moves":
        cells = _drop(source.data)  # type: ignore[arg-type]
    elif source.encoding == "grid":
        cells = _grid_cells(str(source.data))
    else:
        cells = _array_cells(source)
    rows, cols = len(cells), len(cells[0])
    geometry = Geometry(cols, rows)
    first = second = 0
    for top_index, line in enumerate(cells):
        for col, value in enumerate(line):
            bit = geometry.cell(col, rows - 1 - top_index)
            first |= bit if value == 1 else 0
            second |= bit if value == 2 else 0
    _check_gravity(geometry, first | second)
    if source.player is None:  # whoever has fewer discs, X when even (seeds 003 and 004)
        mover_is_x = first.bit_count() <= second.bit_count()
    else:
        mover_is_x = source.player in (1, "x")
    mover, opponent = (first, second) if mover_is_x else (second, first)
    position = SeedPosition(source, geometry, mover, opponent, mover_is_x, None)
    return SeedPosition(source, geometry, mover, opponent, mover_is_x, _strict_problem(position))


def _array_cells(source: SeedBoard) -> list[list[int]]:
    """Cells as 1 (the seed's first player), 2 (the second) and 0, from an array as the seed writes it."""
    encodings: dict[str, dict[object, int]] = {
        "signed": {1: 1, -1: 2, 0: 0},
        "xo": {"x": 1, "o": 2, " ": 0},
        "012": {1: 1, 2: 2, 0: 0},
    }
    values = encodings[source.encoding]
    grid = [list(row) for row in source.data]  # type: ignore[attr-defined]
    if len({len(row) for row in grid}) != 1:
        raise PositionError(f"{source.label}: rows of different lengths")
    try:
        return [[values[cell] for cell in row] for row in grid]
    except KeyError as exc:
        raise PositionError(
            f"{source.label}: {exc.args[0]!r} is not a cell of the {source.encoding} encoding"
        ) from None


def _grid_cells(text: str) -> list[list[int]]:
    symbols = {"-": 0, ".": 0, "X": 1, "x": 1, "O": 2, "o": 2, "0": 2}
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        out.append([symbols[char] for char in line if char not in " |\t"])
    return out


def _drop(moves: list[int], cols: int = 8, rows: int = 8) -> list[list[int]]:
    """Seed 003's ``makeExample``: X then O in turn, dropped by gravity, on and on (no stop at a win)."""
    cells = [[0] * cols for _ in range(rows)]
    for index, col in enumerate(moves):
        row = max((r for r in range(rows) if cells[r][col] == 0), default=None)
        if row is None:
            raise PositionError(f"move {index + 1}: column {col} is full")
        cells[row][col] = 1 if index % 2 == 0 else 2
    return cells


def _check_gravity(geometry: Geometry, mask: int) -> None:
    for col in range(geometry.cols):
        column = (mask >> (col * geometry.height)) & ((1 << geometry.rows) - 1)
        if column & (column + 1):
            raise PositionError(f"column {col + 1}: a disc floats above an empty cell")


def _strict_problem(position: SeedPosition) -> str | None:
    """Why the engine's own readers refuse the board, as they say it (None: they take it)."""
    try:
        _strict_board(position, check=True)
    except PositionError as exc:
        return str(exc)
    return None


def _strict_board(position: SeedPosition, check: bool = False) -> Board | None:
    """The board through the engine's strict readers, with the seed's side to move; None if refused
    (``check``: raise their :class:`PositionError` instead)."""
    source = position.source
    try:
        if source.encoding == "moves":
            board = Board.from_moves(format_moves(source.data), position.geometry)  # type: ignore[arg-type]
        elif source.encoding == "grid":
            board = parse_grid(str(source.data))
        elif source.encoding == "012":
            board = from_array(np.array(source.data), encoding="012")
        elif source.encoding == "xo":  # the readers take seed 001's characters as they are
            board = board_for_player(np.array(source.data), player="x" if position.mover_is_x else "o")
        else:
            signed = _array_cells(source)
            grid = np.array([[{0: 0, 1: 1, 2: -1}[v] for v in row] for row in signed])
            player = 1 if position.mover_is_x else -1
            board = board_for_player(grid, player=player, encoding="signed")
    except PositionError:
        if check:
            raise
        return None
    if board.current != position.mover and not board.is_over:
        if check:
            raise PositionError("the engine's readers give the move to the other side")
        return None
    return board


# -- what the rules say ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Tactics:
    """The immediate tactics of a position (0-based columns)."""

    wins: tuple[int, ...]  # the side to move completes a line there
    threats: tuple[int, ...]  # the opponent would complete a line there if it moved next

    @property
    def blocks(self) -> tuple[int, ...]:
        """The one column that stops the opponent's only immediate win (empty if none, or if two)."""
        return self.threats if len(self.threats) == 1 else ()

    def answer(self) -> str:
        if self.wins:
            return "win " + "/".join(str(c + 1) for c in self.wins)
        if len(self.threats) == 1:
            return f"block {self.threats[0] + 1}"
        if self.threats:
            return "lost (threats " + "/".join(str(c + 1) for c in self.threats) + ")"
        return "no win or threat"


def tactics(geometry: Geometry, mover: int, opponent: int) -> Tactics:
    """Wins in one for ``mover``, and the opponent's wins in one, from the rules alone."""
    mask = mover | opponent
    legal = [c for c in range(geometry.cols) if not mask & geometry.top_cell(c)]

    def landing(col: int) -> int:  # mask + the bottom cell carries up to the first empty cell
        return (mask + geometry.bottom_cell(col)) & geometry.column_mask(col)

    wins = tuple(c for c in legal if has_line(mover | landing(c), geometry))
    threats = tuple(c for c in legal if has_line(opponent | landing(c), geometry))
    return Tactics(wins, threats)


# -- tasks -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BoardFacts:
    """Every board read leniently, with the answers of the rules and of the solver."""

    seconds: float

    @property
    def key(self) -> str:
        return f"facts|{self.seconds}"

    def run(self) -> list[Row]:
        from engine.solver.book import load_default
        from engine.solver.solver import Solver

        rows = []
        for source in BOARDS:
            position = read_leniently(source)
            g = position.geometry
            found = tactics(g, position.mover, position.opponent)
            row: Row = {
                "kind": "board",
                "board": source.label,
                "seed": source.seed,
                "purpose": source.purpose,
                "size": f"{g.cols}x{g.rows}",
                "mover": _symbol(source, position.mover_is_x),
                "mover_discs": position.mover.bit_count(),
                "opponent_discs": position.opponent.bit_count(),
                "problem": position.problem or "",
                "over": position.over or "",
                "wins": _cols(found.wins),
                "threats": _cols(found.threats),
                "answer": found.answer() if not position.over else "game over",
                "best": "",
                "solved": False,
                "solve_seconds": self.seconds,
            }
            if not position.over and (g.cells - position.stones <= SOLVE_EMPTY_CELLS or g.cells <= 42):
                solver = Solver(g, 64, book=load_default(g) if g.cells <= 42 else None)
                analysis = solver.analyze(position.board(), Limits(seconds=self.seconds))
                if analysis.finished:
                    known = [s.value for s in analysis.scores if s is not None]
                    top = max(known)
                    best = [c for c, s in enumerate(analysis.scores) if s is not None and s.value == top]
                    row.update(best=_cols(best), solved=True, best_score=int(top))
            row.update(_seed000_modes(source, position))
            rows.append(row)
        return rows


def _symbol(source: SeedBoard, is_x: bool) -> str:
    """The seed's own name for a side: 1 / -1, 'x' / 'o', X / O."""
    names = {"signed": ("1", "-1"), "xo": ("'x'", "'o'")}.get(source.encoding, ("X", "O"))
    return names[0] if is_x else names[1]


def _cols(columns) -> str:
    """0-based columns as the 1-based list the rows keep, e.g. ``"3 4"``."""
    return " ".join(str(c + 1) for c in columns)


def _seed000_modes(source: SeedBoard, position: SeedPosition) -> Row:
    """Seed 000's evaluation of its evaluation boards in its three weight modes, in units of a line
    (its utility of a win, 1): as the kernels return them (capped) and without the cap."""
    if source.seed != "000" or source.purpose != "evaluation":
        return {}
    from engine.kernels.evaluation import LINE_VALUE, SEED000_UNIT, evaluate, evaluation_id, open_windows

    g = position.geometry
    current, mask = g.to_kernel(position.mover), g.to_kernel(position.mover | position.opponent)
    (lines, m1, m2, m3), (their_lines, t1, t2, t3) = open_windows(current, mask, g.kernel)
    out: Row = {}
    for mode, unit in enumerate(SEED000_UNIT, start=1):
        capped = int(evaluate(current, mask, g.kernel, evaluation_id(f"seed000/{mode}")))
        uncapped = LINE_VALUE * (lines - their_lines) + unit * (3 * (m1 - t1) + 2 * (m2 - t2) + (m3 - t3))
        out[f"mode{mode}"] = capped / LINE_VALUE
        out[f"mode{mode}_uncapped"] = uncapped / LINE_VALUE
    return out


@dataclass(frozen=True)
class AgentRun:
    """One agent's move on every board that is not over (one run, one seed)."""

    name: str
    spec: str
    run_index: int
    seed: int

    @property
    def key(self) -> str:
        return f"{self.spec}|{self.run_index}|{self.seed}"

    def run(self) -> list[Row]:
        agent = create_agent(self.spec, seed=self.seed)
        rows = []
        try:
            for index, source in enumerate(BOARDS):
                position = read_leniently(source)
                if position.over:
                    continue
                agent.new_game(derive_seed(self.seed, index))
                result = agent.choose(position.board())
                rows.append(
                    {
                        "kind": "move",
                        "agent": self.name,
                        "spec": self.spec,
                        "run": self.run_index,
                        "board": source.label,
                        "column": result.column + 1,
                        "time_ms": round(result.seconds * 1000.0, 3),
                    }
                )
        finally:
            agent.close()
        return rows


def _agents(settings: Settings) -> list[tuple[str, str, str]]:
    seeds, presets = (QUICK_AGENTS, QUICK_PRESETS) if settings.quick else (SEED_AGENTS, PRESETS)
    return [*seeds, *[(name, name, "preset") for name in presets]]


def tasks(settings: Settings) -> list:
    runs = settings.count(3, 2)
    out: list = [BoardFacts(QUICK_SOLVE_SECONDS if settings.quick else SOLVE_SECONDS)]
    for index, (name, spec, _) in enumerate(_agents(settings)):
        for k in range(runs):
            out.append(AgentRun(name, spec, k, derive_seed(settings.seed, index, k)))
    return out


# -- summary -------------------------------------------------------------------------------------
def _columns(text: object) -> set[int]:
    return {int(c) for c in str(text or "").split()}


def _verdict(facts: Row, column: int) -> str:
    """``win``/``miss`` where a win was there, ``block``/``miss`` where one column stops a loss, else ""."""
    wins, threats = _columns(facts["wins"]), _columns(facts["threats"])
    if wins:
        return "win" if column in wins else "miss"
    if len(threats) == 1:
        return "block" if column in threats else "miss"
    return ""


def _cell(facts: Row, mine: list[Row]) -> str:
    """The columns an agent chose on a board over its runs, with ✓ or ✗ where the rules give an answer."""
    chosen = Counter(r["column"] for r in mine)
    columns = "/".join(str(c) for c in sorted(chosen))
    marks = [_verdict(facts, r["column"]) for r in mine]
    if not marks or not marks[0]:
        return columns
    good = sum(mark != "miss" for mark in marks)
    if good == len(marks):
        return f"{columns} ✓"
    if good == 0:
        return f"{columns} ✗"
    return f"{columns} ({good} of {len(marks)} ✓)"


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    facts = {r["board"]: r for r in rows if r["kind"] == "board"}
    moves = [r for r in rows if r["kind"] == "move"]
    agents = list(dict.fromkeys(r["agent"] for r in moves))
    boards = [label for label in facts if not facts[label]["over"]]
    table_rows = []
    for label in boards:
        f = facts[label]
        cells = [_cell(f, [r for r in moves if r["board"] == label and r["agent"] == name]) for name in agents]
        table_rows.append([label, f["answer"], f["best"] or "-", *cells])
    table = (
        "Each agent's column on each board (1-based; several when its runs differ). ✓: it took the win, or "
        "made the one block, the rules call for; ✗: it did not; '(k of n ✓)' where runs differ; no mark where "
        "there is neither a win in one nor a single threat to stop. 'rules' and 'solver's best' are worked "
        "out by the engine, not taken from the seeds.\n\n"
        + markdown_table(["board", "rules", "solver's best", *agents], table_rows, right=[False] * (3 + len(agents)))
    )
    extra = [
        "### The boards as the seeds write them\n\n" + _boards_table(facts),
        "### The agents\n\n" + _agents_table(facts, moves, settings),
    ]
    evaluation = _evaluation_table(facts)
    if evaluation:
        extra.append("### Seed 000's evaluation boards in its three weight modes\n\n" + evaluation)
    _chart(facts, moves, agents, out / "seed_boards.png")
    scores = _scores(facts, moves, agents)
    perfect = [name for name in agents if scores[name][1] and scores[name][0] == scores[name][1]]
    total_tests = max((n for _, n in scores.values()), default=0)
    headline = (
        f"on the {len(boards)} seed boards where a move can be asked ({_impossible(facts)} of them "
        f"no game reaches), {len(perfect)} of {len(agents)} agents take every win in one and make every "
        f"forced block in all their runs ({total_tests} tests an agent)"
    )
    seed_figures = (
        "The seeds print one move per board and agent (their code, their boards): "
        + "; ".join(
            f"seed {seed}: {n} board{'s' if n != 1 else ''}"
            for seed, n in sorted(Counter(f["seed"] for f in facts.values()).items())
        )
        + ". What each printed or claimed is in the table of the boards above, quoted. Seed 002 has no board."
    )
    reading = " ".join(
        part
        for part in (
            _problems_sentence(facts),
            _tactics_sentence(facts),
            _agents_sentence(scores, agents),
            _seed_claims_sentence(facts, moves),
            _modes_sentence(facts),
        )
        if part
    )
    return Findings(table, ["seed_boards.png"], headline, seed_figures, reading, extra)


def _impossible(facts: dict[str, Row]) -> int:
    """Boards with a move to make whose disc counts no game reaches."""
    return sum(1 for f in facts.values() if "disc" in f["problem"] and not f["over"])


def _to_move(f: Row) -> str:
    return f"{f['mover']} ({f['mover_discs']} discs against {f['opponent_discs']})"


def _boards_table(facts: dict[str, Row]) -> str:
    says = {b.label: (b.where, b.purpose, b.seed_says) for b in BOARDS}
    rows = []
    for label, f in facts.items():
        where, purpose, claim = says[label]
        status = f["over"] or f["problem"] or "legal position"
        rows.append([label, f["size"], where, purpose, _to_move(f), status, f["answer"], claim])
    return markdown_table(
        ["board", "size", "seed's cells", "seed tests", "side asked to move", "as a game", "rules", "seed says"],
        rows,
        right=[False] * 8,
    )


def _scores(facts: dict[str, Row], moves: list[Row], agents: list[str]) -> dict[str, tuple[int, int]]:
    """Per agent: (runs that took the win or made the block, runs where the rules called for one)."""
    out = {}
    for name in agents:
        marks = [_verdict(facts[r["board"]], r["column"]) for r in moves if r["agent"] == name]
        tested = [m for m in marks if m]
        out[name] = (sum(m != "miss" for m in tested), len(tested))
    return out


def _agents_table(facts: dict[str, Row], moves: list[Row], settings: Settings) -> str:
    specs = {name: (spec, seeds) for name, spec, seeds in _agents(settings)}
    rows = []
    for name in dict.fromkeys(r["agent"] for r in moves):
        mine = [r for r in moves if r["agent"] == name]
        wins = [_verdict(facts[r["board"]], r["column"]) for r in mine if _columns(facts[r["board"]]["wins"])]
        blocks = [
            _verdict(facts[r["board"]], r["column"])
            for r in mine
            if not _columns(facts[r["board"]]["wins"]) and len(_columns(facts[r["board"]]["threats"])) == 1
        ]
        solved = [r for r in mine if facts[r["board"]]["solved"]]
        best = sum(r["column"] in _columns(facts[r["board"]]["best"]) for r in solved)
        spec, seeds = specs.get(name, (mine[0]["spec"], "-"))
        rows.append(
            [
                name,
                f"`{spec}`",
                seeds,
                len({r["run"] for r in mine}),
                f"{sum(v == 'win' for v in wins)}/{len(wins)}",
                f"{sum(v == 'block' for v in blocks)}/{len(blocks)}",
                f"{best}/{len(solved)}",
                round(float(np.mean([r["time_ms"] for r in mine])), 1),
            ]
        )
    return markdown_table(
        ["agent", "spec", "seeds", "runs", "wins taken", "blocks made", "solver's best played", "ms per move"],
        rows,
        right=[False, False, False, True, True, True, True, True],
    )


def _evaluation_table(facts: dict[str, Row]) -> str:
    rows = []
    for label, f in facts.items():
        if "mode1" not in f:
            continue
        seed_value = SEED_000_EVALUATIONS.get(label.split(" ", 1)[1])
        rows.append(
            [
                label,
                "-" if seed_value is None else f"{seed_value:+.1f}",
                f"{f['mode1']:+.2f}",
                f"{f['mode2']:+.2f}",
                f"{f['mode3']:+.2f}",
                f"{f['mode3_uncapped']:+.2f}",
            ]
        )
    if not rows:
        return ""
    return (
        "From the side asked to move (the seed's player 1), in units of a line (the seed's utility of a "
        "win, 1). The seed's function stops at the first window of three it finds; the kernels sum every "
        "window, and keep the sum within the cap.\n\n"
        + markdown_table(
            ["board", "seed printed (mode 1)", "mode 1", "mode 2", "mode 3 (capped)", "mode 3 without the cap"],
            rows,
            right=[False, True, True, True, True, True],
        )
    )


def _problems_sentence(facts: dict[str, Row]) -> str:
    impossible = [label for label, f in facts.items() if "disc" in f["problem"]]
    characters = [board.label for board in BOARDS if board.encoding == "xo" and board.label in facts]
    over = [label for label, f in facts.items() if f["over"]]
    parts = [f"Of the {len(facts)} boards, {len(impossible)} have disc counts no game reaches"]
    if impossible:
        parts[0] += f" ({', '.join(impossible)})"
    if over:
        parts.append(f"{len(over)} already hold a line or are full ({', '.join(over)}), so no move is asked there")
    written = (
        f" {len(characters)} are written in characters ({', '.join(characters)}), which the engine's readers take "
        f"as {CHARACTERS['x']} and {CHARACTERS['o']}."
        if characters
        else ""
    )
    return (
        "; ".join(parts) + ". The engine's readers refuse boards no game reaches; this study reads them leniently "
        "(the table of the boards gives each refusal) and asks the agents anyway." + written
    )


def _tactics_sentence(facts: dict[str, Row]) -> str:
    live = [f for f in facts.values() if not f["over"]]
    wins = [f for f in live if f["wins"]]
    blocks = [f for f in live if not f["wins"] and len(_columns(f["threats"])) == 1]
    lost = [f for f in live if not f["wins"] and len(_columns(f["threats"])) > 1]
    solved = [f for f in live if f["solved"]]
    return (
        f"By the rules, {len(wins)} of the {len(live)} boards with a move to make offer a win in one, {len(blocks)} "
        f"call for one block, and {len(lost)} are lost to two threats at once; the solver finished "
        f"{len(solved)} of them within {live[0]['solve_seconds']:g} s each."
    )


def _agents_sentence(scores: dict[str, tuple[int, int]], agents: list[str]) -> str:
    perfect = [name for name in agents if scores[name][1] and scores[name][0] == scores[name][1]]
    others = [
        f"{name} {good}/{tested} ({good / tested:.0%})"
        for name in agents
        if name not in perfect and (tested := scores[name][1])
        for good in [scores[name][0]]
    ]
    if not agents:
        return ""
    return f"Counting every run, {', '.join(perfect) or 'no agent'} took every win and made every block; " + (
        f"the others: {', '.join(others)}." if others else "every agent did."
    )


def _seed_claims_sentence(facts: dict[str, Row], moves: list[Row]) -> str:
    """Where a seed's agent (or its text) chose a column the rules do not call for, and what ours did."""
    parts = []
    for source in BOARDS:
        f = facts.get(source.label)
        if f is None or f["over"]:
            continue
        right = _columns(f["wins"]) or (_columns(f["threats"]) if len(_columns(f["threats"])) == 1 else set())
        if not right:
            continue
        kind = "win" if f["wins"] else "block"
        ours = [r for r in moves if r["board"] == source.label]
        missed = list(dict.fromkeys(r["agent"] for r in ours if r["column"] not in right))
        ours_said = f"of ours, {', '.join(missed)} missed it in some run" if missed else "all of ours made it"
        for agent, column in source.seed_moves:
            if column + 1 not in right:
                parts.append(
                    f"on {source.label} the seed's {agent} chose column {column + 1} where the rules call for the "
                    f"{kind} in {' or '.join(map(str, sorted(right)))} ({ours_said})"
                )
    if not parts:
        return "Wherever the seeds name a column on a board with a win or a forced block, it is the right one."
    return "Counting columns from 1: " + "; ".join(parts) + "."


def _modes_sentence(facts: dict[str, Row]) -> str:
    from engine.kernels.evaluation import LINE_VALUE, SEED000_CAP

    evaluated = {label: f for label, f in facts.items() if "mode3" in f}
    if not evaluated:
        return ""
    weights = SEED_000_WEIGHTS[3]
    cap = SEED000_CAP / LINE_VALUE
    groups: dict[float, list[str]] = {}
    for label, f in evaluated.items():
        groups.setdefault(f["mode3"], []).append(label)
    merged = []
    for value, labels in groups.items():
        if len(labels) > 1:
            without = ", ".join(f"{evaluated[label]['mode3_uncapped']:+.0f}" for label in labels)
            merged.append(f"{' and '.join(labels)} ({without} without it) all read {value:+.0f}")
    uncapped = ", ".join(f"{f['mode3_uncapped']:+.0f}" for f in evaluated.values())
    return (
        f"Seed 000's weight mode 3 ({'/'.join(map(str, weights))} for windows of three, two and one, a win "
        f"being worth 1) scores its {len(evaluated)} evaluation boards {uncapped} lines without a cap; the "
        f"kernels keep every sum within ±{cap:.0f} lines so that no evaluation outweighs a found win, and under "
        f"that cap {'; '.join(merged) if merged else 'each board still reads differently'}. The seed's own mode "
        f"3 lets a window of three outweigh a made line {weights[0]:.0f} times, so its search would prefer "
        "threats to wins."
    )


def _chart(facts: dict[str, Row], moves: list[Row], agents: list[str], path: Path) -> None:
    """Per agent: the share of runs that took the win in one, and that made the one block, with counts."""
    from engine.experiments import charts

    figure, (axis,) = charts.new_figure(max(8.0, 0.8 * len(agents) + 3), 5.2)
    x = np.arange(len(agents))
    width = 0.38
    for offset, (kind, colour, label) in enumerate(
        (("win", "tab:green", "took the win in one"), ("block", "tab:blue", "made the one block"))
    ):
        shares, counts = [], []
        for name in agents:
            tested = [
                _verdict(facts[r["board"]], r["column"])
                for r in moves
                if r["agent"] == name and _kind(facts[r["board"]]) == kind
            ]
            good = sum(mark == kind for mark in tested)
            shares.append(100.0 * good / len(tested) if tested else math.nan)
            counts.append(f"{good}/{len(tested)}")
        bars = axis.bar(x + (offset - 0.5) * width, shares, width, color=colour, label=label)
        for bar, text, share in zip(bars, counts, shares, strict=True):
            height = 0.0 if math.isnan(share) else share
            axis.annotate(text, (bar.get_x() + bar.get_width() / 2, height + 1), ha="center", va="bottom", fontsize=7)
    axis.set_xticks(x, agents, rotation=30, ha="right", fontsize=8)
    axis.set_ylim(0, 122)
    axis.set_yticks(range(0, 101, 20))
    charts.decorate(
        axis,
        "agent (the seeds' agents, then the game's presets)",
        "runs that did it (%; runs that did it / runs, above the bars)",
        "Seed boards: wins in one taken, forced blocks made",
    )
    axis.legend(fontsize=8, loc="upper center", ncol=2)
    charts.save(figure, path)


def _kind(facts: Row) -> str:
    """What the rules call for on a board: "win", "block" (one threat to stop) or ""."""
    if facts["wins"]:
        return "win"
    return "block" if len(_columns(facts["threats"])) == 1 else ""


STUDY = Study(
    name="seed-boards",
    summary="every test board of the seeds as written: each agent's move, the win or block the rules call for",
    seeds="000, 001, 003, 004",
    tasks=tasks,
    summarize=summarize,
    charts=("seed_boards.png",),
)
