"""``bench mcts``: what the tree search's choices and enhancements are worth, in figures.

Parts, each selectable by name (all of them by default):

- ``root``: the root's children after a search from the empty 7x6 board,
  for seeds 1..``--seeds``: the most visited column, its share of the visits
  and its lead, the columns with the best mean and the best heuristic value;
  for seed 1 also one line per column: visits, mean result, the heuristic
  (implicit minimax) value and the blend of the two without the margin;
- ``trace``: the same search followed every 1,000 iterations up to 20,000:
  each column's visits and heuristic value (seed 1);
- ``first-move``: the column ``--agent`` opens with on the empty board for
  seeds 1..``--seeds`` at each of ``--iterations`` (perfect play: column 4);
- ``versus``: ``--agent`` against ``--baseline`` (plain UCT by default:
  ``mcts:alpha=0,rollout=random``), the same iterations for both, ``--games``
  games at each of ``--iterations``, colours alternated;
- ``enhancements``: textbook UCT (random playouts, no solver, central columns
  tried first) with one enhancement switched on at a time (smart rollouts, the
  threat blend, guided expansion, the solver), then the default agent with one
  of them switched off, then all of them, each against textbook UCT as in
  ``versus``;
- ``expert`` (only when named: it plays on the clock, about 35 s a game):
  the ``expert`` preset against the same preset as it was before the
  parity-neutral values and the weighed margin (:data:`OLD_EXPERT`), from
  ``--openings`` two-move openings, each with both colours, or, with
  ``--openings 0``, ``--games`` games from the empty board.

Iteration budgets and seeds make every figure but ``expert``'s replay exactly. The
figures in docs/mcts.md and in :mod:`engine.kernels.mcts` come from here.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.agents.mcts import MctsAgent, win_rate
from engine.agents.registry import create_agent
from engine.board import Board
from engine.console import emit
from engine.errors import EngineError
from engine.experiments.stats import percent_with_interval
from engine.kernels import mcts
from engine.match import play_match
from engine.validate import MAX_GAMES, int_arg

PARTS = ("root", "trace", "first-move", "versus", "enhancements", "expert")
#: The parts run when none is named.
DEFAULT_PARTS = PARTS[:-1]

#: The opponent every figure is measured against: textbook UCT with random playouts.
PLAIN_UCT = "mcts:alpha=0,rollout=random"

#: The ``expert`` preset before the fix: the old selection is the new one with c / (1 - alpha) = 1.4 / 0.3.
OLD_EXPERT = "mcts:seconds=1.5,endgame=24,c=4.666666666666667,parity=false"

#: The opponent of the enhancements part: plain UCT without the solver, every enhancement off.
TEXTBOOK_UCT = "mcts:alpha=0,rollout=random,solver=false"

#: Textbook UCT, each enhancement alone, the default less each one, all of them (the default agent).
#: ``name, spec``; the iteration budget is added to each.
VARIANTS = (
    ("none", TEXTBOOK_UCT),
    ("smart rollouts alone", "mcts:alpha=0,solver=false"),
    ("threat blend alone", "mcts:rollout=random,expansion=central,solver=false"),
    ("guided expansion alone", "mcts:alpha=0,rollout=random,expansion=guided,solver=false"),
    ("solver alone", "mcts:alpha=0,rollout=random"),
    ("all but smart rollouts", "mcts:rollout=random"),
    ("all but the threat blend", "mcts:alpha=0,expansion=guided"),
    ("all but guided expansion", "mcts:expansion=central"),
    ("all but the solver", "mcts:solver=false"),
    ("all (the default)", "mcts"),
)

_DESCRIPTION = """\
Strength figures of the mcts agent, in parts (default: all):
  root          the root's children after --agent searches the empty 7x6 board (seeds 1..--seeds)
  trace         the root's visits and heuristic values every 1,000 iterations of one search (seed 1)
  first-move    --agent's first move on the empty board for seeds 1..--seeds at each of --iterations
  versus        --games games of --agent against --baseline at each of --iterations
  enhancements  each enhancement alone, the default less each one, and all of them, against textbook UCT
  expert        the expert preset against its old self from --openings two-move openings (only when named)
