"""The class tournament: students against each other and the ladder, and their accuracy against the solver."""

from __future__ import annotations

import collections
import itertools
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from engine.experiments import class_tournament
from engine.experiments.class_tournament import LADDER, LEVELS, PHASES, BlockTask, _accuracy, schedule, student_moves
from engine.grade import assignment_named
from engine.grade.process import GradingProcess
from engine.grade.submissions import Submission

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples" / "grade"
SEED003 = assignment_named("seed003")
#: A quick seed 003 agent that plays at random: its moves show how its generator was seeded.
RANDOM_PLAYER = b"""
import random


def player(board):
    return random.choice([c for c in range(8) if board[0][c] == 0])
"""


def _class(size: int, changed: str = "") -> list[Submission]:
    students = [f"s{k:02d}" for k in range(size)]
    return [
        Submission(name, ((f"{name}.py", RANDOM_PLAYER + (b"# 2" if name == changed else b"")),), f"{name}.py")
        for name in students
    ]


def _games(tasks: list[BlockTask]) -> list:
    return [game for task in tasks for game in task.game_tasks()]


@pytest.mark.parametrize("size", [0, 1, 2, 7, 13])
def test_every_pairing_is_played_once_with_colours_balanced(size):
    tasks = schedule(SEED003, _class(size), seed=4, games=1)
    students = [s.student for s in _class(size)]
    pairings = [frozenset((game.red, game.yellow)) for game in _games(tasks)]
    wanted = [frozenset(pair) for pair in itertools.combinations(students, 2)]
    wanted += [frozenset((name, level + LADDER)) for name in students for level in LEVELS]
    assert sorted(map(sorted, pairings)) == sorted(map(sorted, wanted))  # each once, levels never meet
    first = collections.Counter(game.red if game.red_first else game.yellow for game in _games(tasks))
    played = collections.Counter(name for pair in pairings for name in pair)
    for name, count in played.items():
        assert abs(2 * first[name] - count) <= 1, (name, first[name], count)  # first in half its games
    for task in tasks:  # a block carries exactly the files of the students who play in it
        names = {name for pair in task.pairings for name in pair if not name.endswith(LADDER)}
        assert names == {name for name, _, _ in task.students}
        assert len(names) <= 2 * class_tournament.GROUP


def test_two_games_a_pairing_play_each_opening_with_both_colours():
    games = _games(schedule(SEED003, _class(3), seed=4, games=2))
    by_pair = collections.defaultdict(list)
    for game in games:
        by_pair[game.red, game.yellow].append(game)
    for pair_games in by_pair.values():
        assert len(pair_games) == 2 and pair_games[0].opening == pair_games[1].opening
        assert {game.red_first for game in pair_games} == {True, False}


def test_the_same_seed_gives_the_same_tournament_and_a_change_replays_only_its_blocks():
    tasks = schedule(SEED003, _class(12), seed=4, games=1)
    assert tasks == schedule(SEED003, _class(12), seed=4, games=1)
    other = schedule(SEED003, _class(12), seed=5, games=1)
    assert [g.opening for g in _games(other)] != [g.opening for g in _games(tasks)]
    # s03 hands in a new file: a run resumed from the old resume file plays again only its blocks.
    changed = schedule(SEED003, _class(12, changed="s03"), seed=4, games=1)
    kept = {task.key for task in tasks} & {task.key for task in changed}
    replayed = [task for task in changed if task.key not in kept]
    assert replayed and kept
    for task in changed:
        assert (task in replayed) == any(name == "s03" for name, _, _ in task.students)


def test_a_block_starts_each_students_process_once_and_seeds_each_game(monkeypatch):
    starts = collections.Counter()
    start = GradingProcess.start

    def counted(self, timeout):
        starts[self.main] += 1
        return start(self, timeout)

    monkeypatch.setattr(GradingProcess, "start", counted)
    block = schedule(SEED003, _class(2), seed=4, games=1)[0]
    pairing = next(pair for pair in block.pairings if not pair[1].endswith(LADDER))
    random_level = "beginner" + LADDER  # (a quick level: no kernels to load)
    block = replace(block, pairings=(("s00", random_level), (random_level, "s01"), pairing))
    alone = replace(block, pairings=(pairing,))
    played = block.run()
    assert starts == {"s00.py": 1, "s01.py": 1} and len(played) == len(block.pairings)
    assert not any(row["forfeit"] for row in played)
    # The pairing's game is the same whatever the block played before it: each game seeds the students afresh.
    game = next(row for row in played if {row["red"], row["yellow"]} == set(pairing))
    (again,) = alone.run()
    assert again["moves"] == game["moves"] and again["winner"] == game["winner"]


def _row(red: str, yellow: str, opening: str, moves: str, red_first: bool) -> dict:
    return {"red": red, "yellow": yellow, "opening": opening, "moves": moves, "red_first": red_first,
            "cols": 7, "rows": 6, "connect": 4}  # fmt: skip


def test_a_students_moves_are_the_positions_it_faced():
    # Red (alice) moves first from the empty board: she plays 4 and 5, bob 4 in between.
    rows = [_row("alice", "bob", "", "445", True)]
    assert student_moves(rows, "alice") == [("", 3), ("44", 4)]
    assert student_moves(rows, "bob") == [("4", 3)]
    # After a two-move opening, with bob (yellow) moving first.
    rows = [_row("alice", "bob", "12", "34", False)]
    assert student_moves(rows, "bob") == [("12", 2)] and student_moves(rows, "alice") == [("123", 3)]


def test_accuracy_counts_best_columns_among_solved_positions_by_phase():
    scores = {"": "-2,-1,0,1,0,-1,-2", "44": "x,x,x,1,1,0,-3"}  # "x": a full column
    moves = [("", 3), ("44", 6), ("4455", 0)]  # the last position was not solved: left out
    found = _accuracy(moves, scores, 42)
    assert found["opening"] == (1, 2) and found["middle"] == (0, 0) and set(found) == set(PHASES)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a fresh install compiles the ladder's and the solver's 8x8 kernels here
def test_a_class_plays_and_the_report_has_its_table(cli, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("right", "flipped_sign", "syntax_error"):
        shutil.copy(EXAMPLES / "seed003" / f"{name}.py", folder / f"{name}.py")
    out = tmp_path / "out"
    status, _, err = cli(["grade", str(folder), "--assignment", "seed003", "--out", str(out), "--no-progress",
                          "--jobs", "2", "--games", "2"])  # fmt: skip
    assert status == 0, err
    page = (out / "index.html").read_text()
    assert "Class tournament" in page and "Not in the tournament" in page and "syntax_error" in page
    for agent in ("right", "flipped_sign", "beginner (ladder)", "medium (ladder)"):
        assert f"<td>{agent}</td>" in page
    assert (out / "tournament.png").is_file() and (out / "accuracy.png").is_file()
    assert "Rank" in (out / "feedback" / "right.md").read_text()
