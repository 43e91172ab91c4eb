"""Study ``playtime`` (seeds 000, 001): the seeds' two "Playtime" tasks, played out and timed.

Seed 000 answers both; seed 001 asks the same two questions and leaves them empty.

- Task 3: "Let the Minimax Search agent play a random agent on a small board.
  Analyze wins, losses and draws." Seed 000's game() calls its alpha-beta with
  a limit of 10 moves, a position cut off there worth 0: here
  ``alphabeta:depth=10,eval=zero`` against ``random`` on its small boards (the
  empty 4x4 it prints, and the 5x4 of its games: ``h=4, w=5``) and on 7x6.
- Task 4: "Let two heuristic search agents (different cutoff depth, different
  heuristic evaluation function) compete against each other". Seed 000's pair:
  cut-off 10 with its weights mode 1 against cut-off 5 with mode 2, on 5x5 and
  4x4; here on 4x4, 5x5 and 7x6. The seed plays each game once ("there is no
  randomness"); ours choose at random among equally good moves, so each board
  gets several seeded games, and the table counts the distinct ones.

Every game starts from the empty board, the first-named agent moving first in
half of them. Every move is timed by the agent's own clock (wall-clock time on
a machine that may be shared); the rows keep each move's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.experiments import charts
from engine.experiments.games import GameTask
from engine.experiments.stats import wilson
from engine.experiments.study import Findings, Settings, Study
from engine.experiments.tables import markdown_table
from engine.match import GameRecord
from engine.tasks import Row, derive_seed

#: Seed 000's alpha_beta_minimax as its game() calls it: 10 moves deep, a cut-off position worth 0.
MINIMAX = "alphabeta:depth=10,eval=zero"
#: Seed 000's heuristic pair (its game_heur): cut-off 10 with weights mode 1, cut-off 5 with mode 2.
DEEP, SHALLOW = "alphabeta:depth=10,eval=seed000,mode=1", "alphabeta:depth=5,eval=seed000,mode=2"


@dataclass(frozen=True)
class Match:
    names: tuple[str, str]  # the two agents as the table and the charts call them
    first: str  # the agent the figures are about
    second: str
    boards: tuple[tuple[int, int], ...]
    quick_boards: tuple[tuple[int, int], ...]
    games: int  # per board (half with each agent first)
    quick_games: int

    @property
    def name(self) -> str:
        return f"{self.names[0]} vs {self.names[1]}"


MATCHES = (
    Match(("minimax", "random"), MINIMAX, "random", ((4, 4), (5, 4), (7, 6)), ((5, 4),), 40, 2),
    Match(("cut-off 10", "cut-off 5"), DEEP, SHALLOW, ((4, 4), (5, 5), (7, 6)), ((4, 4),), 10, 2),
)
#: What seed 000 printed (Task 3, In [133] and In [111]; Task 4, In [60], [155] and [58]): match, board
#: (cols x rows), what its game was told, games, the result it printed.
SEED_000_GAMES = (
    ("minimax vs random", "5x4", "first_player=1", 1, "1 win for player 1"),
    ("minimax vs random", "5x4", "first_player=-1", 10, "10 wins for player -1"),
    ("cut-off 10 vs cut-off 5", "5x5", "cut-off 10 first", 1, "cut-off 10 won"),
    ("cut-off 10 vs cut-off 5", "4x4", "cut-off 10 first", 1, "cut-off 10 won"),
    ("cut-off 10 vs cut-off 5", "4x4", "cut-off 5 first", 1, "cut-off 10 won"),
)
OUTCOMES = ("win", "draw", "loss")
#: The time chart's points are means over at least this many games, or all of them where there are fewer
#: (a long game's last moves are few).
MIN_GAMES_PER_POINT = 3


@dataclass(frozen=True)
class TimedGame(GameTask):
    """A game of one match whose row also keeps every move's time (``move_ms``, in the order played)."""

    match: str = ""

    def row(self, record: GameRecord) -> Row:
        row = super().row(record)
        row["move_ms"] = " ".join(f"{result.seconds * 1000.0:.3f}" for result in record.results)
        return row


def _boards(match: Match, settings: Settings) -> tuple[tuple[int, int], ...]:
    return match.quick_boards if settings.quick else match.boards


