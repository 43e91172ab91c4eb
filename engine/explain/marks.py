"""What a reason marks on the board: cells claimed, pairs shared, groups refuted, threats.

The game's overlay and the PNG diagrams (:mod:`engine.explain.diagram`) draw
the same :class:`Picture`: the position at the end of the explanation's main
line, and for each rule (or threat) the cells it concerns, in ``(column,
row)`` from 0 at the bottom left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.board import Board
from engine.explain.cells import Cells, bits_of, cells_of
from engine.explain.combine import ORDER
from engine.explain.explanation import Explanation
from engine.explain.forcing import Attack, Proof, Tree
from engine.explain.prove import Leaf

#: The kinds of marks: a cell the defender is sure to get; two cells of which it gets one; a group of the
#: mover's that the rules refute; the defender's own line (it wins with it); a cell that wins; the cell
#: below an odd threat, which the mover must play in the end.
CLAIM, PAIR, REFUTED, LINE, THREAT, POISON = "claim", "pair", "refuted", "line", "threat", "poison"
Cell = tuple[int, int]


@dataclass(frozen=True)
class Mark:
    """One thing to draw: ``kind`` (see the module's constants), for ``rule``, on ``cells``."""

    rule: str
    kind: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Picture:
    """The position to draw (``moves`` after the explained one) and its marks; ``defender`` is Red or Yellow."""

    moves: str
    board: Board
    defender: str
    marks: tuple[Mark, ...]


def picture(board: Board, explanation: Explanation) -> Picture | None:
    """The marks of ``explanation`` (about ``board``) at the end of its main line, or None without a reason."""
    proof = explanation.proof
    if proof is None:
        return None
    position = board.copy()
    proof = _follow(proof, position, [int(move) - 1 for move in explanation.line])
    moves = "".join(str(col + 1) for col in position.history[len(board.history) :])
    defender = "Red" if position.ply % 2 else "Yellow"
    cells = cells_of(board.geometry)
    marks: list[Mark] = []
    if isinstance(proof, Leaf):
        marks = _leaf_marks(proof, cells)
    return Picture(moves, position, defender, tuple(marks))


def _follow(proof: Proof, position: Board, line: list[int]) -> Proof | None:
    """The proof at the end of ``line`` (played on ``position`` as it goes)."""
    while line:
        if isinstance(proof, Attack):
            if proof.proof is None:
                return proof
            position.play(proof.move)
            line = line[1:]
            proof = proof.proof
        elif isinstance(proof, Tree):
            branch = next((b for b in proof.branches if b.move == line[0]), None)
            if branch is None or branch.answer is None or branch.wins or len(line) < 2:
                return proof
            position.play(branch.move)
            position.play(branch.answer)
            line = line[2:]
            proof = branch.proof
        else:
            break
    return proof


def _leaf_marks(leaf: Leaf, cells: Cells) -> list[Mark]:
    def at(bits: int) -> tuple[Cell, ...]:
        return tuple(cells.col_row(cell) for cell in bits_of(bits))

    if leaf.kind == "double-threat":
        return [Mark("double-threat", THREAT, at(leaf.threats))]
    field = leaf.field
    if field is None or leaf.kind != "rules":
        return []
    marks = []
    if field.threats:
        marks.append(Mark("odd-threat", THREAT, at(field.threats | field.stacked << 1)))
        marks.append(Mark("odd-threat", POISON, at(field.poison)))
    solved = 0
    for item in sorted(leaf.instances, key=lambda item: ORDER.index(item.rule)):
        if item.claims:
            marks.append(Mark(item.rule, CLAIM, at(item.claims)))
        for first, second in item.pairs:
            marks.append(Mark(item.rule, PAIR, at(first | second)))
        if item.group:
            marks.append(Mark(item.rule, LINE, at(item.group)))
        for index, group in enumerate(field.problems):
            if item.solves >> index & 1 and not solved >> index & 1:
                marks.append(Mark(item.rule, REFUTED, at(group)))
        solved |= item.solves
    return marks


@dataclass(frozen=True)
class Why:
    """What the game shows of an explanation: its words and its marks, as plain data between processes.

    ``moves``: the main line's moves before the marks' position (the game draws them
    as numbered discs); ``defender``: whose marks they are and ``strategist``: the
    side whose strategy "Show me" plays (0: the first player; None: no reason).
    """

    score: int | None
    claim: str | None
    text: str
    brief: str
    line: str
    moves: str
    defender: int
    marks: tuple[Mark, ...]
    strategist: int | None


def why_of(board: Board, explanation: Explanation, names: tuple[str, str] = ("Red", "Yellow")) -> Why:
    """The game's view of ``explanation`` (about ``board``)."""
    from engine.explain.explanation import MOVER_WINS
    from engine.explain.words import brief

    shown = picture(board, explanation)
    mover = board.ply % 2
    strategist = None if explanation.proof is None else mover if explanation.claim == MOVER_WINS else 1 - mover
    mover_there = (board.ply + len(shown.moves)) % 2 if shown is not None else mover
    return Why(
        explanation.score,
        explanation.claim,
        explanation.text,
        brief(explanation, board, names),
        explanation.line,
        "" if shown is None else shown.moves,
        1 - mover_there,
        () if shown is None else shown.marks,
        strategist,
    )


def why_from(data: dict[str, Any]) -> Why:
    """The :class:`Why` of ``dataclasses.asdict`` data (checked field by field: it comes from another process)."""
    marks = tuple(
        Mark(str(mark["rule"]), str(mark["kind"]), tuple((int(col), int(row)) for col, row in mark["cells"]))
        for mark in data["marks"]
    )
    strategist = data["strategist"]
    return Why(
        None if data["score"] is None else int(data["score"]),
        None if data["claim"] is None else str(data["claim"]),
        str(data["text"]),
        str(data["brief"]),
        str(data["line"]),
        str(data["moves"]),
        int(data["defender"]),
        marks,
        None if strategist is None else int(strategist),
    )
