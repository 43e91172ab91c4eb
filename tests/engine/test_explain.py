"""``explain``: checked reasons in Allis's terms - never a false claim, on every board size."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from engine.bench.solver import PONS
from engine.board import Board
from engine.explain.cells import cells_of
from engine.explain.check import verify
from engine.explain.explainer import Explainer
from engine.explain.explanation import CANNOT_WIN, MOVER_WINS, OPPONENT_WINS, Explanation
from engine.explain.field import Field
from engine.explain.forcing import leaf_claims
from engine.explain.play import Strategist
from engine.explain.rule import Instance
from engine.geometry import Geometry
from tests.engine.exhaustive import columns_of, make_solver, random_position

#: Red to move, 4 empty cells: Yellow's claimeven in column 5 stops Red's only line, e3-e6.
CLAIMEVEN = "23163416124767223154467471272416755633"
#: Red to move and win (Pons's Test_L3_R1, score 1), with an even number of empty cells.
RED_WINS = "7422341735647741166133573473242566"
#: A whole game that fills the board without a line.
DRAWN = "126613431456475467333341527215612225546777"
KEYS = ["position", "score", "claim", "rules", "line", "text"]

needs_pons = pytest.mark.skipif(not PONS.is_dir(), reason="shared/benchmarks/pons is not beside the repository")


def fits(claim: str, score: int) -> bool:
    return {MOVER_WINS: score > 0, CANNOT_WIN: score <= 0, OPPONENT_WINS: score < 0}[claim]


def false_claims(explanation: Explanation, board: Board, score_of) -> tuple[int, int]:
    """(claims, false claims) of an explanation: its own and every reason inside it, by ``score_of(board)``."""
    if explanation.claim is None:
        return 0, 0
    false = int(not fits(explanation.claim, score_of(board)))
    claims = 1
    for after, defender_wins in leaf_claims(board, explanation.proof):
        position = Board.from_moves(list(board.history) + [int(c) - 1 for c in after], board.geometry)
        value = score_of(position)
        claims += 1
        false += value > 0 or (defender_wins and value >= 0)
    return claims, false


def test_the_groups_of_the_standard_board_and_their_names() -> None:
    cells = cells_of(Geometry())
    assert len(cells.groups) == 69
    names = {cells.group_name(group) for group in cells.groups}
    assert {"a1-d1", "d1-d4", "a1-d4", "a4-d1", "d3-g6"} <= names
    assert cells.name(Geometry().cell(3, 1)) == "d2"


def test_a_claimeven_reason_in_words_and_as_data() -> None:
    explanation = Explainer().explain(CLAIMEVEN)
    assert explanation.score == 0 and explanation.claim == CANNOT_WIN
    assert [reason.rule for reason in explanation.rules] == ["claimeven"]
    assert explanation.rules[0].cells == ("e5", "e6") and explanation.rules[0].groups == ("e3-e6",)
    assert "Yellow" in explanation.text and "(claimeven)" in explanation.text and "e3-e6" in explanation.text
    assert list(explanation.to_json()) == KEYS


def test_the_command_answers_each_line_and_json_has_the_issues_keys(cli) -> None:
    status, out, err = cli(["explain", "--json", CLAIMEVEN, "44444444", "1212121"])
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and len(lines) == 3
    assert all(list(line) == KEYS for line in lines)
    assert lines[0]["claim"] == CANNOT_WIN and lines[0]["rules"][0]["rule"] == "claimeven"
    assert lines[1]["claim"] is None and "column 4 is full" in lines[1]["text"]
    assert lines[2]["claim"] == OPPONENT_WINS and lines[2]["text"] == "Red has won: a1-a4."
    assert err.count("\n") == 1 and "Traceback" not in err
    status, out, _ = cli(["explain"], stdin=CLAIMEVEN + "\n")
    assert status == 0 and out.startswith(CLAIMEVEN + " 0 Red cannot win:")


def test_a_full_board_is_a_draw_and_bad_rules_are_one_line(cli) -> None:
    explanation = Explainer().explain(Board.from_moves(DRAWN))
    assert explanation.over and explanation.text == "The board is full: a draw."
    status, out, err = cli(["explain", "--rules", "claimeven,nonsense", "4"])
    assert status == 2 and out == "" and err.startswith("error: --rules: no rule named 'nonsense'")


def test_a_strategy_that_does_not_hold_is_refuted_by_play() -> None:
    """Red to move wins here: whatever a rule claims to solve, playing it out finds Red's win."""
    board = Board.from_moves(RED_WINS)
    cells = cells_of(board.geometry)
    field = Field(cells, board.current, board.mask ^ board.current)
    everything = (1 << len(field.problems)) - 1
    boasting = [Instance("claimeven", 0, everything), Instance("aftereven", 0, everything, wins=True)]
    assert field.controlled and field.problems
    assert verify(field, boasting, want_win=False) is False
    assert verify(field, boasting, want_win=True) is False


