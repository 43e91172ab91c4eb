"""Search agents: the seeds' hand-made boards, minimax against alpha-beta, limits, stopping, sizes."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents.base import SearchResult
from engine.agents.registry import create_agent, presets
from engine.board import Board, has_line
from engine.errors import AgentSpecError, PositionError
from engine.geometry import Geometry
from engine.kernels import search as kernels
from engine.kernels.evaluation import NAMES, evaluation_id
from engine.kernels.search import INF, ORDERS, new_context
from engine.reference_search import ReferenceSearch
from engine.score import Score
from engine.stats import NODE_LIMIT, NODES
from engine.stop import StopFlag
from tests.engine.strategies import choices

ROOT = Path(__file__).resolve().parents[2]


# -- the seeds' boards ------------------------------------------------------------------------------
def position(grid: str, to_move: str, connect: int = 4) -> tuple[Geometry, int, int]:
    """A board drawn top row first (X, O, -), with ``to_move`` to play: ``(geometry, current, mask)``.

    The seeds do not always draw boards a game can reach (in seed 000 the side to
    move sometimes has a stone too many), so no reachability check is made here.
    """
    rows = [line.split() for line in grid.strip().splitlines()]
    geometry = Geometry(len(rows[0]), len(rows), connect)
    stones = {"X": 0, "O": 0}
    for top_index, cells in enumerate(rows):
        for col, cell in enumerate(cells):
            if cell in stones:
                stones[cell] |= geometry.cell(col, geometry.rows - 1 - top_index)
    return geometry, stones[to_move], stones["X"] | stones["O"]


def search(spec: str, geometry: Geometry, current: int, mask: int) -> SearchResult:
    """The agent's answer, through ``choose`` when the position is reachable."""
    agent = create_agent(spec)
    try:
        other = mask ^ current
        first, second = (current, other) if current.bit_count() == other.bit_count() else (other, current)
        board = Board.from_stones(first, second, geometry)
    except PositionError:
        return agent.search_position(geometry, current, mask)
    assert (board.current, board.mask) == (current, mask)
    return agent.choose(board)


# Seed 000 (4x4, player 1 = X to move): boards where X completes a line now.
SEED_000_WINS = {
    "000-a": "- - - -\n- X O X\nX O O X\nO O X X",
    "000-b": "- - - -\n- - X O\nO X O X\nX O X O",
    "000-c": "- - - -\nO X X O\nO O X O\nX O X X",
    "000-d": "- - - -\nO - - -\nO O O -\nX X X -",
    "000-e": "X - - -\nO - - -\nX O X -\nO X X X",
    "000-f": "O - - -\nO - - -\nO O X -\nX X X -",
    "000-g": "- - - -\nO X O X\nX O O X\nX O X X",
    "000-h": "- - - -\nO X X O\nX X O X\nX O X X",
}
# Seed 001 (7x7, x to move): "x is about to win (play in column 2)" and "(column 5)", 0-based.
SEED_001_WINS = {
    "001-1": """- - - - - - -
                X - - O - O X
                O X O X O X O
                X O X O X X O
                X O X O X X X
                X O O O X O O
                O X O X O X O""",
    "001-3": """- - - - - - X
                X O O O X O X
                O X O X O X O
                X O X O X X O
                X O X O X X X
                X O O O X O O
                O X O X O X O""",
}
WIN_CASES = [(name, grid, "X") for name, grid in {**SEED_000_WINS, **SEED_001_WINS}.items()]
# Seed 003 (8x8): after makeExample([3, 4, 2, 5, 2, 6, 2]) O wins in column 7.
SEED_003_BOARD_1 = [3, 4, 2, 5, 2, 6, 2]

