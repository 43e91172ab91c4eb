"""The ``mcts`` agent: Monte Carlo tree search (UCT) with MCTS-Solver proofs.

The search itself is :mod:`engine.kernels.mcts`. This agent adds the budget
(``seconds=`` or ``iterations=``; with both, whichever runs out first),
the choice of the move, the statistics, and *tree reuse*: after a move, the
agent keeps the part of its tree below the position it is asked about next
(its own move and the opponent's reply, when the tree has them), so the
visits spent there on the previous move are not thrown away. Asking again
about the same position continues the same search, so a live analysis can
call :meth:`~engine.agents.base.Agent.choose` with short budgets over and
over and show the statistics as they grow.

The move is a proven win if the tree has one (an immediate win first),
otherwise the most visited child that is not a proven loss.

Each enhancement over textbook UCT has a key, so that its worth can be
measured (``python -m engine bench mcts enhancements``; docs/mcts.md):
``rollout`` (smart playouts), ``alpha`` (the threat blend, ``parity`` its
parity-neutral values), ``expansion`` (guided first visits) and ``solver``.
``mcts:alpha=0,rollout=random,solver=false`` is textbook UCT. With the
defaults the agent scores 85.5 % at 1,000 and 92 % at 10,000 iterations per
move against textbook UCT with the same budget (100 games each), and opens in
the centre for each of seeds 1 to 10 at 10,000 and 100,000 iterations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import ClassVar

import numpy as np

from engine.agents.base import Agent, SearchResult
from engine.agents.montecarlo import ROLLOUT_HELP, new_rng, per_column_text, time_budget
from engine.agents.registry import param, register
from engine.board import Board
from engine.errors import IllegalMoveError
from engine.geometry import Geometry
from engine.kernels import mcts
from engine.kernels.jit import compile_inner
from engine.kernels.montecarlo import ROLLOUTS, smart_playout
from engine.kernels.rng import make_rng
from engine.kernels.rules import DRAW, LOSS, WIN, is_winning_move, play, random_playout, stones
from engine.kernels.stop import stop_requested
from engine.limits import Limits
from engine.progress import Progress
from engine.score import Score
from engine.solver.solver import Solver
from engine.stop import StopFlag

#: Table of the endgame solver: endgames need little.
ENDGAME_TABLE_MB = 16
#: The endgame solver's node limit when the agent has an iteration budget and no time.
ENDGAME_NODES = 1_000_000

#: The ``expansion`` choices.
EXPANSIONS = ("auto", "guided", "central")

_READY: set[tuple[str, bool]] = set()  # the kernels ("search", "copy") this process has loaded, by bitboard width
_OUTCOME_LETTERS = {WIN: "w", DRAW: "d", LOSS: "l", mcts.UNPROVEN: "?"}


@register("mcts", "Monte Carlo tree search (UCT) that proves wins and losses and keeps its tree between moves")
@dataclass
class MctsAgent(Agent):
    node_key: ClassVar[str | None] = "iterations"  # (what Limits.nodes caps)
    seconds: float | None = param(
        None,
        "seconds per move (default 1 when iterations is not given)",
        kind=float,
        low=0.001,
        high=86400,
        aliases=("time",),
    )
    iterations: int | None = param(None, "iterations per move", kind=int, low=1, high=10**10)
    c: float = param(
        1.4, "exploration constant of UCB1: higher tries more moves", low=0.0, high=100.0, label="Exploration c"
    )
    alpha: float = param(
        0.7,
        "weight of the threat evaluation's minimax value beside the win rate (0: plain UCT)",
        low=0.0,
        high=1.0,
        label="Heuristic weight",
    )
    rollout: str = param("smart", ROLLOUT_HELP, choices=tuple(ROLLOUTS))
    parity: bool = param(
        True,
        "a move's heuristic value averages the threat evaluation before and after it, so that it does not swing "
        "with the parity of the tree's depth (false: after the move only)",
        label="Parity-neutral heuristic",
    )
    expansion: str = param(
        "auto",
        "order of a node's first visits: guided (best heuristic value first), central (central columns first), "
        "auto (guided when alpha > 0)",
        choices=EXPANSIONS,
        label="Expansion order",
    )
    solver: bool = param(
        True, "MCTS-Solver: prove wins and losses from the children (false: plain UCT backups)", label="Solver proofs"
    )
    reuse: bool = param(True, "keep the tree between the moves of a game")
    max_nodes: int = param(
        3_000_000,
        f"tree size limit in nodes of {mcts.NODE_BYTES} bytes; a full tree stops growing, the search goes on",
        low=1_000,
        high=100_000_000,
        label="Tree size (nodes)",
    )
    endgame: int = param(
        0,
        "with this many empty cells or fewer, the exact solver plays if it finishes in a third of the time (0: never)",
        low=0,
        high=81,
        label="Solver endgame (cells)",
    )
    seed: int | None = param(None, "random seed (none: a fresh one)", kind=int, low=0)
    _rng: np.ndarray = field(init=False, repr=False, compare=False)
    _solver: Solver | None = field(default=None, init=False, repr=False, compare=False)
    _tree: mcts.Tree | None = field(default=None, init=False, repr=False, compare=False)
    _tree_board: Board | None = field(default=None, init=False, repr=False, compare=False)
    # Published for other threads (see engine.progress): the visits the tree had when the search began,
    # and the kernel's deepest walk, which it updates as it goes.
    _reused: int = field(default=0, init=False, repr=False, compare=False)
    _max_depth: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64), init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = new_rng(self.seed)

    def new_game(self, seed: int | None = None) -> None:
        self.close()
        if seed is not None:
            self._rng = new_rng(seed)

    def close(self) -> None:
        self._tree = self._tree_board = None

    # -- the search ------------------------------------------------------------
    def prepare(self, geometry: Geometry) -> None:
        self._prepare_endgame(geometry)
        self._prepare_tree(geometry, copying=True)

    def prepare_for(self, board: Board) -> None:
        # Only what this move needs, so that the first move of a fresh install waits for
        # fewer kernels: the endgame solver waits until the game is near its endgame, and
        # copying the useful part of the tree until there is a tree (the agent's second move).
        if self._uses_solver(board):
            self._prepare_endgame(board.geometry)
        self._prepare_tree(board.geometry, copying=self.reuse and self._tree is not None)

    def preparation_parts(self, board: Board) -> tuple[Callable[[], None], ...]:
        # The search's kernels in four parts of about equal cost, ordered so that two processes
        # (the first taking parts 1 and 3) share no work: the first starts with the kernels that
        # call no rule while the second compiles the rules, which the expansion (with the threat
        # evaluation of each child) then finds compiled; the playouts call the rules too.
        if ("search", board.geometry.wide) in _READY:
            return ()
        geometry = board.geometry
        return tuple(
            partial(step, geometry)
            for step in (_compile_tree_walk, _compile_rules, _compile_expansion, _compile_playouts)
        )

    def _uses_solver(self, board: Board) -> bool:
        return board.geometry.cells - board.ply <= self.endgame

    def _prepare_endgame(self, geometry: Geometry) -> None:
        if self.endgame and (self._solver is None or self._solver.geometry != geometry):
            self._solver = Solver(geometry, ENDGAME_TABLE_MB)
            self._solver.warm_up()

    def _prepare_tree(self, geometry: Geometry, copying: bool) -> None:
        """Compile or load the search's kernels (and, if ``copying``, the copy of a subtree) on a scrap tree."""
        empty, scrap = geometry.to_kernel(0), mcts.new_tree(2 * geometry.cols + 1)
        if ("search", geometry.wide) not in _READY:
            flag, depth = np.zeros(1, dtype=np.uint8), np.zeros(1, dtype=np.int64)
            # No iteration, so no random draw: only the root is expanded.
            path = mcts.new_path(geometry.cells)
            mcts.search(scrap, empty, empty, geometry.kernel, self._rng, mcts.make_settings(), 0, flag, depth, path)
            _READY.add(("search", geometry.wide))
        if copying and ("copy", geometry.wide) not in _READY:
            mcts.copy_subtree(scrap, mcts.ROOT, mcts.new_tree(2 * geometry.cols + 1))
            _READY.add(("copy", geometry.wide))

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        if self._solver is not None and self._solver.geometry == board.geometry and self._uses_solver(board):
            solved = self._solve(board, stop)
            if solved is not None:
                return solved
        tree = self._tree_for(board)
        reused = self._reused = int(tree.visits[mcts.ROOT])
        g = board.geometry.kernel
        current, mask = board.kernel_state()
        max_depth = self._max_depth = np.zeros(1, dtype=np.int64)
        limit, path = -1 if self.iterations is None else self.iterations, mcts.new_path(board.geometry.cells)
        with self.time_limit(stop, time_budget(self.seconds, self.iterations)) as flag:
            iterations = mcts.search(
                tree, current, mask, g, self._rng, self.settings(), limit, flag.array, max_depth, path
            )
        return self._result(board, tree, iterations, reused, int(max_depth[0]), completed=not stop.is_set())

    def settings(self) -> mcts.Settings:
        """The kernel's settings for this agent's keys."""
        guided = self.expansion == "guided" or (self.expansion == "auto" and self.alpha > 0)
        return mcts.make_settings(self.c, self.alpha, ROLLOUTS[self.rollout], guided, self.solver, self.parity)

    def _solve(self, board: Board, stop: StopFlag) -> SearchResult | None:
        """The solver's move if it finds one in a third of the time (solver-backed endgames)."""
        assert self._solver is not None
        seconds = time_budget(self.seconds, self.iterations)
        with self.time_limit(stop, None if seconds is None else seconds / 3) as flag:
            best = self._solver.best_move(board, Limits(ENDGAME_NODES if seconds is None else 0, stop=flag))
        if best.column is None or best.score is None:
            return None
        return SearchResult(
            column=best.column,
            nodes=best.nodes,
            score=best.score,
            pv=(best.column,),
            info={"solver": "yes"},
        )

    def _tree_for(self, board: Board) -> mcts.Tree:
        """The tree to search ``board`` with: the old one re-rooted, or a new one."""
        node = self._node_of(board) if self.reuse else None
        if node is None:
            self._tree = mcts.new_tree(self.max_nodes)
        elif node != mcts.ROOT:
            assert self._tree is not None
            subtree = mcts.new_tree(self.max_nodes)
            mcts.copy_subtree(self._tree, node, subtree)
            self._tree = subtree
        self._tree_board = board.copy()
        assert self._tree is not None
        return self._tree

    def _node_of(self, board: Board) -> int | None:
        """The slot of ``board`` in the current tree, if the tree leads there."""
        tree, known = self._tree, self._tree_board
        if tree is None or known is None or known.geometry != board.geometry:
            return None
        history, known_history = board.history, known.history
        if history[: len(known_history)] != known_history:
            return None
        moves = history[len(known_history) :]
        probe = known.copy()
        try:
            for col in moves:
                probe.play(col)
        except IllegalMoveError:
            return None
        if probe != board:  # same moves from another start: not the position the tree is about
            return None
        node = mcts.ROOT
        for col in moves:
            child = _child_with_move(tree, node, col)
            if child is None:
                return None
            node = child
        return node

    # -- reading the tree ------------------------------------------------------------
    def _progress(self, seconds: float) -> Progress | None:
        tree, board = self._tree, self._tree_board
        if tree is None or board is None or tree.first_child[mcts.ROOT] < 0:
            return None
        # The search is still adding visits: read each count once, so the shares add up to 1.
        visits = {int(tree.move[child]): int(tree.visits[child]) for child in _children(tree, mcts.ROOT)}
        total = sum(visits.values()) or 1
        shares: list[float | None] = [None] * board.geometry.cols
        for column, count in visits.items():
            shares[column] = count / total
        line = principal_variation(tree)
        return Progress(
            seconds,
            int(tree.visits[mcts.ROOT]) - self._reused,
            unit="iterations",
            depth=int(self._max_depth[0]),
            best_column=line[0] if line else None,
            pv=line,
            visit_shares=tuple(shares),
        )

    def _result(
        self, board: Board, tree: mcts.Tree, iterations: int, reused: int, depth: int, completed: bool
    ) -> SearchResult:
        cols = board.geometry.cols
        best = best_child(tree, mcts.ROOT)
        column = int(tree.move[best])
        scores: list[Score | None] = [None] * cols
        visits: list[int | None] = [None] * cols
        solved: list[str] = ["x"] * cols
        for child in _children(tree, mcts.ROOT):
            col = int(tree.move[child])
            rate = win_rate(tree, child)
            scores[col] = None if rate is None else Score.win_rate(rate, exact=tree.status[child] != mcts.UNPROVEN)
            visits[col] = int(tree.visits[child])
            solved[col] = _OUTCOME_LETTERS[int(tree.status[child])]
        root_status = int(tree.status[mcts.ROOT])
        exact = root_status != mcts.UNPROVEN
        return SearchResult(
            column=column,
            nodes=iterations,
            depth=depth,
            # The root's status is seen by the player who moved into it: the opponent.
            score=Score.win_rate((1 - root_status) / 2, exact=True) if exact else scores[column],
            pv=principal_variation(tree),
            column_scores=tuple(scores),
            completed=completed,
            info={
                "visits": per_column_text(visits),
                "solved": "".join(solved),
                "tree": int(tree.used[0]),
                "reused": reused,
            },
        )


