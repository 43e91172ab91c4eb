"""Every figure of a study's reading comes from its rows or from a documented constant.

For each study run with ``--quick`` (the shared ``quick_runs`` fixture), the
candidates below are recomputed here from its ``rows.csv`` (written out again,
not taken from the study's code) and from the constants the study documents
with their source (a seed's published figure, the known 7x6 total). Every
number printed in the "Ours" line and the reading must be one of them at the
precision it is printed with, and each study's key figures are checked one by
one. A mutated reading (a figure typed with a digit too many) must be caught.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

import numpy as np
import pytest

from engine.experiments.study import all_studies
from tests.engine.experiments import readings
from tests.engine.experiments.readings import number, wilson


def _readme(quick_runs, name: str) -> str:
    status, folder = quick_runs[name]
    assert status == 0
    return (folder / "README.md").read_text(encoding="utf-8")


def _shares(values: list[bool]) -> list[float]:
    """A share and its Wilson bounds."""
    k, n = sum(values), len(values)
    return [k / n, *wilson(k, n)] if n else []


# -- the candidates of each study, from its rows ----------------------------------------------------
def _random_games(rows) -> tuple[list[float], list[str]]:
    from engine.experiments import random_games as study

    out = [study.SEED_GAMES, study.SEED_000_FIRST, study.SEED_001_FIRST, study.SEED_001_SECOND, study.SEED_001_DRAWS]
    out += wilson(study.SEED_001_FIRST * study.SEED_GAMES, study.SEED_GAMES)  # seed 001's own interval
    for size in {r["size"] for r in rows}:
        mine = [r for r in rows if r["size"] == size]
        counts = Counter(r["winner"] for r in mine)
        for outcome in ("first", "second", "draw"):
            out += _shares([r["winner"] == outcome for r in mine])
        out.append(100 * (counts["first"] - counts["second"]) / len(mine))  # "worth N points"
        out.append(float(np.mean([int(r["plies"]) for r in mine])))
        out.append(len(mine))
    return out, []


def _state_space(rows) -> tuple[list[float], list[str]]:
    from engine.experiments import state_space as study

    total, colourings = study.KNOWN_7X6_TOTAL, 3.0**42
    out = [total, colourings, 7.0**42, study.SEED_000_ESTIMATE, study.SEED_000_ESTIMATE / total]
    out += [colourings / total, math.log10(colourings / total)]
    for size in {r["size"] for r in rows}:
        mine = [r for r in rows if r["size"] == size]
        cols, height = map(int, size.split("x"))
        positions = [int(r["positions"]) for r in mine]
        out += [sum(positions), int(mine[0]["ply"]), int(mine[-1]["ply"]), cols * height, number(mine[0]["branching"])]
        out.append(int(mine[int(np.argmax(positions))]["ply"]))
    return out, []


def _ordering(rows) -> tuple[list[float], list[str]]:
    from engine.experiments.ordering import SEED_000_BOARDS

    out: list[float] = [4]  # every board has four rows
    for _, _, depth, plain, ordered in SEED_000_BOARDS:
        out += [plain, ordered, depth]

    def mean(cols, order, engine, key):  # over the boards of a width (the added widths have several)
        values = [number(r[key]) for r in rows if (r["cols"], r["order"], r["engine"]) == (cols, order, engine)]
        return sum(values) / len(values) if values and not any(math.isnan(v) for v in values) else None

    for r in rows:
        out += [int(r["cols"]), int(r["depth"])]
    widths = {r["cols"] for r in rows}
    for cols in widths:
        out.append(sum(r["cols"] == cols for r in rows) // 5)  # boards of the width (3 orders in numba, 2 in Python)
        for order in ("natural", "center"):
            python, kernel = mean(cols, order, "python", "seconds"), mean(cols, order, "numba", "seconds")
            if python is not None and kernel is not None and kernel > 0:
                out.append(python / kernel)
        natural = mean(cols, "natural", "numba", "nodes")
        for order in ("center", "heuristic"):
            nodes = mean(cols, order, "numba", "nodes")
            out += [natural / nodes, nodes / natural]  # (fewer, or more where the order did worse)
    return out, []


def _points(rows) -> dict[str, list[float]]:
    """Each agent's points per game (win 1, draw 1/2) in a round robin's rows."""
    points = defaultdict(list)
    for r in rows:
        red = {"red": 1.0, "draw": 0.5, "yellow": 0.0}[r["winner"]]
        points[r["red"]].append(red)
        points[r["yellow"]].append(1.0 - red)
    return points


def _eval_tournament(rows) -> tuple[list[float], list[str]]:
    from engine.experiments.eval_tournament import SEED_EVALS, _fields
    from engine.experiments.study import Settings
    from engine.experiments.tournament import summarize

    agents = {r["red"] for r in rows} | {r["yellow"] for r in rows}
    quick = all(a.startswith(("alphabeta:depth=2,", "alphabeta:depth=4,")) for a in agents)
    seed_field, all_field = _fields(Settings(quick=quick))
    split = len(seed_field) * (len(seed_field) - 1) // 2 * (2 if quick else 10)  # the first round robin's games
    seed_rows, all_rows = rows[:split], rows[split:]
    assert {r["red"] for r in seed_rows} <= set(seed_field) and {r["red"] for r in all_rows} <= set(all_field)
    points = _points(seed_rows)
    share = {agent: float(np.mean(p)) for agent, p in points.items()}
    depths = sorted({int(a.split("depth=")[1].split(",")[0]) for a in seed_field})
    out: list[float] = list(depths)
    for depth in depths:
        out.append(float(np.mean([share[f"alphabeta:depth={depth},eval={e}"] for e in SEED_EVALS])))
    for e in SEED_EVALS:
        out.append(float(np.mean([share[f"alphabeta:depth={d},eval={e}"] for d in depths])))
    out += [s.elo for s in summarize(all_field, all_rows).standings]  # the Bradley-Terry fit of the CSV's games
    return out, []


def _node_limit(rows) -> tuple[list[float], list[str]]:
    out: list[float] = [13.9, 4.0]  # seed 003's trace: 4.0 to 13.9 s a move for up to 10,000 nodes (its table)
    games = [r for r in rows if r["winner"]]
    moves = [r for r in rows if r["agent"]]
    for spec in {r["red"] for r in games}:
        budget = int(spec.split("nodes=")[1])
        mine = [r for r in games if r["red"] == spec]
        score = [1.0 if r["winner"] == "red" else 0.5 if r["winner"] == "draw" else 0.0 for r in mine]
        optimal = [r["optimal"] == "True" for r in moves if r["agent"] == spec]
        out += [budget, float(np.mean(score)), *_shares(optimal)]
    return out, []


def _algorithms(rows) -> tuple[list[float], list[str]]:
    from engine.experiments import algorithms as study
    from engine.experiments.seed_boards import tactics
    from engine.formats import parse_grid

    out: list[float] = [number for match in study.SEED_MATCHES for number in match[2:]]
    out += [col for moves in study.SEED_MOVES.values() for col in moves.values()]
    measures = [r for r in rows if r["algorithm"]]
    for name in {r["algorithm"] for r in measures}:
        mine = [r for r in measures if r["algorithm"] == name]
        for key in ("time_ms", "touched_kb", "reserved_kb"):
            out.append(float(np.mean([number(r[key]) for r in mine])))
    for text in study.STATES.values():
        board = parse_grid(text)
        found = tactics(board.geometry, board.current, board.mask ^ board.current)
        out += [c + 1 for c in found.blocks]
    games = [r for r in rows if r["winner"]]
    astar = [r for r in games if (r["red"], r["yellow"]) == ("random", "astar")]
    wins = sum(r["winner"] == "red" for r in astar)
    seed_games, seed_wins = next((m[2], m[3]) for m in study.SEED_MATCHES if m[:2] == ("random", "A*"))
    out += [wins, len(astar), *wilson(wins, len(astar)), *wilson(seed_wins, seed_games)]
    return out, list(study.STATES)


def _accuracy(rows) -> tuple[list[float], list[str]]:
    out: list[float] = [5, 6]  # seed 000's alpha-beta finds the win on 5 of its 6 boards (its discussion)
    agents = list(dict.fromkeys(r["agent"] for r in rows))
    phases = ("opening", "middle", "end")
    first = [r for r in rows if r["agent"] == agents[0]]
    out.append(len(first))
    out += [sum(r["phase"] == p for r in first) for p in phases]
    by_phase = {}
    for agent in agents:
        mine = [r for r in rows if r["agent"] == agent]
        out.append(float(np.mean([r["optimal"] == "True" for r in mine])))
        by_phase[agent] = [
            float(np.mean([r["optimal"] == "True" for r in mine if r["phase"] == p]))
            if any(r["phase"] == p for r in mine)
            else math.nan
            for p in phases
        ]
    searchers = [a for a in agents if a not in ("random", "beginner", "perfect")]
    out += [float(np.nanmean([by_phase[a][k] for a in searchers])) for k in range(len(phases))]
    return out, []


def _first_move(rows) -> tuple[list[float], list[str]]:
    exact = {int(r["column"]): int(r["exact"]) for r in rows if r["family"] == "exact"}
    moves = [r for r in rows if r["family"] != "exact"]
    out: list[float] = [*exact, *exact.values(), 1]  # 1: "+1: the same order" (a correlation's top)
    for spec in {r["spec"] for r in moves}:
        mine = [r for r in moves if r["spec"] == spec]
        out += [int(mine[0]["budget"]), len(mine), float(np.mean([r["column"] == "4" for r in mine]))]
        out += [int(c) for r in mine for c in r["tied"].split()]
    montecarlo = [r for r in moves if r["family"] == "montecarlo"]
    top = max(int(r["budget"]) for r in montecarlo)
    rates = np.array([[float(x) for x in r["column_scores"].split(",")] for r in montecarlo if int(r["budget"]) == top])
    columns = sorted(exact)

    def ranks(values):
        order = np.argsort(np.argsort(values)).astype(float)
        for value in np.unique(values):
            order[values == value] = order[values == value].mean()
        return order

    scores = np.array([exact[c] for c in columns], dtype=float)
    out.append(float(np.corrcoef(ranks(rates.mean(axis=0)), ranks(scores))[0, 1]))
    return out, []


def _seed_boards(rows) -> tuple[list[float], list[str]]:
    from engine.experiments.seed_boards import SEED_000_WEIGHTS
    from engine.formats import CHARACTERS
    from engine.grade.seed_boards import BOARDS
    from engine.kernels.evaluation import LINE_VALUE, SEED000_CAP

    facts = {r["board"]: r for r in rows if r["kind"] == "board"}
    moves = [r for r in rows if r["kind"] == "move"]
    live = [f for f in facts.values() if not f["over"]]
    out: list[float] = [1, *SEED_000_WEIGHTS[3], SEED000_CAP / LINE_VALUE, len(facts), len(live)]
    out += [float(live[0]["solve_seconds"]), sum(f["solved"] == "True" for f in live)]
    out += [
        sum("disc" in f["problem"] for f in facts.values()),
        sum("characters" in f["problem"] for f in facts.values()),
    ]
    out += [sum(bool(f["over"]) for f in facts.values()), sum("disc" in f["problem"] for f in live)]
    wins = [f for f in live if f["wins"]]
    threats = [f for f in live if not f["wins"]]
    out += [len(wins), sum(len(f["threats"].split()) == 1 for f in threats)]
    out += [CHARACTERS["x"], CHARACTERS["o"]]  # how the readers take seed 001's characters
    out += [sum(len(f["threats"].split()) > 1 for f in threats), len({r["agent"] for r in moves})]
    for f in facts.values():
        out += [int(c) for c in (f["wins"] + " " + f["threats"]).split()]
        for key in ("mode3", "mode3_uncapped"):
            if f.get(key):
                out.append(float(f[key]))
    for source in BOARDS:
        out += [column + 1 for _, column in source.seed_moves]
    tested: dict[str, list[bool]] = defaultdict(list)
    for r in moves:
        f = facts[r["board"]]
        right = f["wins"].split() or (f["threats"].split() if len(f["threats"].split()) == 1 else [])
        if right:
            tested[r["agent"]].append(r["column"] in right)
    for marks in tested.values():
        out += [sum(marks), len(marks), sum(marks) / len(marks)]
    out.append(sum(all(marks) for marks in tested.values()))  # agents that never missed
    out.append(max(len(m) for m in tested.values()))
    names = [source.label for source in BOARDS]
    return out, names


def _playtime(rows) -> tuple[list[float], list[str]]:
    out: list[float] = [10, 0.5]  # "a search of 10 plies": the seed's limit; "over 50%"

    def mine(r, first_named=True):  # the move times of one agent, from the row's move_ms
        times = [float(t) for t in r["move_ms"].split()]
        starts = (r["red_first"] == "True") == first_named
        return times[0 if starts else 1 :: 2]

    result = {"red": "win", "draw": "draw", "yellow": "loss"}
    means = []
    for match in {r["match"] for r in rows}:
        games = [r for r in rows if r["match"] == match]
        out.append(len(games))
        out.append(
            sum(
                len({g["moves"] for g in games if f"{g['cols']}x{g['rows']}" == size})
                for size in {f"{g['cols']}x{g['rows']}" for g in games}
            )
        )
        for size in {f"{r['cols']}x{r['rows']}" for r in games}:
            board = [r for r in games if f"{r['cols']}x{r['rows']}" == size]
            counts = Counter(result[r["winner"]] for r in board)
            n = len(board)
            out += [n, *counts.values(), *(c / n for c in counts.values()), *wilson(counts["win"], n)]
            out.append((counts["win"] + 0.5 * counts["draw"]) / n)
            means.append(float(np.mean([t for r in board for t in mine(r)])))
            out.append(float(np.mean([mine(r)[0] for r in board])))  # the first move
            out.append(float(np.mean([t for r in board for t in mine(r)[1:]])))  # the later ones
        out += [sum(r["winner"] == "red" for r in games), sum(r["winner"] == "yellow" for r in games)]
    return out + means, ["cut-off 10", "cut-off 5"]


def _cutoff_depth(rows) -> tuple[list[float], list[str]]:
    from engine.experiments import cutoff_depth as study

    out: list[float] = [*study.SEED_CPU_MS, study.SEED_CUTOFF]
    boards = [r for r in rows if r["part"] == "seed board"]
    out.append(max(int(r["empty"]) for r in boards))
    games = [r for r in rows if r["part"] == "game"]
    moves = [r for r in rows if r["agent"]]
    depths = sorted({int(r["depth"]) for r in boards})
    nodes = {}
    for depth in depths:
        mine = [r for r in boards if int(r["depth"]) == depth]
        found = sum(r["found"] == "True" for r in mine)
        out += [depth, len(mine), found, len(mine) - found, float(np.mean([number(r["cpu_ms"]) for r in mine]))]
        spec = f"alphabeta:depth={depth},eval=seed000,mode=1"
        played = [r for r in games if r["red"] == spec]
        out.append(float(np.mean([{"red": 1.0, "draw": 0.5, "yellow": 0.0}[r["winner"]] for r in played])))
        answered = [r for r in moves if r["agent"] == spec]
        out.append(float(np.mean([r["optimal"] == "True" for r in answered])))
        out.append(float(np.mean([number(r["time_ms"]) for r in answered])))
        nodes[depth] = float(np.mean([number(r["nodes"]) for r in answered]))
        out.append(nodes[depth])
    first, last = depths[0], depths[-1]
    out.append((nodes[last] / nodes[first]) ** (1 / (last - first)))  # one ply's factor of nodes
    return out, ["cut-off 5 (weights mode 2)"]


def _empty_boards(rows) -> tuple[list[float], list[str]]:
    from engine.experiments.empty_boards import SEED_001_SECONDS

    out: list[float] = [SEED_001_SECONDS, 4]  # seed 001's code: HEIGHT = 4
    kernel = [r for r in rows if r["engine"] == "numba"]
    python = [r for r in rows if r["engine"] == "python" and r["seconds"]]
    speed = sum(number(r["nodes"]) for r in python) / sum(number(r["seconds"]) for r in python) if python else 0
    out.append(speed)
    for r in kernel:
        nodes, seconds = number(r["nodes"]), number(r["seconds"])
        out += [int(r["cols"]), int(r["rows"]), int(r["depth"]), nodes, seconds, 1000 * seconds]
        if speed:
            out.append(nodes / speed)
    return out, []


CANDIDATES = {
    "random-games": _random_games,
    "state-space": _state_space,
    "ordering": _ordering,
    "eval-tournament": _eval_tournament,
    "node-limit": _node_limit,
    "algorithms": _algorithms,
    "accuracy": _accuracy,
    "first-move": _first_move,
    "seed-boards": _seed_boards,
    "playtime": _playtime,
    "cutoff-depth": _cutoff_depth,
    "empty-boards": _empty_boards,
}


def test_every_study_has_a_check():
    assert set(CANDIDATES) == {study.name for study in all_studies()}


@pytest.mark.parametrize("name", sorted(CANDIDATES))
def test_every_figure_of_the_reading_comes_from_the_rows(quick_runs, name):
    text = readings.sections(_readme(quick_runs, name))
    candidates, names = CANDIDATES[name](readings.rows(quick_runs[name][1]))
    assert readings.figures(text, names), "no figure found: the check would pass on anything"
    assert readings.unexplained(text, candidates, names) == []


@pytest.mark.parametrize("name", sorted(CANDIDATES))
def test_a_figure_typed_wrong_is_caught(quick_runs, name):
    """The check is not a formality: the reading's largest figure, typed with a digit too many, is left over."""
    text = readings.sections(_readme(quick_runs, name))
    candidates, names = CANDIDATES[name](readings.rows(quick_runs[name][1]))
    largest = max(readings.figures(text, names), key=lambda f: (abs(f.value), len(f.text)))
    body = largest.text.lstrip("+-±").rstrip("%")
    wrong = largest.text.replace(body, "1" + body, 1)  # 163.6 -> 1163.6, 4.53e12 -> 14.53e12
    assert wrong in readings.unexplained(text.replace(largest.text, wrong, 1), candidates, names)