def test_on_five_rows_claimeven_takes_the_odd_rows() -> None:
    """Follow-up takes the top row and every second one below it: rows 5 and 3 of 5, not 6, 4 and 2."""
    geometry = Geometry(5, 5, 4)
    explanation = Explainer(geometry, plies=0).explain("4451551455214")
    assert explanation.claim == CANNOT_WIN and explanation.score == -1
    claimed = [reason for reason in explanation.rules if reason.rule == "claimeven"]
    assert claimed and all(int(cell[1:]) % 2 == 1 for reason in claimed for cell in reason.cells[1::2])
    assert "b5 and c3" in explanation.text


@needs_pons
def test_the_strategy_shown_holds_when_played_against_random_moves() -> None:
    """What "Show me" plays: the strategist never loses, and wins where the reason says it wins."""
    rng = random.Random(4)
    explainer = Explainer()
    rows = Path(PONS, "Test_L3_R1.txt").read_text().split("\n")[:25]
    played = 0
    for line in rows:
        board = Board.from_moves(line.split()[0])
        explanation = explainer.explain(board)
        if explanation.claim is None:
            continue
        strategist = Strategist(board, explanation)
        for _ in range(2):
            game = board.copy()
            while not game.is_over:
                if game.ply % 2 == strategist.side:
                    move = strategist.move(game)
                    assert move is not None, game.move_string
                    game.play(move.column)
                else:
                    game.play(rng.choice(game.legal_columns()))
            played += 1
            assert game.winner is None or int(game.winner) == strategist.side, game.move_string
            if explanation.claim in (MOVER_WINS, OPPONENT_WINS):
                assert game.winner is not None and int(game.winner) == strategist.side, game.move_string
    assert played >= 40


