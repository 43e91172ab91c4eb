"""Reasons a few moves ahead: every reply of the mover answered, until a reason needs no look-ahead.

Where :func:`engine.explain.prove.prove` finds nothing in the position
itself, the mover's every move is tried: a move that lets the defender win at
once is answered by that win; any other gets an answer of the defender's
after which there is a reason. The defender's answers looked into are those
the exact solver says keep the claim (a reason after any other would be
false). The result is a tree: for each of the mover's moves, the defender's
answer and the reason after it.

The tree is found by *proof-number search* (Allis's own method, the one
VICTOR's successors used): of all the positions still open, the search
expands the one that most cheaply completes (or refutes) the tree, so that
a mover's move refuted at once costs one look, and the effort goes where the
reason is hard. The look-ahead is bounded by ``plies``, deepened two plies at
a time so that a short reason is found before a long one; a move that only
blocks a win at once (the mover's or the defender's) uses no ply of it, as a
forced reply adds no branch to the tree.

A win for the side to move is a winning move followed by such a tree for the
opponent's replies (:meth:`Forcing.attack`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Union

from engine.board import Board
from engine.explain.cells import Cells, bits_of, cells_of
from engine.explain.prove import RULES, Leaf, prove, winning_cells
from engine.geometry import Geometry

if TYPE_CHECKING:  # (engine.stop loads numpy: only whoever has a stop flag has loaded it)
    from engine.stop import StopFlag

#: The sign of the exact score of each of the given columns (legal moves) for the side to move.
Oracle = Callable[[Board, list[int]], dict[int, int]]
#: A proof or disproof number that is never reached: the node is decided.
INFINITE = 1 << 40
#: Positions the look-ahead of one explanation may open before it gives up (a bound where no clock is).
NODES = 300_000


@dataclass(frozen=True)
class Branch:
    """The mover's ``move``, the defender's ``answer`` (None: the board is full) and the reason after it."""

    move: int
    answer: int | None
    proof: Proof
    #: the defender's answer completes a group (the reason is then that win)
    wins: bool = False


@dataclass(frozen=True)
class Tree:
    """Every move of the mover, each answered."""

    branches: tuple[Branch, ...]


@dataclass(frozen=True)
class Attack:
    """The side to move plays ``move`` and wins: at once (``proof`` None), or by the reason after it."""

    move: int
    proof: Proof | None


Proof = Union[Leaf, Tree, Attack]  # noqa: UP007 (a forward reference: the | form needs the names now)


class OutOfTime(Exception):
    """The deadline passed."""


class _Spent(Exception):
    """The look-ahead opened its ``NODES`` positions."""


@dataclass(eq=False)
class _Node:
    """A position of the search: the mover to move (``every``: each move answered) or the defender to move.

    ``current`` holds the stones of the side to move, ``mask`` every stone.
    ``pn`` and ``dn`` are its proof and disproof numbers: how many open
    positions at least must still be shown to prove it, or to refute it
    (0: done).
    """

    every: bool
    plies: int
    current: int
    mask: int
    pn: int = 1
    dn: int = 1
    #: (column, the node it leads to); None until the node is expanded
    children: list[tuple[int, _Node]] | None = None
    #: the mover's node: the reason found without look-ahead
    leaf: Leaf | None = None
    #: the defender's node: its answer that wins at once, or the board is full
    ends: Branch | None = None
    parents: list[_Node] = field(default_factory=list)


class Forcing:
    """Searches for reasons up to ``plies`` moves ahead; ``oracle`` says which answers keep the claim;
    ``deadline`` (of :func:`time.perf_counter`) or ``stop`` ends it (:class:`OutOfTime`)."""

    def __init__(
        self,
        oracle: Oracle,
        plies: int = 4,
        rules: Sequence[ModuleType] = RULES,
        deadline: float | None = None,
        stop: StopFlag | None = None,
    ) -> None:
        self.oracle = oracle
        self.plies = plies
        self.rules = tuple(rules)
        self.deadline = deadline
        self.stop = stop
        self._leaves: dict[tuple[int, bool], Leaf | None] = {}
        self._signs: dict[tuple[int, int], int] = {}  # (position, column) -> the sign of its exact score
        self.nodes_left = NODES

    def _tick(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        if self.stop is not None and self.stop.is_set():
            raise OutOfTime

    def _leaf(self, board: Board, want_win: bool) -> Leaf | None:
        return self.leaf(cells_of(board.geometry), board.current, board.mask, want_win)

    def leaf(self, cells: Cells, current: int, mask: int, want_win: bool) -> Leaf | None:
        """:func:`~engine.explain.prove.prove` of a position (each position proved once)."""
        key = (current + mask, want_win)
        if key not in self._leaves:
            self._tick()
            self._leaves[key] = prove(cells, current, mask ^ current, want_win, self.rules)
        return self._leaves[key]

    def keeping(self, geometry: Geometry, current: int, mask: int, candidates: list[int], want_win: bool) -> list[int]:
        """The candidate answers that keep the claim, by the signs of their exact scores (each asked once)."""
        found = []
        ask = []
        for col in candidates:
            sign = self._signs.get((current + mask, col))
            if sign is None:
                ask.append(col)
            elif sign >= want_win:
                found.append(col)
        if ask:
            self._tick()
            first = current if mask.bit_count() % 2 == 0 else mask ^ current
            signs = self.oracle(Board.from_stones(first, mask ^ first, geometry), ask)
            for col, sign in signs.items():
                self._signs[(current + mask, col)] = sign
                if sign >= want_win:
                    found.append(col)
        return [col for col in candidates if col in found]

    # -- the defender's side: the mover cannot win, or loses ------------------------------------
    def defend(self, board: Board, want_win: bool) -> Proof | None:
        """Why the side to move cannot win (``want_win``: loses), or None: the shortest reason first."""
        leaf = self._leaf(board, want_win)
        if leaf is not None:
            return leaf
        try:
            for plies in range(2, self.plies + 1, 2):
                found = _Search(self, board, want_win).defend(plies)
                if found is not None:
                    return found
        except _Spent:
            pass
        return None

    # -- the side to move wins ---------------------------------------------------------------
    def attack(self, board: Board, scores: Sequence[int | None]) -> Attack | None:
        """Why the side to move wins (``scores``: the exact score of each column), or None."""
        for col in board.legal_columns():
            if board.is_winning_move(col):
                return Attack(col, None)
        winning = sorted(
            (col for col in board.legal_columns() if (scores[col] or 0) > 0), key=lambda col: -(scores[col] or 0)
        )
        for col in winning:  # a reason right after the winning move
            board.play(col)
            try:
                leaf = self._leaf(board, True)
            finally:
                board.undo()
            if leaf is not None:
                return Attack(col, leaf)
        try:
            for plies in range(2, self.plies, 2):  # (the winning move is the first ply: the shortest reason first)
                found = _Search(self, board, True).attack(winning, plies)
                if found is not None:
                    return found
        except _Spent:
            pass
        return None


class _Search:
    """One proof-number search with one bound on the look-ahead (the positions' reasons are ``forcing``'s).

    Positions are bitboards (:mod:`engine.geometry`): playing column ``c``
    adds its bottom bit to ``mask``, which carries up through the column's
    stones to the first empty cell, and the side to move changes.
    """

    def __init__(self, forcing: Forcing, board: Board, want_win: bool) -> None:
        self.forcing = forcing
        self.geometry = board.geometry
        self.cells = cells_of(board.geometry)
        self.root = (board.current, board.mask)
        self.want_win = want_win
        self.nodes: dict[tuple[int, int], _Node] = {}  # (Pons's key current + mask, plies left) -> node
        self._proofs: dict[int, Proof] = {}  # id of a node -> its tree
        g = board.geometry
        self._bottoms = [g.bottom_cell(col) for col in range(g.cols)]
        self._tops = [g.top_cell(col) for col in range(g.cols)]
        centre = g.cols // 2
        self._order = sorted(range(g.cols), key=lambda col: (abs(col - centre), col))  # the centre first

    def defend(self, plies: int) -> Proof | None:
        root = self._node(*self.root, True, plies, None)
        return self._proof(root) if self._run(root) else None

    def attack(self, winning: list[int], plies: int) -> Attack | None:
        current, mask = self.root
        top = _Node(False, plies, current, mask)  # the side to move picks its winning move: one answer wanted
        top.children = [(col, self._node(*self._play(current, mask, col), True, plies, top)) for col in winning]
        self._update(top)
        if not self._run(top):
            return None
        col, child = next((col, child) for col, child in top.children if child.pn == 0)
        return Attack(col, self._proof(child))

    # -- positions ---------------------------------------------------------------------------------
    def _play(self, current: int, mask: int, col: int) -> tuple[int, int]:
        """The position after ``col`` (the other side to move)."""
        return current ^ mask, mask | (mask + self._bottoms[col])

    def _moves(self, mask: int) -> list[int]:
        return [col for col in self._order if not mask & self._tops[col]]

    def _wins(self, current: int, mask: int, col: int) -> bool:
        """Does the side to move complete a group by playing ``col``?"""
        cell = (mask + self._bottoms[col]) & self.cells.columns[col]
        return self.cells.completes(current | cell, cell)

    def _blocks(self, current: int, mask: int) -> list[int]:
        """The columns where the side to move must play to stop the other side winning next (empty: none)."""
        cells = self.cells
        threats = winning_cells(cells, mask ^ current, mask)
        return [cells.column_of(cell) for cell in bits_of(threats)]

    # -- the search ------------------------------------------------------------------------------
    def _node(self, current: int, mask: int, every: bool, plies: int, parent: _Node | None) -> _Node:
        """The node of a position with ``plies`` left (one per position and bound: transpositions meet)."""
        key = (current + mask, plies)
        node = self.nodes.get(key)
        if node is None:
            node = self.nodes[key] = _Node(every, plies, current, mask)
        if parent is not None:
            node.parents.append(parent)
        return node

    def _run(self, top: _Node) -> bool:
        """Expands the most proving position until ``top`` is decided: proved?"""
        forcing = self.forcing
        while top.pn and top.dn:
            forcing._tick()
            forcing.nodes_left -= 1
            if forcing.nodes_left < 0:
                raise _Spent
            node = top
            children = node.children
            while children is not None:  # down to the most proving position
                node = min(children, key=_by_dn if node.every else _by_pn)[1]
                children = node.children
            if node.every:
                self._expand_mover(node)
            else:
                self._expand_defender(node)
            if node.children is not None:
                self._update(node)
            self._update_up(node)
        return top.pn == 0

    @staticmethod
    def _update(node: _Node) -> None:
        """A node's numbers from its children's: one answer proves the defender's, every one the mover's."""
        children = node.children or ()
        if node.every:
            node.pn = min(INFINITE, sum(child.pn for _, child in children))
            node.dn = min((child.dn for _, child in children), default=INFINITE)
        else:
            node.pn = min((child.pn for _, child in children), default=INFINITE)
            node.dn = min(INFINITE, sum(child.dn for _, child in children))

    def _update_up(self, node: _Node) -> None:
        """New numbers for the nodes that lead to ``node``, as far up as they change."""
        stack = list(node.parents)
        while stack:
            parent = stack.pop()
            before = parent.pn, parent.dn
            self._update(parent)
            if (parent.pn, parent.dn) != before:
                stack.extend(parent.parents)

    def _expand_mover(self, node: _Node) -> None:
        """The mover to move: a reason now, or every move answered (a move that wins at once refutes it)."""
        current, mask = node.current, node.mask
        leaf = self.forcing.leaf(self.cells, current, mask, self.want_win)
        if leaf is not None:
            node.leaf, node.pn, node.dn = leaf, 0, INFINITE
            return
        moves = self._moves(mask)
        if node.plies < 2 or not moves or any(self._wins(current, mask, move) for move in moves):
            node.pn, node.dn = INFINITE, 0
            return
        forced = bool(winning_cells(self.cells, mask ^ current, mask))  # the mover must block
        children = []
        for move in moves:
            after = self._play(current, mask, move)
            plies = node.plies - (not forced) - (len(self._blocks(*after)) != 1)  # forced moves use no ply
            child = self._node(*after, False, plies, node)
            self._ends(child)
            children.append((move, child))
        node.children = children

    def _ends(self, node: _Node) -> None:
        """Decides a new defender's node at once where it wins at once (or the board is full)."""
        if node.children is not None or node.ends is not None:
            return
        current, mask = node.current, node.mask
        legal = self._moves(mask)
        for answer in legal:
            if self._wins(current, mask, answer):
                node.ends = Branch(-1, answer, Leaf("win", mask ^ current, current), wins=True)
                node.pn, node.dn = 0, INFINITE
                return
        if not legal:
            node.ends = Branch(-1, None, Leaf("full", mask ^ current, current))
            node.pn, node.dn = (INFINITE, 0) if self.want_win else (0, INFINITE)

    def _expand_defender(self, node: _Node) -> None:
        """The defender to move: the answers that keep the claim (by the exact scores); wins were seen before."""
        current, mask = node.current, node.mask
        candidates = self._blocks(current, mask) or self._moves(mask)
        full = self.geometry.board_mask
        children = []
        for answer in self.forcing.keeping(self.geometry, current, mask, candidates, self.want_win):
            after = self._play(current, mask, answer)
            if after[1] != full:
                children.append((answer, self._node(*after, True, node.plies, node)))
        node.children = children

    # -- the tree found ----------------------------------------------------------------------------
    def _proof(self, node: _Node) -> Proof:
        """The proved tree below the mover's ``node`` (each position's tree made once)."""
        if node.leaf is not None:
            return node.leaf
        found = self._proofs.get(id(node))
        if found is not None:
            return found
        branches = []
        for move, child in node.children or ():
            if child.ends is not None:
                branches.append(Branch(move, child.ends.answer, child.ends.proof, child.ends.wins))
                continue
            answer, proved = next((answer, after) for answer, after in child.children or () if after.pn == 0)
            branches.append(Branch(move, answer, self._proof(proved)))
        found = self._proofs[id(node)] = Tree(tuple(branches))
        return found


