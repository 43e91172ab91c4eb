"""What the seeds show that a review found missing: terminal play lines, the menu, --grid, A*."""

from __future__ import annotations

import random

import pytest

from engine import Board, create_agent
from engine.formats import format_grid, parse_grid
from engine.grid_file import move_order

STATE_2 = "\n".join(["- - - - - - -"] * 5 + ["X X X - - O O"])


def test_play_prints_seed_003_lines_after_each_computer_move(cli):
    status, out, _ = cli(["play", "--red", "random:seed=1", "--yellow", "greedy", "--cols", "5", "--rows", "4"])
    assert status == 0
    computer_moves = out.count(" plays column ")
    assert computer_moves > 0
    assert out.count("Time elapsed: ") == computer_moves
    assert out.count("Number of Nodes examined: ") == computer_moves
    assert all(line.endswith(" secs.") for line in out.splitlines() if line.startswith("Time elapsed: "))


def test_play_without_agents_in_a_terminal_offers_seed_004_menu(cli, monkeypatch):
    import engine.cli.play as play

    monkeypatch.setattr(play, "_interactive", lambda: True)
    moves = "".join(f"{col}\n" for col in [1, 2, 3, 4, 5, 6, 7] * 6)
    status, out, _ = cli(["play", "--cols", "5", "--rows", "4"], stdin="9\n1\n" + moves + "y\n2\n" + moves + "n\n")
    assert status == 0
    assert out.count("Player vs Algorithms") == 2  # the menu, then again after "y"
    assert "O (random)" in out and "O (astar)" in out  # options 1 and 2 (9 is not an option: asked again)
    assert out.rstrip().endswith("Bye!")


def test_the_human_only_prompt_is_unchanged_when_not_a_terminal(cli):
    status, out, _ = cli(["play", "--yellow", "random:seed=1"], stdin="q\n")
    assert status == 0 and "Player vs Algorithms" not in out


def test_move_order_reaches_any_grid():
    rng = random.Random(3)
    for _ in range(100):
        board = Board()
        for _ in range(rng.randint(0, 42)):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_columns()))
        grid = parse_grid(format_grid(board))
        assert grid.move_string is None
        assert Board.from_moves(move_order(grid)) == grid


@pytest.fixture
def grid_file(tmp_path):
    path = tmp_path / "state_2.txt"
    path.write_text("# ----- #\n" + STATE_2 + "\n# ----- #\n")
    return path


def test_grid_file_on_solve_analyze_and_move(cli, grid_file):
    moves = move_order(parse_grid(STATE_2))
    status, out, _ = cli(["solve", "--grid", str(grid_file)])
    assert status == 0 and out.split() == [moves, "2"]  # O blocks at 4 and wins on its own later: Pons score 2
    status, out, _ = cli(["analyze", "--grid", str(grid_file)])
    assert status == 0 and out.split()[4] == "2" and out.split()[1] == "-18"  # only the block saves O
    status, out, _ = cli(["move", "--agent", "minimax:depth=2", "--grid", str(grid_file)])
    assert status == 0 and out.split()[1] == "4"


def test_grid_file_on_play(cli, grid_file):
    status, out, _ = cli(["play", "--grid", str(grid_file), "--red", "random:seed=1", "--yellow", "alphabeta:depth=4"])
    assert status == 0
    assert out.split("\n\n")[1].startswith("O (alphabeta:depth=4) plays column 4.")  # the block


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "--grid", "/no/such/grid.txt"], "cannot read the grid file"),
        (["move", "--agent", "random", "--cols", "5", "--grid", "GRID"], "add --cols 7 --rows 6"),
        (["analyze", "--grid", "BAD"], "is not one of - X O"),
    ],
)
def test_bad_grid_files_are_one_line(cli, tmp_path, grid_file, argv, message):
    bad = tmp_path / "bad.txt"
    bad.write_text("- - -\nX Q O\n")
    argv = [str(grid_file) if a == "GRID" else str(bad) if a == "BAD" else a for a in argv]
    status, _, err = cli(argv)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1


def test_astar_plans_its_own_line_and_ignores_replies():
    astar = create_agent("astar")
    # X to move with two stones in a row at the bottom: the shortest plan completes that row.
    result = astar.choose(Board.from_moves("1122"))
    assert result.column in (2, 3) and result.depth == 2 and set(result.pv) == {2, 3}
    # Seed 004's state 3: the adversarial searches block X at column 4; A* follows its own plan.
    state_3 = parse_grid("\n".join(["- - - - - - -"] * 3 + ["O - X X - - -", "O X O X - - -", "X X O O X O -"]))
    assert create_agent("alphabeta:depth=4").choose(state_3).column == 3
    assert astar.choose(state_3).column != 3
    # Distinct from greedy: on the empty board greedy takes the centre by evaluation, A* plans a line.
    assert astar.choose(Board()).pv != create_agent("greedy").choose(Board()).pv


def test_astar_stops_and_respects_its_node_limit():
    from engine.stop import StopFlag

    stop = StopFlag()
    stop.set()
    result = create_agent("astar").choose(Board.from_moves("44"), stop)
    assert result.column in Board.from_moves("44").legal_columns()
    assert create_agent("astar:nodes=3").choose(Board()).nodes <= 3


def test_seed_000_weight_modes_scale_its_windows():
    from engine.kernels.evaluation import SEED000_CAP, evaluate_board

    rng = random.Random(5)
    checked = 0
    while checked < 20:
        board = Board()
        for _ in range(rng.randint(2, 12)):
            board.play(rng.choice(board.legal_columns()))
        if board.is_over:
            continue
        plain = evaluate_board(board, "seed000")  # 3/2/1 per open window, no line on the board yet
        assert evaluate_board(board, "seed000/1") == max(-SEED000_CAP, min(SEED000_CAP, 30_000 * plain))
        assert evaluate_board(board, "seed000/2") == max(-SEED000_CAP, min(SEED000_CAP, 20_000 * plain))
        assert abs(evaluate_board(board, "seed000/3")) == (SEED000_CAP if plain else 0)  # 30 lines a window
        checked += 1


def test_mode_goes_with_eval_seed000_only():
    assert create_agent("alphabeta:depth=2,eval=seed000,mode=2").spec == "alphabeta:depth=2,eval=seed000,mode=2"
    with pytest.raises(Exception, match="eval=seed000"):
        create_agent("minimax:mode=1")
    with pytest.raises(Exception, match="mode"):
        create_agent("alphabeta:eval=seed000,mode=4")