# Boards where the side to move must block: seed 000's last board (X blocks in column 0),
# seed 004's "simple" and "complex" game states (O blocks in column 3). Seed 004's text
# drops one "-" from each of the three lower rows of the last board; restored here.
BLOCK_CASES = [
    ("000-i", "- - - X\nX O O O\nO X O X\nX O X O", "X", 0),
    ("004-state-2", "- - - - - - -\n" * 5 + "X X X - - O O", "O", 3),
    ("004-state-3", "- - - - - - -\n" * 3 + "O - X X - - -\nO X O X - - -\nX X O O X O -", "O", 3),
]

WIN_AGENTS = [
    "greedy",
    "minimax:depth=1",
    "minimax:depth=3",
    "alphabeta:depth=1",
    "alphabeta:depth=4,order=natural,table_mb=0",
    "alphabeta:depth=4,order=center",
    "alphabeta",
]
BLOCK_AGENTS = [
    "minimax:depth=2",
    "minimax:depth=4,eval=seed004",
    "alphabeta:depth=2",
    "alphabeta:depth=5,order=natural,table_mb=0,eval=seed003",
    "alphabeta",
    "easy",
    "medium",
    "hard",
]


@pytest.mark.parametrize("spec", WIN_AGENTS)
@pytest.mark.parametrize(("name", "grid", "to_move"), WIN_CASES, ids=[case[0] for case in WIN_CASES])
def test_search_agents_take_the_win(spec: str, name: str, grid: str, to_move: str) -> None:
    geometry, current, mask = position(grid, to_move)
    col = search(spec, geometry, current, mask).column
    assert has_line(current | ((mask + geometry.bottom_cell(col)) & geometry.column_mask(col)), geometry)


@pytest.mark.parametrize("spec", WIN_AGENTS)
def test_search_agents_take_the_win_on_8x8(spec: str) -> None:
    board = Board.from_moves(SEED_003_BOARD_1, Geometry(8, 8))
    result = create_agent(spec).choose(board)
    assert result.column == 7


@pytest.mark.parametrize("spec", BLOCK_AGENTS)
@pytest.mark.parametrize(("name", "grid", "to_move", "block"), BLOCK_CASES, ids=[case[0] for case in BLOCK_CASES])
def test_search_agents_block_the_loss(spec: str, name: str, grid: str, to_move: str, block: int) -> None:
    geometry, current, mask = position(grid, to_move)
    assert search(spec, geometry, current, mask).column == block


def test_greedy_ignores_the_replies() -> None:
    # Seed 004's complex state: like the seed's A*, greedy stacks a third O in column 1
    # instead of blocking X's diagonal in column 4.
    _, grid, to_move, _ = BLOCK_CASES[2]
    assert search("greedy", *position(grid, to_move)).column == 0


@pytest.mark.parametrize(
    ("grid", "best", "outcome"),
    [
        # "x can draw if it chooses 0": every other column loses.
        (SEED_001_WINS["001-3"].replace("- - - - - - X", "- - - - X O X", 1), {0}, 0),
        # "x can win if it chooses 3": block in column 4 (0-based 3) and win later; the rest lose.
        (
            """- - - - - - -
               - - - - - O -
               - X O X - X -
               X O X O - O X
               O O X O X O X
               X X O O X O O
               O X O X O X X""",
            {3},
            1,
        ),
        # "x can win if it chooses ?": columns 1, 2, 3 and 5 win (0-based 0, 1, 2, 4).
        (
            """- - - - - - -
               - - - - - - -
               - - - - - X -
               X O - - - O -
               O O X - X O X
               X X O O X O O
               O X O X O X X""",
            {0, 1, 2, 4},
            1,
        ),
    ],
)
def test_solving_seed_001s_boards(grid: str, best: set[int], outcome: int) -> None:
    result = search("alphabeta:depth=81,columns=true", *position(grid, "X"))
    assert result.exact and result.completed
    assert result.column in best and result.score.outcome == outcome
    scores = result.column_scores
    assert {col for col, score in enumerate(scores) if score is not None and score.outcome == outcome} == best