def _by_pn(child: tuple[int, _Node]) -> int:
    return child[1].pn


def _by_dn(child: tuple[int, _Node]) -> int:
    return child[1].dn


def leaf_claims(board: Board, proof: Proof) -> list[tuple[str, bool]]:
    """Every reason without look-ahead in ``proof`` (about ``board``): ``(moves from board, defender wins)``.

    What a test or a benchmark re-solves to confirm a proof: after the moves,
    the side to move cannot win (``True``: loses). Wins at once are left out;
    a position the tree reaches in several orders is one claim (its first line).
    """
    found: list[tuple[str, bool]] = []
    seen: set[int] = set()
    position = board.copy()

    def walk(proof: Proof, moves: str) -> None:
        if position.key() in seen:
            return
        seen.add(position.key())
        if isinstance(proof, Leaf):
            if proof.kind not in ("win", "full"):
                found.append((moves, proof.wins))
        elif isinstance(proof, Attack):
            if proof.proof is not None:
                position.play(proof.move)
                walk(proof.proof, moves + str(proof.move + 1))
                position.undo()
        else:
            for branch in proof.branches:
                if branch.answer is not None and not branch.wins:
                    position.play(branch.move)
                    position.play(branch.answer)
                    walk(branch.proof, f"{moves}{branch.move + 1}{branch.answer + 1}")
                    position.undo()
                    position.undo()

    walk(proof, "")
    return found