def tasks(settings: Settings) -> list[TimedGame]:
    out = []
    for match in MATCHES:
        games = settings.count(match.games, match.quick_games)
        for cols, rows in _boards(match, settings):
            for k in range(games):
                seed = derive_seed(settings.seed, "playtime", match.name, cols, rows, k)
                out.append(TimedGame(match.first, match.second, "", k % 2 == 0, seed, cols, rows, match=match.name))
    return out


# -- the figures ------------------------------------------------------------------------------------
def outcome(row: Row) -> str:
    """The first-named agent's result (it plays "red" in the rows)."""
    return {"red": "win", "draw": "draw", "yellow": "loss"}[row["winner"]]


def own_times(row: Row, first_named: bool = True) -> list[float]:
    """The move times (ms) of the first-named agent (or of the other), in the order they were played."""
    times = [float(t) for t in row["move_ms"].split()]
    red_starts = row["red_first"] if first_named else not row["red_first"]
    return times[0 if red_starts else 1 :: 2]


@dataclass
class Group:
    """The games of one match on one board with one agent moving first (None: both)."""

    match: str
    size: str
    first: bool | None
    games: list[Row]

    def count(self, result: str) -> int:
        return sum(outcome(g) == result for g in self.games)

    @property
    def score(self) -> float:
        return (self.count("win") + 0.5 * self.count("draw")) / len(self.games)

    def times(self, first_named: bool = True) -> list[float]:
        return [t for g in self.games for t in own_times(g, first_named)]

    @property
    def ms_per_game(self) -> float:
        return float(np.mean([sum(own_times(g)) for g in self.games]))


def groups(rows: list[Row], by_first: bool) -> list[Group]:
    out = []
    for match in MATCHES:
        mine = [r for r in rows if r["match"] == match.name]
        for size in dict.fromkeys(f"{r['cols']}x{r['rows']}" for r in mine):
            games = [r for r in mine if f"{r['cols']}x{r['rows']}" == size]
            for first in (True, False) if by_first else (None,):
                chosen = [g for g in games if first is None or g["red_first"] == first]
                if chosen:
                    out.append(Group(match.name, size, first, chosen))
    return out


def _agent_name(match: str, first: bool = True) -> str:
    """The short name of a match's first-named agent (or of the other)."""
    return next(m for m in MATCHES if m.name == match).names[0 if first else 1]


def summarize(rows: list[Row], settings: Settings, out: Path) -> Findings:
    by_first = groups(rows, by_first=True)
    table_rows = []
    for g in by_first:
        n = len(g.games)
        mine, theirs = g.times(), g.times(first_named=False)
        table_rows.append(
            [
                g.match,
                g.size,
                _agent_name(g.match, g.first is True),
                n,
                len({r["moves"] for r in g.games}),
                *[f"{g.count(o)} ({g.count(o) / n:.0%})" for o in OUTCOMES],
                f"{np.mean(mine):.1f}",
                f"{max(mine):.1f}",
                f"{g.ms_per_game:.0f}",
                f"{np.mean(theirs):.2f}",
                f"{np.mean([r['plies'] for r in g.games]):.1f}",
            ]
        )
    headers = [
        "match",
        "board",
        "moves first",
        "games",
        "distinct games",
        "wins",
        "draws",
        "losses",
        "ms per move",
        "slowest move (ms)",
        "ms per game",
        "opponent's ms per move",
        "plies",
    ]
    table = (
        markdown_table(headers, table_rows, right=[False, False, False] + [True] * (len(headers) - 3))
        + "\n\nWins, draws and losses, and the times per move and per game, are the first-named agent's "
        f"(minimax: `{MINIMAX}`; cut-off 10: `{DEEP}`; cut-off 5: `{SHALLOW}`)."
    )
    overall = groups(rows, by_first=False)
    _outcome_chart(by_first, out / "playtime_outcomes.png")
    _time_chart(rows, out / "playtime_time.png")
    return Findings(
        table,
        ["playtime_outcomes.png", "playtime_time.png"],
        _headline(overall),
        _seed_figures(),
        _reading(overall),
        [_seed_game_note()],
    )


