"""Round robin tournaments: every agent against every other, Elo ratings, a crosstable.

Each pairing plays ``games`` games from a seeded sample of short openings
(:mod:`.openings`), each opening twice with the colours swapped, so that
deterministic agents play distinct games and neither gains from moving
first. Games are :class:`~.games.GameTask` rows run on any executor; the
same seed gives the same schedule and, for agents with a node, depth or
playout budget, the same games. Ratings: :mod:`.elo`.

Typical use::

    result = run_tournament(["random", "easy", "medium"], games=10, seed=1)
    print(result.standings_markdown())
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.agents.registry import create_agent, create_computer_agent, runs_a_file
from engine.errors import EngineError
from engine.experiments import charts, elo
from engine.experiments.games import GameTask
from engine.experiments.openings import sample_openings
from engine.experiments.tables import markdown_table
from engine.geometry import DEFAULT, Geometry
from engine.tasks import Row, Task, derive_seed, run_tasks


@dataclass(frozen=True)
class Standing:
    """One agent's line of the final table."""

    agent: str
    games: int
    wins: int
    draws: int
    losses: int
    elo: float
    low: float
    high: float

    @property
    def score(self) -> float:
        """Points: a win 1, a draw 1/2."""
        return self.wins + self.draws / 2

    @property
    def share(self) -> float:
        return self.score / self.games if self.games else 0.0


@dataclass
class TournamentResult:
    """The rows of every game and what they add up to."""

    agents: tuple[str, ...]
    rows: list[Row]
    points: np.ndarray  # points[i, j]: points of agent i against agent j
    games: np.ndarray  # games[i, j]: games between them
    standings: list[Standing]  # best Elo first

    def share(self, i: int, j: int) -> float:
        """Agent i's share of the points against agent j (NaN if they never met)."""
        return self.points[i, j] / self.games[i, j] if self.games[i, j] else float("nan")

    def crosstable_markdown(self) -> str:
        """Points of the row agent against the column agent, out of the games they played."""
        short = [f"{k + 1}" for k in range(len(self.agents))]
        rows = []
        for i, agent in enumerate(self.agents):
            cells = [
                "" if i == j else f"{_points(self.points[i, j])}/{int(self.games[i, j])}"
                for j in range(len(self.agents))
            ]
            rows.append([f"{i + 1}. {agent}", *cells])
        return markdown_table(["agent", *short], rows, right=[False] + [True] * len(short))

    def standings_markdown(self) -> str:
        """One row per agent, best first, with its Elo and 95 % interval."""
        rows = [
            [
                rank,
                s.agent,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                f"{s.share:.1%}",
                round(s.elo),
                round(s.low),
                round(s.high),
            ]
            for rank, s in enumerate(self.standings, start=1)
        ]
        headers = ["rank", "agent", "games", "wins", "draws", "losses", "score", "elo", "elo_low", "elo_high"]
        return markdown_table(headers, rows)

    def chart(self, path: Path, title: str = "Round robin") -> Path:
        """Elo with 95 % intervals beside the crosstable as a heat map."""
        n = len(self.agents)
        figure, (left, right) = charts.new_figure(13, 0.45 * n + 3.5, columns=2)
        order = list(reversed(self.standings))
        ys = range(len(order))
        left.errorbar(
            [s.elo for s in order],
            ys,
            xerr=[[s.elo - s.low for s in order], [s.high - s.elo for s in order]],
            fmt="o",
            capsize=4,
            label="Elo (95 % interval)",
        )
        left.set_yticks(list(ys), [s.agent for s in order], fontsize=8)
        left.axvline(0, color="grey", linewidth=0.8)
        left.set_xlabel("Elo (mean of the field = 0)")
        left.set_title(f"{title}: ratings")
        left.legend(loc="lower right", fontsize=8)
        shares = np.array([[self.share(i, j) if i != j else np.nan for j in range(n)] for i in range(n)])
        labels = [f"{k + 1}. {a}" for k, a in enumerate(self.agents)]
        charts.heat_map(
            right, shares, labels, [str(k + 1) for k in range(n)], f"{title}: score of row vs column", "score share"
        )
        right.set_xlabel("opponent (number)")
        return charts.save(figure, path)


