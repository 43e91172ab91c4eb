"""Score words: Pons's scores turned into "Win in N" / "Draw" / "Loss in N" counted in the player's own moves."""

from __future__ import annotations

import pytest

from engine import Board, Geometry
from engine.outcome import outcome, score_words
from engine.solver.solver import Solver, win_now_score

G = Geometry()


def test_first_player_wins_the_empty_board_with_the_21st_stone() -> None:
    # Score 1 on the empty board: the first player's 21st stone (the 41st of the game) wins.
    assert score_words(1, 0, G) == "Win in 21"
    assert score_words(-1, 1, G) == "Loss in 20"  # the second player moves 20 times before it


def test_a_win_now_is_win_in_one_and_the_reply_is_loss_in_one() -> None:
    board = Board.from_moves("121212")  # red can complete column 1
    assert outcome(win_now_score(board), board.ply, G).words == "Win in 1"
    board.play(2)  # red plays elsewhere; yellow's column 2 now wins at once
    score = win_now_score(board)
    assert outcome(score, board.ply, G).words == "Win in 1"
    assert outcome(-score, board.ply - 1, G).words == "Loss in 1"  # what red's move 3 was worth to red


def test_draw_and_short_forms() -> None:
    assert score_words(0, 17, G) == "Draw"
    assert outcome(0, 3, G).short == "D" and outcome(0, 3, G).sign == 0
    assert outcome(-2, 4, G).short == "L18" and outcome(-2, 4, G).sign == -1


@pytest.mark.parametrize(
    "moves", ["4453", pytest.param("44444", marks=pytest.mark.slow), "3246313", "2252576253462244111563365343671351441"]
)
def test_words_agree_with_playing_the_solver_out(moves: str) -> None:
    """Following best moves from a decided position ends on the move the words promise."""
    solver = Solver(G, 8)
    board = Board.from_moves(moves)
    first = outcome(solver.solve(board).score, board.ply, G)
    mover = board.turn
    own_moves = 0
    while not board.is_over:
        if board.turn == mover:
            own_moves += 1
        board.play(solver.best_move(board).column)
    if first.kind == "draw":
        assert board.winner is None
    elif first.kind == "win":
        assert board.winner == mover and own_moves == first.moves
    else:
        assert board.winner not in (None, mover) and own_moves == first.moves