def _compile_tree_walk(geometry: Geometry) -> None:
    """Compile (or load) what an iteration calls besides the expansion and the playouts: choosing a
    child, backing a result up, polling the stop flag."""
    tree = mcts.new_tree(geometry.cols + 1)
    compile_inner(mcts.select_child, tree, mcts.ROOT, mcts.make_settings())
    compile_inner(mcts.backup, tree, mcts.new_path(geometry.cells), 0, 0, True)
    stop_requested(np.zeros(1, dtype=np.uint8))


def _compile_rules(geometry: Geometry) -> None:
    """Compile (or load) the rules the expansion calls (the playouts call more of them)."""
    empty, g = geometry.to_kernel(0), geometry.kernel
    is_winning_move(empty, empty, g, 0)
    play(empty, empty, g, 0)
    stones(empty)


def _compile_expansion(geometry: Geometry) -> None:
    """Compile (or load) the expansion of a node, as the search calls it, on a scrap tree."""
    empty = geometry.to_kernel(0)
    mcts.expand(mcts.new_tree(geometry.cols + 1), mcts.ROOT, empty, empty, geometry.kernel, mcts.make_settings())


def _compile_playouts(geometry: Geometry) -> None:
    """Compile (or load) the playouts of both policies, as the search calls them: one of each from the empty board."""
    empty, rng = geometry.to_kernel(0), make_rng(0)
    smart_playout(empty, empty, geometry.kernel, rng)
    random_playout(empty, empty, geometry.kernel, rng)