def _headline(overall: list[Group]) -> str:
    parts = []
    for g in overall:
        n = len(g.games)
        low, high = wilson(g.count("win"), n)
        parts.append(
            f"{_agent_name(g.match)} won {g.count('win')} of {n} games against {_agent_name(g.match, False)} "
            f"on {g.size} ({low:.0%}-{high:.0%}), lost {g.count('loss')}"
        )
    return "; ".join(parts)


def _reading(overall: list[Group]) -> str:
    minimax = [g for g in overall if g.match == MATCHES[0].name]
    heuristic = [g for g in overall if g.match != MATCHES[0].name]
    sentences = []
    if minimax:
        wins = ", ".join(
            f"{g.count('win') / len(g.games):.0%}{' of its games' if k == 0 else ''} on {g.size}"
            for k, g in enumerate(minimax)
        )
        draws = ", ".join(f"{g.count('draw')} of {len(g.games)} on {g.size}" for g in minimax)
        means = [float(np.mean(g.times())) for g in minimax]
        widest = minimax[-1]
        opening = float(np.mean([own_times(r)[0] for r in widest.games]))
        later = float(np.mean([t for r in widest.games for t in own_times(r)[1:]]))
        losses = sum(g.count("loss") for g in minimax)
        spread = f"{means[0]:.1f} ms" if len(means) == 1 else f"{min(means):.1f} to {max(means):.1f} ms by board"
        sentences.append(
            "Against random moves, a search of 10 plies that knows nothing but wins and losses won "
            f"{wins}, drew {draws}, and lost {'none' if losses == 0 else losses}. Its moves took "
            f"{spread} on average. "
            f"On {widest.size} its first move took {opening:.1f} ms on average and its later moves "
            f"{later:.1f} ms"
            + (
                ": at the start the 10 plies end before any game does, later the search finds a forced win "
                "and stops early."
                if opening > later
                else "."
            )
        )
    if heuristic:
        distinct = sum(len({r["moves"] for r in g.games}) for g in heuristic)
        total = sum(len(g.games) for g in heuristic)
        results = ", ".join(
            f"on {g.size} cut-off 10 scored {g.score:.0%} ({_count(g.count('win'), 'win')}, "
            f"{_count(g.count('draw'), 'draw')}, {_count(g.count('loss'), 'loss')})"
            for g in heuristic
        )
        won_all = all(g.count("win") == len(g.games) for g in heuristic)
        lost = sum(g.count("loss") for g in heuristic)
        sentences.append(
            f"The two heuristic agents played {total} games, {distinct} of them distinct (each agent picks at "
            f"random among equally good moves): {results}. Seed 000 saw cut-off 10 win all three of its games"
            + (
                ", and so it does here."
                if won_all
                else f"; here it wins {sum(g.count('win') for g in heuristic)} of {total} and loses "
                f"{lost}"
                + (
                    ": the deeper search is the stronger (it scores over 50% on every board), but the shallower "
                    "one often holds the draw."
                    if all(g.score > 0.5 for g in heuristic)
                    else "."
                )
            )
        )
    return " ".join(sentences)