@pytest.mark.parametrize("spec", ["minimax:depth={d},eval=seed003", "alphabeta:depth={d},eval=seed003"])
def test_seed_003_minmax_examples(spec: str) -> None:
    # Seed 003 Part B: with maxDepth 1, O must block in column 2 (value 10); with maxDepth 2 the
    # value becomes -50. After [3, 0, 4, 4, 3, 4, 5], X has two threats: O loses at depth 2.
    board = Board.from_moves([3, 4, 2, 5, 2, 0, 2], Geometry(8, 8))
    for depth, value in ((1, 10), (2, -50)):
        result = create_agent(spec.format(d=depth)).choose(board)
        assert (result.column, result.score) == (2, Score.estimate(value))
    lost = create_agent(spec.format(d=2)).choose(Board.from_moves([3, 0, 4, 4, 3, 4, 5], Geometry(8, 8)))
    assert lost.info["loss_in"] == 2


def test_quicker_wins_score_higher() -> None:
    # Seed 000's 4x7 timing board: columns 4 and 5 win quickest; column 3 also wins, later.
    geometry, current, mask = position("- - - - - - -\n- - - - - - -\n- O O X X O O\nX O X X X O X", "X")
    result = search("alphabeta:depth=81,columns=true", geometry, current, mask)
    assert result.exact and result.column in (3, 4)
    scores = [None if s is None else s.value for s in result.column_scores]
    assert scores[3] == scores[4] == max(s for s in scores if s is not None) > scores[2] > 0
    assert search("alphabeta:depth=81", geometry, current, mask).info["win_in"] == 7


# A sample of Pascal Pons's benchmark positions (shared/benchmarks/pons, Test_L3_R1 and
# Test_L2_R1): exact scores of the position, and of every column ("x": full).
PONS_SCORES = [
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0),
    ("71255763773133525731261364622167124446454", 0),
    ("65214673556155731566316327373221417", -1),
    ("52677675164321472411331752454", 0),
    ("3135151421347443544172316522225776773566", 0),
    ("562154564361751726662253737734213275114", 0),
]
PONS_COLUMNS = [
    ("2252576253462244111563365343671351441", "x x x x x -1 -2"),
    ("7422341735647741166133573473242566", "-3 1 x x -4 1 x"),
    ("23163416124767223154467471272416755633", "x x 0 x -2 x x"),
    ("5554224333234511764415115", "-8 -8 -8 -8 x 4 -8"),
]


def test_exhaustive_search_gives_pons_scores() -> None:
    agent = create_agent("alphabeta:depth=81")
    for moves, score in PONS_SCORES:
        result = agent.choose(Board.from_moves(moves))
        assert result.score == Score.pons(score), moves
    analysis = create_agent("alphabeta:depth=81,columns=true")
    for moves, columns in PONS_COLUMNS:
        result = analysis.choose(Board.from_moves(moves))
        assert result.column_scores == tuple(None if c == "x" else Score.pons(int(c)) for c in columns.split()), moves


# -- minimax and alpha-beta agree --------------------------------------------------------------
@st.composite
def small_positions(draw) -> Board:
    geometry = Geometry(draw(st.integers(4, 5)), draw(st.integers(4, 5)), draw(st.integers(3, 4)))
    board = Board(geometry)
    for pick in draw(choices(24)):
        legal = board.legal_columns()
        if board.ply == geometry.cells - 1 or board.is_winning_move(legal[pick % len(legal)]):
            break  # keep the game going: the agents are asked about unfinished games only
        board.play(legal[pick % len(legal)])
    return board


def _context(board: Board, order: str, eval_name: str, table_entries: int = 0):
    ctx = new_context(board.geometry.cols, board.geometry.rows, order, evaluation_id(eval_name), table_entries)
    ctx.stats[NODE_LIMIT] = 1 << 60
    return ctx


