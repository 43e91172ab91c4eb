"""The claimeven bound: never below the true score, and often useful."""

from __future__ import annotations

import random

import pytest

from engine.board import Board
from engine.geometry import Geometry
from engine.solver.claimeven import NO_BOUND, claimeven_bound
from tests.engine.exhaustive import columns_of, make_solver, random_position


@pytest.mark.parametrize(
    ("cols", "rows", "connect", "refines"),
    [(4, 4, 4, True), (5, 4, 4, False), (4, 6, 4, True), (6, 4, 4, True), (4, 5, 4, True), (5, 5, 4, True)],
)
def test_the_bound_is_never_below_the_exact_score(cols: int, rows: int, connect: int, refines: bool) -> None:
    geometry = Geometry(cols, rows, connect)
    score, _, _ = make_solver(cols, rows, connect)
    rng = random.Random(cols * 10 + rows)
    bounded = refined = 0
    for _ in range(150):
        # An even number of empty cells, where the rule applies (on odd-row boards too).
        plies = 2 * rng.randrange(geometry.cells // 6, geometry.cells // 2 - 1) + geometry.cells % 2
        moves = random_position(geometry, plies, rng)
        board = Board.from_moves(moves, geometry)
        if board.is_over or any(board.is_winning_move(col) for col in board.legal_columns()):
            continue  # the solver asks only about positions where the mover cannot win at once
        bound = claimeven_bound(*board.kernel_state(), board.ply, geometry.kernel)
        if bound != NO_BOUND:
            bounded += 1
            refined += bound < -1
            assert score(columns_of(moves, cols), len(moves)) <= bound, moves
    assert bounded > 10  # the rule does fire on these boards
    if refines:  # (this sample of 5x4 positions happens to have no such line)
        assert refined > 0  # the bound then also says how early the loss comes


@pytest.mark.parametrize(("geometry", "moves"), [(Geometry(7, 5, 4), [0, 0]), (Geometry(7, 6, 4), [0])])
def test_no_bound_when_an_odd_number_of_cells_is_empty(geometry: Geometry, moves: list[int]) -> None:
    board = Board.from_moves(moves, geometry)
    assert claimeven_bound(*board.kernel_state(), board.ply, geometry.kernel) == NO_BOUND
