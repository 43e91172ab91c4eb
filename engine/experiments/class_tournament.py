"""The class tournament of ``grade``: the students' agents against each other and the ladder's levels.

Every pair of students plays (a round robin), and every student plays each
of the ladder's :data:`LEVELS`; the levels do not play each other (their Elo
is measured, docs/ladder.md). A pairing plays ``games`` games from seeded
openings: one by default, the side that moves first chosen so that over the
round robin every player moves first in half its games (:func:`first_of`);
with two or more, each opening with both colours. A student's agent is its
assignment's :class:`~engine.grade.model.Play` function run in the sandbox
(:class:`~engine.grade.agent.StudentAgent`), :data:`MOVE_SECONDS` at most a
move, its ``random`` and ``numpy.random`` seeded afresh for each game.

The students' own code is most of the time a tournament takes, and starting
a student's process (the sandbox, Python, numpy, the file) was the rest: so
the pairings are played in blocks (:class:`BlockTask`: a group of
:data:`GROUP` students against another group, or against itself and the
ladder), each student's process started once a block rather than once a
pairing. A block is the unit a run resumes from. Games are rows of
:class:`~engine.experiments.games.GameTask`'s form, so the standings, the Elo
with its 95 % interval and the chart are the tournament's own
(:mod:`engine.experiments.tournament`).

Then each student's **accuracy against the perfect solver**: every position
where its agent moved (at most :data:`SAMPLE` a student, spread over its
games), solved within :data:`SOLVE_SECONDS`, counts as optimal when the
column played has the best exact score; by game phase (opening, middle, end:
thirds of the board's cells). A position the solver does not finish in time
is left out, and the table says how many were solved: on 8x8 (seed 003) few
openings are.
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import math
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.agents.base import Agent
from engine.agents.registry import create_agent
from engine.board import Board, Side
from engine.experiments import charts
from engine.experiments.games import GameTask
from engine.experiments.openings import sample_openings
from engine.experiments.tournament import TournamentResult, summarize
from engine.geometry import Geometry
from engine.grade.agent import StudentAgent
from engine.grade.model import Assignment
from engine.grade.report import Extra, Student
from engine.grade.submissions import Submission
from engine.match import play_game
from engine.tasks import Row, derive_seed, run_tasks

#: The ladder's levels every student plays (the quick ones: a class's games must fit in minutes).
LEVELS = ("beginner", "novice", "easy", "medium")
#: How a level is named in the tournament (a student may be called "easy" too).
LADDER = " (ladder)"
#: Seconds a student's agent may take a move.
MOVE_SECONDS = 3.0
#: Students in a group: a block of pairings keeps one process per student (at most twice this many at once).
GROUP = 5
#: Positions labelled a student, and the solver's time for each.
SAMPLE = 24
SOLVE_SECONDS = 0.5
PHASES = ("opening", "middle", "end")


def _files(submission: Submission) -> str:
    return json.dumps([[name, base64.b64encode(data).decode("ascii")] for name, data in submission.files])


@dataclass(frozen=True)
class BlockTask:
    """The games of a block of pairings (see the module docstring); plain data, so a cluster's worker can run it.

    Each student of the block (its files travel with the task) gets one process, started at its first
    move and ended after its last game of the block; a level of the ladder is made afresh for each game,
    seeded by the game. The side named first in a pairing moves first in its first game.
    """

    assignment: str
    pairings: tuple[tuple[str, str], ...]
    students: tuple[tuple[str, str, str], ...]  # (name, main file, JSON of the files) of each student in it
    games: int  # per pairing
    seed: int
    digest: str  # of the pairings and every student's files: a changed submission plays its blocks again

    @property
    def key(self) -> str:
        return f"{self.assignment}|block|{self.games}|{self.seed}|{self.digest}"

    def game_tasks(self) -> list[GameTask]:
        """The block's games, pairing by pairing: each opening with both colours, the side named first starting."""
        play = _play(self.assignment)
        geometry = Geometry(play.cols, play.rows)
        size = (geometry.cols, geometry.rows, geometry.connect)
        tasks = []
        for red, yellow in self.pairings:
            openings = sample_openings(geometry, (self.games + 1) // 2, derive_seed(self.seed, red, yellow))
            for k in range(self.games):
                seed = derive_seed(self.seed, red, yellow, k)
                tasks.append(GameTask(red, yellow, openings[k // 2], k % 2 == 0, seed, *size))
        return tasks

    def run(self) -> list[Row]:
        games = self.game_tasks()
        last = {name: k for k, game in enumerate(games) for name in (game.red, game.yellow)}
        students: dict[str, StudentAgent] = {}
        rows = []
        try:
            for k, game in enumerate(games):
                red = self._agent(students, game.red, game.seed)
                yellow = self._agent(students, game.yellow, game.seed + 1)
                try:
                    first, second = (red, yellow) if game.red_first else (yellow, red)
                    start = Board.from_moves(game.opening, Geometry(game.cols, game.rows, game.connect))
                    rows.append(game.row(play_game(first, second, start)))
                finally:
                    for name, agent in ((game.red, red), (game.yellow, yellow)):
                        if name not in students or last[name] == k:  # a level, or the student's last game here
                            agent.close()
        finally:
            for agent in students.values():
                agent.close()
        return rows

    def _agent(self, students: dict[str, StudentAgent], name: str, seed: int) -> Agent:
        """The agent of ``name`` for a game seeded ``seed``: the student's own (kept), or a new level."""
        files = next(((main, data) for student, main, data in self.students if student == name), None)
        if files is None:
            return create_agent(name.removesuffix(LADDER), seed=seed)
        if name not in students:
            main, data = files
            decoded = {path: base64.b64decode(text) for path, text in json.loads(data)}
            students[name] = StudentAgent(student=name, files=decoded, main=main, play=_play(self.assignment),
                                          seconds=MOVE_SECONDS, seed=self.seed)  # fmt: skip
        agent = students[name]
        agent.new_game(seed)
        return agent

    def fits(self, rows: list[Row]) -> bool:
        games = self.game_tasks()
        return len(rows) == len(games) and all(game.fits([row]) for game, row in zip(games, rows, strict=True))


def _play(assignment: str):
    from engine.grade import assignment_named

    play = assignment_named(assignment).play
    assert play is not None
    return play


@dataclass(frozen=True)
class LabelTask:
    """The solver's exact score of every column of some positions (move strings), within a time each."""

    cols: int
    rows: int
    positions: str  # space-separated move strings
    seconds: float

    @property
    def key(self) -> str:
        return f"label|{self.cols}x{self.rows}|{self.seconds}|{self.positions}"

    def run(self) -> list[Row]:
        from engine.limits import Limits
        from engine.solver.auto import AutoSolver

        geometry = Geometry(self.cols, self.rows)
        solver = AutoSolver(geometry, table_mb=64)
        rows = []
        for moves in self.positions.split():
            board = Board.from_moves(moves, geometry)
            analysis = solver.analyze(board, Limits(seconds=self.seconds))
            scores = ",".join("x" if s is None else str(int(s.value)) for s in analysis.scores)
            rows.append({"position": moves, "solved": analysis.finished, "scores": scores if analysis.finished else ""})
        return rows


def schedule(assignment: Assignment, submissions: Sequence[Submission], seed: int, games: int) -> list[BlockTask]:
    """The round robin of the students who play, and each against the ladder's levels, in blocks of pairings
    (:func:`groups`); the side named first in a pairing is :func:`first_of` the two."""
    playing = [s for s in submissions if s.main]
    players = [s.student for s in playing] + [level + LADDER for level in LEVELS]
    order = {name: k for k, name in enumerate(players)}
    digests = {s.student: s.digest for s in playing}
    files = {s.student: (s.student, s.main, _files(s)) for s in playing}
    split = groups([s.student for s in playing])
    tasks = []
    for g, h in itertools.combinations_with_replacement(range(len(split)), 2):
        pairs = [(a, b) for a in split[g] for b in split[h] if g != h or order[a] < order[b]]
        if g == h:
            pairs += [(a, level + LADDER) for a in split[g] for level in LEVELS]
        if not pairs:  # no student plays
            continue
        pairings = tuple(first_of(a, b, order) for a, b in pairs)
        students = tuple(files[name] for name in (split[g] if g == h else split[g] + split[h]))
        text = json.dumps([pairings, [digests[name] for name, _, _ in students]])
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
        tasks.append(BlockTask(assignment.name, pairings, students, games, seed, digest))
    return tasks


def groups(names: Sequence[str]) -> list[list[str]]:
    """``names`` in groups of at most :data:`GROUP`, as even as they can be, in order."""
    count = max(1, math.ceil(len(names) / GROUP))
    size, extra = divmod(len(names), count)
    out, start = [], 0
    for k in range(count):
        end = start + size + (k < extra)
        out.append(list(names[start:end]))
        start = end
    return out


def first_of(a: str, b: str, order: dict[str, int]) -> tuple[str, str]:
    """The pairing of ``a`` and ``b``, the side that moves first in its first game named first.

    Of two players the one earlier in ``order`` starts when their places add up to an odd number:
    over a round robin every player then starts in half its games (one more or fewer), so one game a
    pairing is fair to everyone's colours.
    """
    low, high = sorted((a, b), key=order.__getitem__)
    return (low, high) if (order[low] + order[high]) % 2 else (high, low)


def student_moves(rows: Sequence[Row], student: str) -> list[tuple[str, int]]:
    """``(position, column)`` of every move ``student``'s agent made in the games of ``rows``."""
    found = []
    for row in rows:
        if student not in (row["red"], row["yellow"]):
            continue
        red_side = Side.FIRST if row["red_first"] else Side.SECOND
        mine = red_side if row["red"] == student else red_side.other
        board = Board.from_moves(row["opening"], Geometry(row["cols"], row["rows"], row["connect"]))
        for column in (int(c) - 1 for c in row["moves"]):
            if board.turn is mine:
                found.append((board.move_string or "", column))
            board.play(column)
    return found


def run_class_tournament(
    assignment: Assignment,
    submissions: Sequence[Submission],
    left_out: dict[str, str],
    students: Sequence[Student],
    out: Path,
    *,
    seed: int,
    games: int,
    executor: Executor | None,
    progress: bool,
) -> Extra:
    """Play the tournament of ``submissions`` (``left_out``: the others, and why), label the students' moves,
    and return the report's section (its charts written to ``out``)."""
    play = assignment.play
    assert play is not None
    tasks = schedule(assignment, submissions, seed, games)
    rows = run_tasks(
        tasks, executor=executor, checkpoint=out / "tournament.jsonl", desc="blocks of games", progress=progress
    )
    names = [s.student for s in submissions if s.main]
    result = summarize([*names, *(level + LADDER for level in LEVELS)], rows)
    result.chart(out / "tournament.png", f"{assignment.name} class tournament")
    picked = {name: _sample(student_moves(rows, name), derive_seed(seed, name)) for name in names}
    positions = sorted({position for moves in picked.values() for position, _ in moves})
    chunks = [positions[i : i + 20] for i in range(0, len(positions), 20)]
    labels = run_tasks(
        [LabelTask(play.cols, play.rows, " ".join(chunk), SOLVE_SECONDS) for chunk in chunks],
        executor=executor,
        checkpoint=out / "tournament.jsonl",
        desc="positions",
        progress=progress,
    )
    scores = {row["position"]: row["scores"] for row in labels if row["solved"]}
    accuracy = {name: _accuracy(picked[name], scores, play.cols * play.rows) for name in names}
    _chart(accuracy, out / "accuracy.png", assignment.name)
    return _section(result, accuracy, students, games, (play.cols, play.rows), left_out)


def _sample(moves: list[tuple[str, int]], seed: int) -> list[tuple[str, int]]:
    if len(moves) <= SAMPLE:
        return moves
    step = len(moves) / SAMPLE
    return [moves[int(k * step)] for k in range(SAMPLE)]


def _accuracy(moves: list[tuple[str, int]], scores: dict[str, str], cells: int) -> dict[str, tuple[int, int]]:
    """Per phase: (moves of best exact score, moves whose position the solver finished)."""
    found = {phase: [0, 0] for phase in PHASES}
    for position, column in moves:
        if position not in scores:
            continue
        values = [None if s == "x" else int(s) for s in scores[position].split(",")]
        best = max(v for v in values if v is not None)
        third = cells / 3
        phase = PHASES[0] if len(position) < third else PHASES[1] if len(position) < 2 * third else PHASES[2]
        found[phase][1] += 1
        found[phase][0] += values[column] == best
    return {phase: (right, total) for phase, (right, total) in found.items()}


def _share(pair: tuple[int, int]) -> str:
    right, total = pair
    return f"{right / total:.0%} ({total})" if total else "-"


def _section(
    result: TournamentResult,
    accuracy: dict[str, dict[str, tuple[int, int]]],
    students: Sequence[Student],
    games: int,
    size: tuple[int, int],
    left_out: dict[str, str],
) -> Extra:
    table_rows = []
    for rank, standing in enumerate(result.standings, start=1):
        phases = accuracy.get(standing.agent)
        cells = [_share(phases[p]) for p in PHASES] if phases else ["-"] * len(PHASES)
        table_rows.append(
            [rank, standing.agent, standing.games, standing.wins, standing.draws, standing.losses,
             f"{standing.share:.0%}", round(standing.elo), f"{round(standing.low)} to {round(standing.high)}", *cells]
        )  # fmt: skip
    headers = ["rank", "agent", "games", "wins", "draws", "losses", "score", "elo", "95% interval",
               *(f"optimal: {p} (solved)" for p in PHASES)]  # fmt: skip
    forfeits = sum(1 for row in result.rows if row.get("forfeit"))
    intro = (
        f"A round robin of the students' agents, each also against the ladder's levels {', '.join(LEVELS)}, from "
        f"seeded openings, on {size[0]}x{size[1]}: {_games_said(games)}; {len(result.rows)} games, {forfeits} ended "
        f"by a forfeit. Elo: Bradley-Terry maximum likelihood (mean of the field 0), with its 95% interval. Optimal: "
        f"the share of a student's moves (at most {SAMPLE}, spread over its games) whose column has the best exact "
        f"score, among the positions the solver finished within {SOLVE_SECONDS:g} s (their number in brackets)."
    )
    page = f"<p>{html.escape(intro)}</p>" + _html_table(headers, table_rows)
    if left_out:
        items = "".join(f"<li>{html.escape(name)}: {html.escape(why[:300])}</li>" for name, why in left_out.items())
        page += f"<p>Not in the tournament:</p><ul>{items}</ul>"
    by_student = {}
    names = {s.name for s in students}
    for rank, standing in enumerate(result.standings, start=1):
        if standing.agent in names:
            phases = accuracy[standing.agent]
            by_student[standing.agent] = (
                f"Rank {rank} of {len(result.standings)}: {standing.wins} wins, {standing.draws} draws, "
                f"{standing.losses} losses in {standing.games} games; Elo {round(standing.elo)} "
                f"({round(standing.low)} to {round(standing.high)}). Optimal moves by phase: "
                + ", ".join(f"{p} {_share(phases[p])}" for p in PHASES)
                + "."
            )
    for name, why in left_out.items():
        by_student[name] = f"Not in the tournament: {why}"
    return Extra("Class tournament", page, ["tournament.png", "accuracy.png"], by_student)


def _games_said(games: int) -> str:
    if games == 1:
        return "one game a pairing, who moves first alternating so that every player moves first in half its games"
    return f"{games} games a pairing, each opening with both colours"


def _html_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _chart(accuracy: dict[str, dict[str, tuple[int, int]]], path: Path, title: str) -> None:
    names = list(accuracy)
    figure, (axis,) = charts.new_figure(max(8.0, 0.35 * len(names) + 3), 5.0)
    x = np.arange(len(names))
    width = 0.27
    for k, phase in enumerate(PHASES):
        pairs = [accuracy[n][phase] for n in names]
        shares = [100 * right / total if total else math.nan for right, total in pairs]
        bars = axis.bar(x + (k - 1) * width, shares, width, label=phase)
        for bar, (right, total) in zip(bars, pairs, strict=True):
            if total:  # how many positions the share is of: a share of 2 says little
                top = bar.get_height()
                axis.annotate(f"{right}/{total}", (bar.get_x() + width / 2, top + 1), ha="center", fontsize=6)
    axis.set_xticks(x, names, rotation=60, ha="right", fontsize=7)
    axis.set_ylim(0, 112)
    charts.decorate(
        axis,
        "student",
        "optimal moves (%) among solved positions (optimal/solved above each bar)",
        f"{title}: accuracy against the perfect solver",
    )
    axis.legend(title="phase", fontsize=8)
    charts.save(figure, path)