def _points(value: float) -> str:
    return f"{value:g}"


def schedule(
    agents: Sequence[str], games: int, seed: int = 0, geometry: Geometry = DEFAULT, opening_plies: int = 2
) -> list[GameTask]:
    """The games of a round robin: ``games`` per pairing, each opening with both colours."""
    if len(agents) < 2:
        raise EngineError("a tournament needs at least two agents")
    if len(set(agents)) != len(agents):
        raise EngineError("an agent is listed twice: give each spec once (add a key to tell copies apart)")
    if games < 1:
        raise EngineError("--games must be at least 1")
    for spec in agents:
        create_computer_agent(spec).close()  # a bad spec fails here, before any game runs
    tasks = []
    for (i, red), (j, yellow) in itertools.combinations(enumerate(agents), 2):
        openings = sample_openings(geometry, (games + 1) // 2, derive_seed(seed, i, j), opening_plies)
        for k in range(games):
            tasks.append(
                GameTask(
                    red=red,
                    yellow=yellow,
                    opening=openings[k // 2],
                    red_first=k % 2 == 0,
                    seed=derive_seed(seed, red, yellow, k),
                    cols=geometry.cols,
                    rows=geometry.rows,
                    connect=geometry.connect,
                )
            )
    return tasks


def summarize(agents: Sequence[str], rows: Sequence[Row]) -> TournamentResult:
    """Crosstable, win/draw/loss counts and Elo ratings of game rows."""
    index = {agent: k for k, agent in enumerate(agents)}
    n = len(agents)
    points = np.zeros((n, n))
    games = np.zeros((n, n))
    record = np.zeros((n, 3), dtype=int)  # wins, draws, losses
    results = []
    for row in rows:
        i, j = index[row["red"]], index[row["yellow"]]
        score = {"red": 1.0, "draw": 0.5, "yellow": 0.0}[row["winner"]]
        results.append((i, j, score))
        points[i, j] += score
        points[j, i] += 1 - score
        games[i, j] += 1
        games[j, i] += 1
        outcome = {1.0: 0, 0.5: 1, 0.0: 2}[score]
        record[i, outcome] += 1
        record[j, 2 - outcome] += 1
    ratings = elo.rate(results, n)
    standings = []
    for k, (agent, r) in enumerate(zip(agents, ratings, strict=True)):
        wins, draws, losses = (int(count) for count in record[k])
        standings.append(Standing(agent, wins + draws + losses, wins, draws, losses, r.elo, r.low, r.high))
    standings.sort(key=lambda s: (-s.elo, agents.index(s.agent)))
    return TournamentResult(tuple(agents), list(rows), points, games, standings)


@dataclass(frozen=True)
class AmongStudents:
    """A game of a round robin that knows every student file of it, wherever it runs (a worker process too).

    Each student's sandbox then leaves out every other entrant's file and counts the functions they are
    played by as agents' names (:func:`engine.sandbox.view.note_contestant`), also for a classmate who
    is not in this game.
    """

    game: GameTask
    students: tuple[str, ...]

    @property
    def key(self) -> str:
        return self.game.key

    def fits(self, rows: list[Row]) -> bool:
        return self.game.fits(rows)

    def run(self) -> Row:
        for spec in self.students:
            create_agent(spec).close()  # a student's agent notes its file as it is made; no process starts
        return self.game.run()


def run_tournament(
    agents: Sequence[str],
    games: int = 10,
    *,
    seed: int = 0,
    geometry: Geometry = DEFAULT,
    opening_plies: int = 2,
    executor: Executor | None = None,
    checkpoint: Path | None = None,
    progress: bool = False,
) -> TournamentResult:
    """Play the round robin (see :func:`schedule`) and sum it up (see :func:`summarize`)."""
    scheduled = schedule(agents, games, seed, geometry, opening_plies)
    students = tuple(spec for spec in agents if runs_a_file(spec))
    tasks: Sequence[Task] = [AmongStudents(game, students) for game in scheduled] if len(students) > 1 else scheduled
    rows = run_tasks(tasks, executor=executor, checkpoint=checkpoint, desc="games", progress=progress)
    return summarize(agents, rows)