def test_an_order_that_searched_more_is_said_to():
    from engine.experiments.ordering import compared

    assert compared(1000, 400) == "2.5 times fewer" and compared(400, 1000) == "2.5 times more"


def test_the_ordering_study_gives_the_means_over_the_boards_of_a_width():
    from engine.experiments.ordering import merged

    def row(order, engine, seconds, nodes, note=None):
        return {
            "cols": 9,
            "depth": 16,
            "order": order,
            "engine": engine,
            "seconds": seconds,
            "nodes": nodes,
            "note": note,
        }

    rows = [row("natural", "numba", 1.0, 100), row("natural", "numba", 3.0, 300)]
    rows += [row("natural", "python", 2.0, 50), row("natural", "python", None, None, "too slow in Python")]
    means = {r["engine"]: r for r in merged(rows)}
    assert (means["numba"]["seconds"], means["numba"]["nodes"], means["numba"]["boards"]) == (2.0, 200, 2)
    assert means["python"]["seconds"] is None and means["python"]["note"] == "too slow in Python"


def test_the_old_state_space_sentence_is_caught(quick_runs):
    """The report once printed the 7x6 total as 4.53e13 and called seed 000's 1.6e13 a lower estimate."""
    candidates, _ = _state_space(readings.rows(quick_runs["state-space"][1]))
    old = "it overestimates the real 7x6 state space (1.09e20 against 4.53e13)"
    assert readings.unexplained(old, candidates) == ["4.53e13"]


