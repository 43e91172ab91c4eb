"""Pure Monte Carlo search and the playout policies."""

from __future__ import annotations

import numpy as np
import pytest

from engine.agents.registry import create_agent
from engine.board import Board, has_line
from engine.errors import AgentSpecError
from engine.geometry import Geometry
from engine.kernels.montecarlo import RANDOM, SMART, playout, smart_playout
from engine.kernels.rng import make_rng, next_below
from engine.kernels.rules import DRAW, LOSS, WIN
from engine.score import Score
from tests.engine.agent_checks import assert_stop_ends_a_long_search, stopped
from tests.engine.seed_positions import BLOCKS, WINS, SeedPosition

EIGHT = Geometry(8, 8, 4)


def _names(positions: list[SeedPosition]) -> list[str]:
    return [position.name for position in positions]


# -- playouts ----------------------------------------------------------------------
def _playouts(board: Board, policy: int, count: int = 200) -> set[int]:
    """The set of results of ``count`` playouts from ``board``."""
    current, mask = board.kernel_state()
    rng = make_rng(5)
    return {playout(current, mask, board.geometry.kernel, rng, policy) for _ in range(count)}


@pytest.mark.parametrize("position", WINS, ids=_names(WINS))
def test_a_smart_playout_takes_a_win_in_one(position: SeedPosition) -> None:
    assert _playouts(position.board, SMART) == {WIN}


def test_a_random_playout_misses_wins_in_one() -> None:
    # What the smart policy is for: random moves often let the chance go.
    assert _playouts(WINS[5].board, RANDOM) == {WIN, LOSS}


@pytest.mark.parametrize("geometry", [Geometry(), EIGHT], ids=str)
def test_a_smart_playout_blocks_until_it_cannot(geometry: Geometry) -> None:
    # X has three in a row on the bottom row, open at both ends; O blocks one end and X wins at the other.
    board = Board.from_moves("33445", geometry)
    assert _playouts(board, SMART) == {LOSS}


def reference_smart_playout(board: Board, rng: np.ndarray) -> int:
    """The smart policy written plainly with the Board API, drawing random moves as the kernel does."""
    board, sign = board.copy(), 1
    g = board.geometry
    while not board.is_full:
        legal = board.legal_columns()
        if any(board.is_winning_move(col) for col in legal):
            return WIN * sign
        opponent = board.current ^ board.mask
        threats = [c for c in legal if has_line(opponent | ((board.mask + g.bottom_cell(c)) & g.column_mask(c)), g)]
        board.play(threats[0] if threats else legal[next_below(rng, len(legal))])
        sign = -sign
    return DRAW


@pytest.mark.parametrize(
    ("moves", "geometry"),
    [("", Geometry()), ("4453", Geometry()), ("", EIGHT), ("", Geometry(4, 4, 4)), ("2", Geometry(5, 4, 3))],
    ids=["7x6", "7x6 4453", "8x8", "4x4", "5x4 connect 3"],
)
def test_smart_playouts_follow_the_policy_exactly(moves: str, geometry: Geometry) -> None:
    board = Board.from_moves(moves, geometry)
    current, mask = board.kernel_state()
    results = set()
    for seed in range(40):
        kernel_rng, reference_rng = make_rng(seed), make_rng(seed)
        result = smart_playout(current, mask, geometry.kernel, kernel_rng)
        assert result == reference_smart_playout(board, reference_rng)
        assert kernel_rng[0] == reference_rng[0]  # the same number of random moves
        results.add(result)
    assert len(results) >= 2


# -- the agent -----------------------------------------------------------------------
@pytest.mark.parametrize("position", WINS, ids=_names(WINS))
def test_takes_an_immediate_win(position: SeedPosition) -> None:
    result = create_agent("montecarlo:playouts=2000,seed=1").choose(position.board)
    assert result.column in position.moves
    assert result.score == Score.win_rate(1, exact=True)