def _count(n: int, noun: str) -> str:
    """``1 win``, ``2 wins``, ``0 losses``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}es" if noun.endswith("s") else f"{n} {noun}s"


def _seed_figures() -> str:
    return markdown_table(
        ["match", "board", "seed 000's game was told", "games", "seed 000 printed"],
        [list(row) for row in SEED_000_GAMES],
        right=[False, False, False, True, False],
    )


def _seed_game_note() -> str:
    return (
        "### How seed 000's games were set up\n\n"
        "In seed 000's game(), the agent passed first makes the first move whatever `first_player` says; "
        "`first_player` only chooses the disc it plays. Its 10 games with `first_player=-1` therefore did not "
        'start with the random agent, and the seed read its "10 wins for -1" as "Minimax always wins even though '
        'random starts first". Here the first-named agent moves first in half of the games and second in the '
        "others, and the table gives both halves. Seed 000's heuristic stops at the first window of three it "
        "finds; the kernels sum every window (see `engine/kernels/evaluation.py`), so its games cannot be replayed "
        "move for move."
    )


# -- charts --------------------------------------------------------------------------------------------
def _outcome_chart(by_first: list[Group], path: Path) -> None:
    """Stacked bars of wins, draws and losses (the first-named agent's), one panel per match."""
    matches = list(dict.fromkeys(g.match for g in by_first))
    figure, axes = charts.new_figure(6.5 * len(matches), 5.0, columns=len(matches))
    colours = {"win": "tab:green", "draw": "grey", "loss": "tab:red"}
    for axis, match in zip(axes, matches, strict=True):
        mine = [g for g in by_first if g.match == match]
        x = np.arange(len(mine))
        bottom = np.zeros(len(mine))
        for result in OUTCOMES:
            counts = [g.count(result) for g in mine]
            shares = np.array([100.0 * c / len(g.games) for c, g in zip(counts, mine, strict=True)])
            label = f"{_agent_name(match)}: {_count(2, result).split()[1]}"
            axis.bar(x, shares, 0.6, bottom=bottom, color=colours[result], label=label)
            for k, count in enumerate(counts):  # the number of games, in its segment
                if count:
                    axis.text(x[k], bottom[k] + shares[k] / 2, str(count), ha="center", va="center", fontsize=8)
            bottom += shares
        labels = [f"{g.size}\n{_agent_name(g.match, g.first is True)} first\n({len(g.games)} games)" for g in mine]
        axis.set_xticks(x, labels, fontsize=8)
        axis.set_ylim(0, 112)
        axis.set_yticks(range(0, 101, 20))
        charts.decorate(
            axis, "board (columns x rows) and who moves first", "share of games (%), games written in", match
        )
        axis.legend(fontsize=8, loc="upper center", ncol=3)
    figure.suptitle("Playtime (seed 000): results of the first-named agent, from the empty board")
    charts.save(figure, path)


def _time_chart(rows: list[Row], path: Path) -> None:
    """The first-named agent's mean time for its 1st, 2nd, ... move, one line per board, one panel per match."""
    matches = [m for m in MATCHES if any(r["match"] == m.name for r in rows)]
    figure, axes = charts.new_figure(6.5 * len(matches), 5.0, columns=len(matches))
    for axis, match in zip(axes, matches, strict=True):
        mine = [r for r in rows if r["match"] == match.name]
        least = MIN_GAMES_PER_POINT
        for index, size in enumerate(dict.fromkeys(f"{r['cols']}x{r['rows']}" for r in mine)):
            for first, style in ((True, "-"), (False, "--")):
                by_move: dict[int, list[float]] = {}
                for r in mine:
                    if f"{r['cols']}x{r['rows']}" == size and r["red_first"] == first:
                        for k, ms in enumerate(own_times(r)):
                            by_move.setdefault(k + 1, []).append(ms)
                games = len(by_move.get(1, []))  # (every game has a first move of each agent)
                if not games:
                    continue
                least = min(least, games)
                by_move = {k: v for k, v in by_move.items() if len(v) >= min(MIN_GAMES_PER_POINT, games)}
                if by_move:
                    moves = sorted(by_move)
                    label = f"{size}, {_agent_name(match.name) if first else _agent_name(match.name, False)} first"
                    means = [max(float(np.mean(by_move[k])), 1e-3) for k in moves]
                    axis.plot(moves, means, style, marker="o", markersize=3, color=f"C{index}", label=label)
        axis.set_yscale("log")
        axis.xaxis.set_major_locator(charts.pyplot().MaxNLocator(integer=True))
        charts.decorate(
            axis,
            f"{_agent_name(match.name)}'s move number (moves made in at least {_count(least, 'game')})",
            "mean milliseconds per move (log scale)",
            f"{match.name}: {_agent_name(match.name)}'s time per move",
        )
        axis.legend(fontsize=8)
    figure.suptitle("Playtime (seed 000): how long each move takes, move by move")
    charts.save(figure, path)


STUDY = Study(
    name="playtime",
    summary="seed 000's Playtime tasks: minimax vs random, two cut-off depths: wins, draws, losses, time per move",
    seeds="000, 001",
    tasks=tasks,
    summarize=summarize,
    charts=("playtime_outcomes.png", "playtime_time.png"),
    question='"Let the Minimax Search agent play a random agent on a small board. Analyze wins, losses and '
    'draws." (Task 3, Playtime) and "Let two heuristic search agents (different cutoff depth, different heuristic '
    'evaluation function) compete against each other on a reasonably sized board." (Task 4, Playtime)',
)