@pytest.mark.parametrize(("cols", "rows", "connect"), [(4, 4, 4), (5, 4, 4), (4, 5, 4), (5, 5, 4), (5, 4, 3)])
def test_every_claim_on_small_boards_holds_by_an_independent_solver(cols: int, rows: int, connect: int) -> None:
    """Odd and even row counts, connect 3 and 4: each claim and every reason inside it re-solved exhaustively."""
    geometry = Geometry(cols, rows, connect)
    score, _, _ = make_solver(cols, rows, connect)
    explainer = Explainer(geometry, plies=4)
    rng = random.Random(cols * 100 + rows * 10 + connect)

    def score_of(board: Board) -> int:
        return score(columns_of(list(board.history), cols), board.ply)

    claims = explained = false = 0
    for _ in range(40):
        moves = random_position(geometry, rng.randrange(geometry.cells // 2, geometry.cells - 2), rng)
        board = Board.from_moves(moves, geometry)
        if board.is_over:
            continue
        explanation = explainer.explain(board)
        assert explanation.score == score_of(board)
        found, wrong = false_claims(explanation, board, score_of)
        claims += found
        false += wrong
        explained += explanation.claim is not None
    assert false == 0
    assert explained >= 10 and claims >= explained


@needs_pons
def test_a_sample_of_pons_end_games_is_explained_and_every_claim_holds() -> None:
    rows = Path(PONS, "Test_L3_R1.txt").read_text().split("\n")[:40]
    explainer = Explainer()
    solver = explainer.solver
    explained = 0
    for line in rows:
        moves, expected = line.split()
        board = Board.from_moves(moves)
        explanation = explainer.explain(board)
        assert explanation.score == int(expected)
        _, false = false_claims(explanation, board, lambda b: int(solver.solve(b).score.value))
        assert false == 0, moves
        explained += explanation.claim is not None
    assert explained >= 36


@pytest.mark.slow
@needs_pons
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_whole_pons_sets_have_no_false_claim(name: str) -> None:
    explainer = Explainer()
    solver = explainer.solver
    for line in Path(PONS, f"{name}.txt").read_text().split("\n"):
        if not line.strip():
            continue
        moves, expected = line.split()
        board = Board.from_moves(moves)
        explanation = explainer.explain(board)
        assert explanation.score == int(expected)
        assert false_claims(explanation, board, lambda b: int(solver.solve(b).score.value))[1] == 0, moves


def test_png_draws_the_reason_and_bad_picture_options_are_one_line(cli, tmp_path) -> None:
    picture = tmp_path / "claimeven.png"
    status, out, _ = cli(["explain", "--png", str(picture), "--only", "claimeven", CLAIMEVEN])
    assert status == 0 and out.startswith(CLAIMEVEN + " 0 Red cannot win")
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 10_000
    kept = tmp_path / "notes.png"
    kept.write_text("my notes")
    for argv, message in (
        (["--png", str(kept), CLAIMEVEN], "that file is not a PNG"),
        (["--png", str(tmp_path / "a.png"), CLAIMEVEN, CLAIMEVEN], "--png draws one position"),
        (["--only", "claimeven", CLAIMEVEN], "--only goes with --png"),
        (["--png", str(tmp_path / "b.png"), "--only", "nothing", CLAIMEVEN], "--only: no rule named 'nothing'"),
    ):
        status, out, err = cli(["explain", *argv])
        assert status == 2 and out == "" and message in err and err.count("\n") == 1, argv
    assert kept.read_text() == "my notes"


@needs_pons
def test_the_bench_rechecks_every_claim_and_counts_no_false_one(cli, tmp_path) -> None:
    rows = tmp_path / "rows.csv"
    argv = ["bench", "explain", "--sets", "Test_L3_R1", "--limit", "6", "--play", "random", "--games", "2"]
    status, out, _ = cli([*argv, "--csv", str(rows)])
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("rules: claimeven")
    assert lines[2].startswith("Test_L3_R1") and lines[2].split()[1] == "6"
    assert lines[-1].startswith("claims re-checked by the solver: ") and lines[-1].endswith("false claims: 0")
    table = rows.read_text().splitlines()
    assert table[0] == "rules,set,position,score,claim,cpu_seconds,claims,false" and len(table) >= 7


@needs_pons
def test_a_cpu_time_limit_stops_once_the_process_has_spent_it(cli) -> None:
    from engine.bench.explain import cpu_limit

    start = time.process_time()
    with cpu_limit(0.05) as limits:
        assert limits.stop is not None and not limits.stop.is_set() and limits.seconds is None
        while not limits.stop.is_set() and time.process_time() - start < 60:
            sum(range(1000))  # (busy: CPU time passes)
    assert limits.stop.is_set() and time.process_time() - start >= 0.05
    status, out, _ = cli(["bench", "explain", "--sets", "Test_L3_R1", "--limit", "3", "--play", "", "--cpu"])
    assert status == 0 and "10 CPU s a position" in out.splitlines()[0] and out.rstrip().endswith("false claims: 0")
