"""The reference answers agree with the seeds' own printed examples, and the grader's trees with the references."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from engine.grade.cases import random_cells, rng
from engine.grade.reference import seed000, seed001, seed002, seed003, seed004
from engine.grade.seed003 import EVAL_TESTS, FULL_ROWS, MINMAX_TESTS, _digits, facts, game_tree, seed_minmax
from engine.grade.trees import Reference
from engine.tree import EXAMPLE_BRANCHING, EXAMPLE_LEAVES, Player, alphabeta, tree_from_branching


@pytest.mark.parametrize(("moves", "printed"), EVAL_TESTS)
def test_seed_003_eval_gives_the_appendix_values(moves, printed):
    assert seed003.eval(seed003.makeExample(moves)) == printed


def test_seed_003_full_board_is_worth_nothing():
    assert seed003.eval(np.array(FULL_ROWS)) == 0


@pytest.mark.parametrize(("moves", "depth", "printed"), MINMAX_TESTS)
def test_seed_003_minmax_gives_the_appendix_lines(moves, depth, printed, monkeypatch):
    monkeypatch.setattr(seed003, "maxDepth", depth)
    monkeypatch.setattr(seed003, "countNodes", 0)
    score, move = seed003.minMax(seed003.makeExample(moves), seed003.O, 0, -sys.maxsize, sys.maxsize)
    seed_score, seed_move = (int(part) for part in printed.strip("()").split(","))
    assert score == seed_score
    # Every move loses on board 3: the seed's 7 is one of equally bad moves, so any move is a best one.
    assert move == seed_move or score == -sys.maxsize


def test_seed_003_drop_piece_is_in_place_and_refuses_what_it_cannot_do():
    board = seed003.getEmptyBoard()
    assert seed003.dropPiece(seed003.X, 3, board) is board and board[7][3] == seed003.X
    assert seed003.dropPiece(seed003.X, 100, board) == seed003.ERROR
    full = seed003.makeExample((list(range(8)) + list(range(7, -1, -1))) * 4)
    before = full.copy()
    assert seed003.dropPiece(seed003.X, 4, full) == seed003.ERROR and (full == before).all()


def test_fast_facts_agree_with_the_reference():
    generator = rng(1, "facts")
    for _ in range(200):
        cells, _, _ = random_cells(generator, 8, 8, generator.randint(0, 64), stop_at_win=False)
        board = np.array(cells)
        assert facts(_digits(board)) == (seed003.eval(board), seed003.checkWin(1, board), seed003.checkWin(2, board))


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_game_tree_search_is_the_reference_minmax(depth, monkeypatch):
    """The grader's tree (wins stop the search) visits what the reference minMax calls, in order."""
    generator = rng(2, "trees", depth)
    for _ in range(3):
        cells, _, winner = random_cells(generator, 8, 8, generator.randint(4, 20))
        if winner:
            continue
        board = np.array(cells)
        mover = seed003.O if int((board != 0).sum()) % 2 else seed003.X
        tree = game_tree(board, mover, depth, stop_on_win=True)
        root = Player.MAX if mover == seed003.O else Player.MIN
        score, move, calls = seed_minmax(tree, root, 10_000)
        monkeypatch.setattr(seed003, "maxDepth", depth)
        monkeypatch.setattr(seed003, "countNodes", 0)
        assert seed003.minMax(board.copy(), mover, 0, -sys.maxsize, sys.maxsize) == (score, move)
        assert seed003.countNodes == len(calls)
        assert calls == alphabeta(tree.root, root, window=(-sys.maxsize, sys.maxsize)).visited


def test_seed_000_search_takes_the_win_on_the_seeds_boards():
    board = np.array([[0, 0, 0, 0], [-1, 0, 0, 0], [-1, -1, -1, 0], [1, 1, 1, 0]])
    assert seed000.alpha_beta_minimax(board, math.inf, 1) == 3
    assert seed000.actions(board) == [0, 1, 2, 3]
    after = seed000.result(board, 3)
    assert after[3][3] == 1 and board[3][3] == 0  # 1 to move (fewer discs), the board given is not changed
    assert seed000.terminal(after) and seed000.utility(after) == 1


def test_seed_001_search_values_a_win_and_a_draw():
    win = seed001.as_numbers(np.array([[" ", " ", "x"], ["o", "o", "x"], ["x", "o", "x"]]))
    assert seed000.winner(win) == 0  # (3x3: no line of four can exist; the search is the same)
    board = np.full((4, 4), " ")
    board[1:, :3] = [["x", "o", "x"], ["o", "x", "o"], ["x", "o", "x"]]
    board[1:, 3] = ["o", "o", "x"]
    value, move = seed001.alpha_beta_search(board, "x")
    assert value in (1, 0, -1) and move in seed001.get_actions(board)


def test_seed_002_minimax_is_alphabeta_on_the_example_tree():
    root = seed002.TreeState.from_lists(_lists(tree_from_branching(EXAMPLE_BRANCHING, list(EXAMPLE_LEAVES))))
    value = seed002.minimax(root, 3, True, -math.inf, math.inf)
    assert value == alphabeta(tree_from_branching(EXAMPLE_BRANCHING, list(EXAMPLE_LEAVES))).value


def test_seed_002_counts_lines_and_the_centre():
    state = seed002.State()
    for col in (4, 4, 5, 5, 6, 6, 7):  # columns from 1, player 1 first: a bottom row of four for player 1
        seed002.execute_movement(state, seed002.Movem(col))
    assert seed002.nlines4(state, 1) == 1 and seed002.nlines4(state, 2) == 0
    assert seed002.central(state, 1) == 2 + 1 and seed002.central(state, 2) == 2 + 1


def test_seed_004_move_makes_a_new_state_and_counts_lines():
    state = seed004.Connect_Four_State()
    for col in (0, 1, 0, 1, 0, 1):
        state = state.move(col)
    won = state.move(0)
    assert won.winner == 1 and state.winner == -1 and won is not state
    assert won.count_lines(4, 1, 2, 0) and not won.count_lines(4, 2, 2, 0)
    assert [child.board[5][c] for c, child in enumerate(seed004.Connect_Four_State().generate_new_states())] == [1] * 7


def _lists(node):
    return node.value if node.is_leaf else [_lists(child) for child in node.children]


def test_reference_is_the_same_tree_as_engine_tree():
    tree = game_tree(seed003.makeExample([3, 4, 2, 5, 2, 0, 2]), seed003.O, 2, stop_on_win=True)
    reference = Reference.of(tree, Player.MAX, (-sys.maxsize, sys.maxsize))
    assert reference.value == -50 and reference.best_moves() == {2}