# -- key figures, study by study -------------------------------------------------------------------------
def test_state_space_key_figures(quick_runs):
    from engine.experiments.state_space import KNOWN_7X6_TOTAL, SEED_000_ESTIMATE
    from engine.experiments.tables import scientific

    text = readings.sections(_readme(quick_runs, "state-space"))
    assert scientific(KNOWN_7X6_TOTAL) == "4.53e12" and "4.53e12" in text and "4.53e13" not in text
    ratio = SEED_000_ESTIMATE / KNOWN_7X6_TOTAL
    assert f"{ratio:.1f} times the known count" in text and ratio > 1
    assert "an overestimate, higher than the exact figure" in text and "lower" not in text


def test_first_move_reading_names_the_tied_columns_of_the_rows(quick_runs):
    rows = readings.rows(quick_runs["first-move"][1])
    text = readings.sections(_readme(quick_runs, "first-move"))
    for spec in {r["spec"] for r in rows if r["family"] == "alphabeta"}:
        ties = {r["tied"] for r in rows if r["spec"] == spec}
        widest = max(ties, key=lambda t: len(t.split()))
        depth = spec.split("=")[1]
        assert (f"depth {depth} ({widest}:" in text) == (len(widest.split()) > 1), spec
        if len(ties) == 1 and len(widest.split()) > 1:
            chosen = {r["column"] for r in rows if r["spec"] == spec}
            assert chosen <= set(widest.split())  # a pick among the ties, never outside them


