"""Reasons a few moves ahead: every reply of the mover answered, until a reason needs no look-ahead.

Where :func:`engine.explain.prove.prove` finds nothing in the position
itself, the mover's every move is tried: a move that lets the defender win at
once is answered by that win; any other gets an answer of the defender's
after which there is a reason (tried first without looking further, then,
with plies left, the answers the exact solver keeps the claim with, each one
looked into). The result is a tree: for each of the mover's moves, the
defender's answer and the reason after it.

A win for the side to move is a winning move followed by such a tree for the
opponent's replies (:meth:`Forcing.attack`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Union

from engine.board import Board
from engine.explain.cells import bits_of, cells_of
from engine.explain.prove import RULES, Leaf, prove, winning_cells

#: Exact scores of every column of a position for its side to move (None: full, or unknown).
Oracle = Callable[[Board], Sequence[int | None]]


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


class Forcing:
    """Searches for reasons up to ``plies`` moves ahead; ``oracle`` gives exact scores, ``deadline`` ends it."""

    def __init__(
        self,
        oracle: Oracle,
        plies: int = 4,
        rules: Sequence[ModuleType] = RULES,
        deadline: float | None = None,
    ) -> None:
        self.oracle = oracle
        self.plies = plies
        self.rules = tuple(rules)
        self.deadline = deadline
        self._proved: dict[tuple[int, bool], tuple[int, Proof]] = {}  # the fewest plies a reason was found in
        self._failed: dict[tuple[int, bool], int] = {}  # the most plies in which none was found
        self._leaves: dict[tuple[int, bool], Leaf | None] = {}

    def _tick(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime

    def _leaf(self, board: Board, want_win: bool) -> Leaf | None:
        """:func:`~engine.explain.prove.prove` of ``board`` (each position proved once)."""
        key = (board.key(), want_win)
        if key not in self._leaves:
            self._tick()
            cells = cells_of(board.geometry)
            self._leaves[key] = prove(cells, board.current, board.mask ^ board.current, want_win, self.rules)
        return self._leaves[key]

    # -- the defender's side: the mover cannot win, or loses ------------------------------------
    def defend(self, board: Board, want_win: bool) -> Proof | None:
        """Why the side to move cannot win (``want_win``: loses), or None: the shortest reason first.

        The look-ahead deepens two plies at a time up to ``plies``, so that a
        reason a person can follow is preferred to a longer one.
        """
        for plies in range(0, self.plies + 1, 2):
            found = self._defend(board, want_win, plies)
            if found is not None:
                return found
        return None

    def _defend(self, board: Board, want_win: bool, plies: int) -> Proof | None:
        """Why the side to move cannot win (``want_win``: loses) within ``plies``, or None.

        A reason found within fewer plies holds within more, and none within
        more means none within fewer: what a shallower search learnt is used.
        """
        key = (board.key(), want_win)
        proved = self._proved.get(key)
        if proved is not None and proved[0] <= plies:
            return proved[1]
        if self._failed.get(key, -1) >= plies:
            return None
        found: Proof | None = self._leaf(board, want_win)
        if found is None and plies >= 2:
            found = self._tree(board, want_win, plies)
        if found is None:
            self._failed[key] = plies
        else:
            self._proved[key] = (plies, found)
        return found

    def _tree(self, board: Board, want_win: bool, plies: int) -> Tree | None:
        branches = []
        for move in self._moves(board):
            if board.is_winning_move(move):
                return None
            board.play(move)
            try:
                branch = self._answer(board, move, want_win, plies)
            finally:
                board.undo()
            if branch is None:
                return None
            branches.append(branch)
        return Tree(tuple(branches))

    def _moves(self, board: Board) -> list[int]:
        """The mover's moves, the centre first (they refute a wrong answer most often: a failure comes sooner)."""
        centre = board.geometry.cols // 2
        return sorted(board.legal_columns(), key=lambda col: (abs(col - centre), col))

    def _answer(self, board: Board, move: int, want_win: bool, plies: int) -> Branch | None:
        """The defender's answer to ``move`` (already played) and the reason after it, or None."""
        legal = board.legal_columns()
        for answer in legal:
            if board.is_winning_move(answer):
                return Branch(move, answer, Leaf("win", board.mask ^ board.current, board.current), wins=True)
        if not legal:
            return None if want_win else Branch(move, None, Leaf("full", board.mask ^ board.current, board.current))
        blocks = self._blocks(board)
        candidates = blocks if blocks else legal
        for answer in candidates:  # first: an answer after which the reason needs no look-ahead
            board.play(answer)
            try:
                leaf = None if board.is_over else self._leaf(board, want_win)
            finally:
                board.undo()
            if leaf is not None:
                return Branch(move, answer, leaf)
        if plies < 4:
            return None
        for answer in self._good_answers(board, candidates, want_win):
            board.play(answer)
            try:
                proof = None if board.is_over else self._defend(board, want_win, plies - 2)
            finally:
                board.undo()
            if proof is not None:
                return Branch(move, answer, proof)
        return None

    def _blocks(self, board: Board) -> list[int]:
        """The columns where the side to move must play to stop the other side winning next (empty: none)."""
        cells = cells_of(board.geometry)
        threats = winning_cells(cells, board.mask ^ board.current, board.mask)
        return [cells.column_of(cell) for cell in bits_of(threats)]

    def _good_answers(self, board: Board, candidates: list[int], want_win: bool) -> list[int]:
        """The candidates that keep the claim (by the exact scores), best first."""
        self._tick()
        scores = self.oracle(board)
        floor = 1 if want_win else 0
        values = {col: score for col in candidates if (score := scores[col]) is not None and score >= floor}
        return sorted(values, key=lambda col: -values[col])

    # -- the side to move wins ---------------------------------------------------------------
    def attack(self, board: Board, scores: Sequence[int | None]) -> Attack | None:
        """Why the side to move wins (``scores``: the exact score of each column), or None."""
        for col in board.legal_columns():
            if board.is_winning_move(col):
                return Attack(col, None)
        winning = sorted(
            (col for col in board.legal_columns() if (scores[col] or 0) > 0), key=lambda col: -(scores[col] or 0)
        )
        for plies in range(0, self.plies, 2):  # (the winning move is the first ply: the shortest reason first)
            for col in winning:
                board.play(col)
                try:
                    proof = self._defend(board, True, plies)
                finally:
                    board.undo()
                if proof is not None:
                    return Attack(col, proof)
        return None


def leaf_claims(board: Board, proof: Proof) -> list[tuple[str, bool]]:
    """Every reason without look-ahead in ``proof`` (about ``board``): ``(moves from board, defender wins)``.

    What a test or a benchmark re-solves to confirm a proof: after the moves,
    the side to move cannot win (``True``: loses). Wins at once are left out.
    """
    found: list[tuple[str, bool]] = []

    def walk(proof: Proof, moves: str) -> None:
        if isinstance(proof, Leaf):
            if proof.kind not in ("win", "full"):
                found.append((moves, proof.wins))
        elif isinstance(proof, Attack):
            if proof.proof is not None:
                walk(proof.proof, moves + str(proof.move + 1))
        else:
            for branch in proof.branches:
                if branch.answer is not None and not branch.wins:
                    walk(branch.proof, f"{moves}{branch.move + 1}{branch.answer + 1}")

    walk(proof, "")
    return found