@settings(max_examples=80)
@given(small_positions(), st.integers(1, 5), st.sampled_from(NAMES))
def test_alphabeta_finds_the_minimax_values(board: Board, depth: int, eval_name: str) -> None:
    g, (current, mask), cols = board.geometry.kernel, board.kernel_state(), board.geometry.cols
    minimax_scores = np.full(cols, -INF, dtype=np.int64)
    kernels.minimax_root(current, mask, g, depth, _context(board, "natural", eval_name), minimax_scores)
    legal = board.legal_columns()
    for order in ORDERS:
        for table_entries in (0, 1 << 10):
            scores, exact = np.zeros(cols, dtype=np.int64), np.zeros(cols, dtype=np.uint8)
            ctx = _context(board, order, eval_name, table_entries)
            best = kernels.alphabeta_root(current, mask, g, depth, -1, False, -1, ctx, scores, exact)
            assert scores[best] == minimax_scores.max()
            assert all(scores[c] == minimax_scores[c] if exact[c] else scores[c] >= minimax_scores[c] for c in legal)
            ctx = _context(board, order, eval_name, table_entries)
            kernels.alphabeta_root(current, mask, g, depth, -1, True, -1, ctx, scores, exact)
            assert [scores[c] for c in legal] == [minimax_scores[c] for c in legal]


@settings(max_examples=40)
@given(small_positions(), st.integers(1, 4), st.sampled_from(["f4", "seed004", "threats"]), st.sampled_from(ORDERS[:2]))
def test_the_kernel_visits_what_the_python_reference_visits(board: Board, depth: int, eval_name: str, order: str):
    reference = ReferenceSearch(eval_name, order)
    column, value = reference.best_move(board.copy(), depth)
    g, (current, mask), cols = board.geometry.kernel, board.kernel_state(), board.geometry.cols
    scores, exact = np.zeros(cols, dtype=np.int64), np.zeros(cols, dtype=np.uint8)
    ctx = _context(board, order, eval_name)
    best = kernels.alphabeta_root(current, mask, g, depth, -1, False, -1, ctx, scores, exact)
    assert (best, scores[best], ctx.stats[NODES]) == (column, value, reference.nodes)


# -- limits, stopping, statistics ------------------------------------------------------------------
def test_minimax_searches_every_position_to_its_depth() -> None:
    for depth in (1, 2, 3):  # no line can be completed in the first 3 plies
        result = create_agent(f"minimax:depth={depth}").choose(Board())
        assert result.nodes == sum(7**k for k in range(depth + 1))
        assert result.depth == depth and len(result.pv) == depth and result.completed
        assert all(score is not None for score in result.column_scores)


def test_alphabeta_reports_depth_pv_and_score() -> None:
    result = create_agent("alphabeta:depth=5").choose(Board.from_moves("4453"))
    assert result.depth == 5 and result.completed and not result.exact
    assert 1 <= len(result.pv) <= 5 and result.pv[0] == result.column
    assert result.column_scores[result.column] == result.score
    line = result.stats_line()
    assert "depth=5" in line and f"pv={result.pv[0] + 1}" in line


def test_node_limit_returns_the_best_move_found_so_far() -> None:
    result = create_agent("alphabeta:depth=81,nodes=10000").choose(Board())
    assert result.nodes <= 10000 and not result.completed and result.depth >= 1
    assert Board().is_legal(result.column)
    unlimited = create_agent("alphabeta:depth=4").choose(Board.from_moves("4453"))
    roomy = create_agent("alphabeta:depth=4,nodes=1000000").choose(Board.from_moves("4453"))
    assert (roomy.column, roomy.score, roomy.nodes, roomy.completed) == (
        unlimited.column,
        unlimited.score,
        unlimited.nodes,
        True,
    )


def test_a_tiny_node_limit_still_plays_legally_and_takes_a_win() -> None:
    board = Board.from_moves("444444")  # column 4 is full
    result = create_agent("alphabeta:nodes=1").choose(board)
    assert board.is_legal(result.column) and not result.completed and result.nodes == 1
    assert create_agent("alphabeta:nodes=1").choose(Board.from_moves("112233")).column == 3