def test_algorithms_random_against_astar_as_the_rows_say(quick_runs):
    rows = readings.rows(quick_runs["algorithms"][1])
    text = readings.sections(_readme(quick_runs, "algorithms"))
    games = [r for r in rows if (r["red"], r["yellow"]) == ("random", "astar")]
    wins = sum(r["winner"] == "red" for r in games)
    assert f"Random beat our A* in {wins} of {len(games)} games" in text
    assert "minimax vs MCTS" in _readme(quick_runs, "algorithms").split("### Adversarial table")[1]


def test_seed_boards_counts_as_the_rows_say(quick_runs):
    rows = readings.rows(quick_runs["seed-boards"][1])
    text = readings.sections(_readme(quick_runs, "seed-boards"))
    facts = [r for r in rows if r["kind"] == "board"]
    impossible = [r["board"] for r in facts if "disc" in r["problem"]]
    assert f"{len(impossible)} have disc counts no game reaches ({', '.join(impossible)})" in text
    for r in facts:  # the side asked to move has as many discs as the other, or one fewer, in a real game
        mover, other = int(r["mover_discs"]), int(r["opponent_discs"])
        assert (r["board"] in impossible) == (mover not in (other, other - 1)), r["board"]
    # seed 000's four boards with impossible counts (of its nine for wins and blocks) are all there
    assert {"000 4x4 a", "000 4x4 e", "000 4x4 g", "000 4x4 h"} <= set(impossible)