def _children(tree: mcts.Tree, node: int) -> range:
    first = int(tree.first_child[node])
    return range(first, first + int(tree.num_children[node])) if first >= 0 else range(0)


def _child_with_move(tree: mcts.Tree, node: int, col: int) -> int | None:
    for child in _children(tree, node):
        if tree.move[child] == col:
            return child
    return None


def win_rate(tree: mcts.Tree, node: int) -> float | None:
    """The node's value for the player who moved into it: exact if proven, else the mean."""
    status = int(tree.status[node])
    if status != mcts.UNPROVEN:
        return (1 + status) / 2
    visits = int(tree.visits[node])
    return int(tree.points[node]) / (2 * visits) if visits else None


def best_child(tree: mcts.Tree, node: int) -> int:
    """The move to play at an expanded ``node``.

    A proven win if there is one (an immediate win first: it is a leaf), else
    the most visited child that is not a proven loss (ties: the better mean,
    then the more central column, which comes first), else - everything is
    lost - the most visited child.
    """
    children = list(_children(tree, node))
    wins = [child for child in children if tree.status[child] == WIN]
    if wins:
        return min(wins, key=lambda child: (tree.first_child[child] >= 0, -tree.visits[child]))
    candidates = [child for child in children if tree.status[child] != LOSS] or children
    return max(candidates, key=lambda child: (tree.visits[child], win_rate(tree, child) or 0.0))


def principal_variation(tree: mcts.Tree) -> tuple[int, ...]:
    """The line both sides would play by :func:`best_child`, as deep as the tree knows it."""
    line: list[int] = []
    node = mcts.ROOT
    while tree.first_child[node] >= 0:
        node = best_child(tree, node)
        if tree.visits[node] == 0 and tree.status[node] == mcts.UNPROVEN:
            break
        line.append(int(tree.move[node]))
    return tuple(line)