Iteration budgets and seeds: every figure replays exactly."""


def add_parser(benches) -> None:
    parser = benches.add_parser(
        "mcts",
        help="mcts: root statistics, first moves by seed, matches against plain UCT, enhancements",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("parts", nargs="*", metavar="PART", help=f"parts to run: {', '.join(PARTS)} (default all)")
    parser.add_argument(
        "--iterations",
        type=int_arg(1, 10**8),
        nargs="+",
        default=None,
        help="iterations per move (default: 1000 10000 100000 for root and first-move, 1000 10000 for matches)",
    )
    parser.add_argument(
        "--seeds", type=int_arg(1, 1000), default=10, help="seeds 1..N of root and first-move (default 10)"
    )
    parser.add_argument("--games", type=int_arg(1, MAX_GAMES), default=100, help="games per match (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the matches (default 1)")
    parser.add_argument(
        "--openings",
        type=int_arg(0, 49),
        default=20,
        help="expert: two-move openings, each played with both colours (0: --games from the empty board; default 20)",
    )
    parser.add_argument(
        "--agent", default="mcts", help="the agent of root, trace, first-move and versus (default mcts)"
    )
    parser.add_argument("--baseline", default=PLAIN_UCT, help=f"the opponent in matches (default {PLAIN_UCT})")
    parser.set_defaults(run=run)


def run(args) -> int:
    parts = args.parts or DEFAULT_PARTS
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise EngineError(f"unknown part {unknown[0]!r}: choose from {', '.join(PARTS)}")
    searches = args.iterations or [1_000, 10_000, 100_000]
    matches = args.iterations or [1_000, 10_000]
    if "root" in parts:
        for iterations in searches:
            for seed in range(1, args.seeds + 1):
                root(args.agent, iterations, seed, columns=seed == 1)
    if "trace" in parts:
        trace(args.agent, step=1_000, steps=20, seed=1)
    if "first-move" in parts:
        first_moves(args.agent, searches, args.seeds)
    if "versus" in parts:
        for iterations in matches:
            versus(args.agent, args.baseline, iterations, args.games, args.seed)
    if "enhancements" in parts:
        for iterations in matches:
            for name, spec in VARIANTS:
                versus(spec, TEXTBOOK_UCT, iterations, args.games, args.seed, label=name)
    if "expert" in parts:
        expert(args.openings, args.games, args.seed)
    return 0


def _with(spec: str, **values: object) -> str:
    """``spec`` with ``key=value`` settings added."""
    extra = ",".join(f"{key}={value}" for key, value in values.items())
    return f"{spec}{',' if ':' in spec else ':'}{extra}"


def _mcts(spec: str) -> MctsAgent:
    agent = create_agent(spec)
    if not isinstance(agent, MctsAgent):
        raise EngineError(f"{spec!r} is not an mcts agent")
    return agent


def root(spec: str, iterations: int, seed: int, columns: bool = True) -> None:
    """The root's children after one search from the empty board: what selection saw at the end.

    One line: the most visited column, its share of the visits and its visits over the runner-up's, and
    the columns with the best mean and the best heuristic value; then, if ``columns``, one line per column.
    """
    agent = _mcts(_with(spec, iterations=iterations, seed=seed))
    agent.choose(Board())
    tree = agent._tree
    assert tree is not None
    alpha = float(agent.alpha)
    first = int(tree.first_child[mcts.ROOT])
    children = sorted(range(first, first + int(tree.num_children[mcts.ROOT])), key=lambda i: int(tree.move[i]))
    by_visits = sorted(children, key=lambda child: -int(tree.visits[child]))
    best_mean = max(children, key=lambda child: win_rate(tree, child) or 0.0)
    best_heuristic = max(children, key=lambda child: float(tree.heuristic[child]))
    top, second = int(tree.visits[by_visits[0]]), int(tree.visits[by_visits[1]])
    emit(
        f"root {agent.spec}: most visited column {int(tree.move[by_visits[0]]) + 1} "
        f"({top / max(int(tree.visits[mcts.ROOT]) - 1, 1):.0%} of the visits, {top / max(second, 1):.2f}x the next), "
        f"best mean column {int(tree.move[best_mean]) + 1}, best heuristic column {int(tree.move[best_heuristic]) + 1}"
    )
    if not columns:
        return
    for child in children:
        mean = win_rate(tree, child) or 0.0
        heuristic = float(tree.heuristic[child])
        blend = (1 - alpha) * mean + alpha * (heuristic + 1) / 2
        emit(
            f"  column {int(tree.move[child]) + 1}: visits {int(tree.visits[child]):7d}  mean {mean:.3f}  "
            f"heuristic {heuristic:+.3f}  blended {blend:.3f}"
        )


def trace(spec: str, step: int, steps: int, seed: int) -> None:
    """One search from the empty board, followed: each column's ``visits/heuristic`` after every ``step`` iterations.

    Asking the agent again about the same position continues the same search (tree reuse).
    """
    agent = _mcts(_with(spec, iterations=step, seed=seed))
    emit(f"trace of {agent.spec} from the empty board: visits/heuristic value by column")
    for done in range(step, step * steps + 1, step):
        agent.choose(Board())
        tree = agent._tree
        assert tree is not None
        first = int(tree.first_child[mcts.ROOT])
        children = sorted(range(first, first + int(tree.num_children[mcts.ROOT])), key=lambda i: int(tree.move[i]))
        cells = [f"{int(tree.visits[child]):6d}/{float(tree.heuristic[child]):+.2f}" for child in children]
        emit(f"  {done:7,}  " + "  ".join(cells))


def first_moves(spec: str, budgets: list[int], seeds: int) -> None:
    """One line per budget: the column (1-based) opened with for each seed, and how often it was the centre."""
    emit(f"first move of {spec} on the empty 7x6 board, seeds 1..{seeds}:")
    for iterations in budgets:
        columns = [
            _mcts(_with(spec, iterations=iterations, seed=seed)).choose(Board()).column + 1
            for seed in range(1, seeds + 1)
        ]
        centre = columns.count(4)
        emit(f"  {iterations:>9,} iterations: {' '.join(map(str, columns))}  (centre {centre}/{seeds})")


def versus(spec: str, baseline: str, iterations: int, games: int, seed: int, label: str | None = None) -> None:
    """``games`` games of ``spec`` against ``baseline`` at ``iterations`` each; the score counts a draw half."""
    red, yellow = create_agent(_with(spec, iterations=iterations)), create_agent(_with(baseline, iterations=iterations))
    start = time.perf_counter()
    try:
        result = play_match(red, yellow, games, seed=seed)
    finally:
        red.close()
        yellow.close()
    points = result.red_wins + result.draws / 2
    name = f"{label}: {spec}" if label else spec
    emit(
        f"{name} vs {baseline} at {iterations:,} iterations: {percent_with_interval(points, games)} "
        f"(won {result.red_wins}, lost {result.yellow_wins}, drawn {result.draws} of {games}; "
        f"{time.perf_counter() - start:.0f} s)"
    )


def expert(openings: int, games: int, seed: int) -> None:
    """The ``expert`` preset against :data:`OLD_EXPERT`: both colours from each of ``openings`` two-move openings."""
    starts = [Board()]
    if openings:
        pairs = [f"{first}{second}" for first in range(1, 8) for second in range(1, 8)]
        starts = [Board.from_moves(moves) for moves in sorted(random.Random(seed).sample(pairs, openings))]
    new, old = create_agent("expert"), create_agent(OLD_EXPERT)
    won = lost = drawn = 0
    start_time = time.perf_counter()
    try:
        for index, start in enumerate(starts):
            result = play_match(new, old, 2 if openings else games, seed=seed + index, start=start)
            won, lost, drawn = won + result.red_wins, lost + result.yellow_wins, drawn + result.draws
            emit(
                f"  from {''.join(str(col + 1) for col in start.history) or 'the empty board'}: "
                f"+{result.red_wins} -{result.yellow_wins} ={result.draws}"
            )
    finally:
        new.close()
        old.close()
    total = won + lost + drawn
    emit(
        f"expert vs {OLD_EXPERT}: {percent_with_interval(won + drawn / 2, total)} "
        f"(won {won}, lost {lost}, drawn {drawn} of {total}; {time.perf_counter() - start_time:.0f} s)"
    )