@pytest.mark.parametrize("position", BLOCKS, ids=_names(BLOCKS))
def test_blocks_an_immediate_loss(position: SeedPosition) -> None:
    for seed in range(3):
        result = create_agent(f"montecarlo:playouts=2000,seed={seed}").choose(position.board)
        assert result.column in position.moves, result.stats_line()


def test_random_playouts_block_where_the_threat_is_the_only_danger() -> None:
    # The seeds' own version (random playouts) also blocks on seed 004's state 2.
    position = next(p for p in BLOCKS if p.name == "004 state 2")
    result = create_agent("montecarlo:playouts=4000,rollout=random,seed=2").choose(position.board)
    assert result.column in position.moves


def test_playouts_are_shared_evenly_by_the_legal_columns() -> None:
    board = Board.from_moves("444444")  # column 4 is full: 6 legal columns
    result = create_agent("montecarlo:playouts=1000,seed=1").choose(board)
    assert result.nodes == 6 * 167  # 1000 / 6, rounded up per column
    assert result.info["visits"] == "167,167,167,x,167,167,167"
    assert result.column_scores is not None and result.column_scores[3] is None
    rates = [score.value for score in result.column_scores if score is not None]
    assert all(0 <= rate <= 1 for rate in rates) and result.score is not None and not result.exact
    assert result.score.value == max(rates)


def test_the_same_seed_gives_the_same_search() -> None:
    board = Board.from_moves("4453")
    first = create_agent("montecarlo:playouts=3000,seed=7").choose(board)
    again = create_agent("montecarlo:playouts=3000,seed=7").choose(board)
    other = create_agent("montecarlo:playouts=3000,seed=8").choose(board)
    assert (first.column, first.column_scores) == (again.column, again.column_scores)
    assert first.column_scores != other.column_scores


def test_new_game_reseeds() -> None:
    board = Board.from_moves("4453")
    agent = create_agent("montecarlo:playouts=700")
    agent.new_game(3)
    first = agent.choose(board)
    agent.new_game(3)
    assert agent.choose(board).column_scores == first.column_scores


def test_a_time_budget_gives_a_legal_move() -> None:
    result = create_agent("montecarlo:seconds=0.05,seed=1").choose(Board.from_moves("44"))
    assert result.column in range(7) and result.nodes > 0 and result.completed


def test_a_stop_ends_a_long_search() -> None:
    assert_stop_ends_a_long_search(create_agent("montecarlo:seconds=3600,seed=1"), Board())


def test_a_search_stopped_before_it_starts_still_moves() -> None:
    result = create_agent("montecarlo:seconds=10,seed=1").choose(Board.from_moves("1"), stopped())
    assert result.nodes == 0 and result.column == 3  # no playouts: the central column


def test_works_on_8x8() -> None:
    board = Board.from_moves("4455", EIGHT)  # X can make an open three on the bottom row
    result = create_agent("montecarlo:playouts=4000,seed=1").choose(board)
    assert result.column in board.legal_columns()
    assert len(result.column_scores or ()) == 8
    win = Board.from_moves("445566", EIGHT)  # X wins with 3 or 7
    assert create_agent("montecarlo:playouts=100,seed=1").choose(win).column in (2, 6)


@pytest.mark.parametrize(
    "spec", ["montecarlo:playouts=0", "montecarlo:rollout=clever", "montecarlo:seconds=-1", "montecarlo:seed=x"]
)
def test_bad_specs_are_clear_errors(spec: str) -> None:
    with pytest.raises(AgentSpecError):
        create_agent(spec)


def test_column_scores_are_win_rates() -> None:
    # O to move is lost (see above): every rate is low.
    board = Board.from_moves("33445")
    result = create_agent("montecarlo:playouts=2000,seed=1").choose(board)
    assert result.column_scores is not None
    rates = [s.value for s in result.column_scores if s is not None]
    assert max(rates) <= 0.5 and result.score is not None
    assert np.isclose(result.score.value, max(rates))