@pytest.mark.parametrize("spec", ["alphabeta:depth=81", "minimax:depth=81", "hard"])
def test_a_set_stop_flag_ends_the_search_at_once(spec: str) -> None:
    stop = StopFlag()
    stop.set()
    result = create_agent(spec).choose(Board.from_moves("44"), stop)
    assert Board.from_moves("44").is_legal(result.column) and not result.completed


def test_stop_from_another_thread_is_honoured() -> None:
    agent, stop, results = create_agent("alphabeta:depth=81,table_mb=1"), StopFlag(), []
    worker = threading.Thread(target=lambda: results.append(agent.choose(Board(), stop)))
    worker.start()
    worker.join(0.3)  # the empty board cannot be solved by then
    stop.set()
    worker.join(10)
    assert not worker.is_alive() and not results[0].completed and Board().is_legal(results[0].column)


def test_time_limit_keeps_the_deepest_finished_iteration() -> None:
    result = create_agent("alphabeta:depth=81,seconds=0.05").choose(Board())
    assert not result.completed and result.depth >= 1 and Board().is_legal(result.column)


@pytest.mark.parametrize("geometry", [Geometry(8, 8), Geometry(9, 9, 5), Geometry(4, 9, 3)])
def test_every_search_agent_plays_whole_games_on_other_sizes(geometry: Geometry) -> None:
    from engine.match import play_game

    for first, second in (("greedy", "minimax:depth=2"), ("alphabeta:depth=3,order=center", "alphabeta:depth=2")):
        record = play_game(create_agent(first), create_agent(second), Board(geometry))
        assert record.forfeit is None and len(record.moves) >= 2 * geometry.connect - 1


# -- the registry ---------------------------------------------------------------------------------------
def test_difficulty_presets() -> None:
    levels = {preset.name: preset.level for preset in presets()}
    assert levels["easy"] < levels["medium"] < levels["hard"]
    assert "eval=threats" in next(p.spec for p in presets() if p.name == "hard")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphabeta:eval=nope", "eval='nope': choose one of zero|nlines4"),
        ("alphabeta:order=random", "order='random': choose one of natural|center|heuristic"),
        ("alphabeta:depth=0", "depth='0': expected a whole number from 1 to 81"),
        ("alphabeta:seconds=-1", "seconds='-1': expected a finite number from"),
        ("minimax:table_mb=3", "minimax has no key 'table_mb'"),
    ],
)
def test_bad_search_specs_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        create_agent(spec)


def test_kernels_reload_from_numbas_cache() -> None:
    # A recursive kernel compiled for a literal argument crashed when numba reloaded it
    # from its cache (the second process). Both runs must work.
    code = (
        "from engine import Board, Geometry, create_agent\n"
        # seeded: the agents break ties with their seed, so both runs must agree
        "for spec in ('alphabeta:depth=4,seed=1', 'minimax:depth=2,seed=1', 'greedy:seed=1'):\n"
        "    for g in (Geometry(), Geometry(8, 8)):\n"
        "        print(create_agent(spec).choose(Board.from_moves('44', g)).column)\n"
    )
    outputs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True) for _ in range(2)]
    assert [run.returncode for run in outputs] == [0, 0], outputs[-1].stderr
    assert outputs[0].stdout == outputs[1].stdout


def test_bench_search_prints_seed_000s_table(capsys) -> None:
    from engine.cli import main

    assert main(["bench", "search", "seed000"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.strip().startswith("4x")]
    assert [row[0] for row in rows] == ["4x4", "4x5", "4x6", "4x7"]
    assert [row[1] for row in rows] == ["11", "13", "15", "21"]  # the seed's depth limits
    assert main(["bench", "search", "nosuch"]) == 2
    assert "unknown part 'nosuch'" in capsys.readouterr().err
