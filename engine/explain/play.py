"""Playing a reason: the moves of the side whose strategy an explanation shows, and the rule behind each.

"Show me" in the game lets a person try to break a reason: the person plays
the other side and :class:`Strategist` answers by the reason - the winning
move of a win, the answers of a reason that looks ahead, then the rules'
answers and follow-up (each answer one that the check shows still holds).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Board
from engine.explain.cells import cells_of
from engine.explain.check import Checker
from engine.explain.explanation import MOVER_WINS, Explanation
from engine.explain.forcing import Attack, Proof, Tree
from engine.explain.prove import Leaf, winning_cells


@dataclass(frozen=True)
class Move:
    """The strategist's column and why: a rule's name, ``follow-up``, ``answer``, ``win``, ..."""

    column: int
    rule: str


class Strategist:
    """Plays the side of ``explanation`` (about ``board``) whose strategy it shows."""

    def __init__(self, board: Board, explanation: Explanation) -> None:
        if explanation.proof is None:
            raise ValueError("an explanation without a reason has no strategy to play")
        self.root = board.copy()
        self.proof: Proof = explanation.proof
        root_mover = board.ply % 2
        #: whose strategy it is: the mover's for a win, else the other side's (0: the first player)
        self.side = root_mover if explanation.claim == MOVER_WINS else 1 - root_mover
        self._checkers: dict[int, Checker] = {}

    def follows(self, board: Board) -> bool:
        """Is ``board`` the root position or a continuation of it (its moves after the root's)?"""
        root = self.root.history
        return (
            board.geometry == self.root.geometry
            and board.history[: len(root)] == root
            and (board.root() == self.root.root())
        )

    def move(self, board: Board) -> Move | None:
        """The strategist's move in ``board`` (its side to move, a continuation of the root), or None."""
        if board.is_over or board.ply % 2 != self.side or not self.follows(board):
            return None
        cells = cells_of(board.geometry)
        now = winning_cells(cells, board.current, board.mask)
        if now:
            return Move(cells.column_of(now & -now), "win")  # a win at once is never passed over
        played = list(board.history[len(self.root.history) :])
        return self._walk(self.proof, played, board)

    def _walk(self, proof: Proof | None, played: list[int], board: Board) -> Move | None:
        while proof is not None:
            if isinstance(proof, Attack):
                if not played:
                    return Move(proof.move, "winning move")
                if played[0] != proof.move:
                    return None
                proof, played = proof.proof, played[1:]
            elif isinstance(proof, Tree):
                branch = next((b for b in proof.branches if played and b.move == played[0]), None)
                if branch is None or branch.answer is None:
                    return None
                if len(played) == 1:
                    return Move(branch.answer, "win" if branch.wins else "answer")
                if played[1] != branch.answer:
                    return None
                proof, played = branch.proof, played[2:]
            else:
                return self._leaf(proof, board)
        return None

    def _leaf(self, leaf: Leaf, board: Board) -> Move | None:
        """A move by a reason without look-ahead: the rules' answer that still holds, or any move left."""
        cells = cells_of(board.geometry)
        defender, mover = board.current, board.mask ^ board.current
        if leaf.kind != "rules" or leaf.field is None:
            return Move(board.legal_columns()[0], leaf.kind) if board.legal_columns() else None
        checker = self._checkers.setdefault(id(leaf), Checker(leaf.field, leaf.instances, leaf.wins))
        cell = _last_cell(board)
        reply = checker.answer(mover, defender, cell) if cell else None
        if reply is None:
            return None
        rule = _rule_of(leaf, cell, reply)
        return Move(cells.column_of(reply), rule)


def _last_cell(board: Board) -> int:
    """The cell of the last stone played (0 if none)."""
    if not board.history:
        return 0
    col = board.history[-1]
    g = board.geometry
    return g.cell(col, board.height(col) - 1)


def _rule_of(leaf: Leaf, cell: int, reply: int) -> str:
    """The rule whose answer to ``cell`` is ``reply``, else follow-up."""
    field = leaf.field
    if field is not None and cell & field.poison:
        return "odd-threat"
    for item in leaf.instances:
        for trigger, replies in item.answers:
            if trigger == cell and reply in replies:
                return item.rule
    return "follow-up"
