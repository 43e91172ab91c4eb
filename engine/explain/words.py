"""A checked reason in words and as :class:`~engine.explain.explanation.Reason` objects.

Each rule module says what its instances do (``words``); this module adds
what that stops ("which stops Red's a2-d2 and b4-e4"), the threats, the
answers of a reason that looks ahead, and the sentence that says the claim.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.board import Board
from engine.explain.cells import Cells, bits_of, cells_of, listed
from engine.explain.combine import ORDER
from engine.explain.explanation import CANNOT_WIN, MOVER_WINS, OPPONENT_WINS, Explanation, Reason
from engine.explain.field import Field
from engine.explain.forcing import Attack, Branch, Proof, Tree
from engine.explain.prove import RULES, Leaf
from engine.explain.rule import Instance

#: Groups named in a sentence before "and N more".
NAMED_GROUPS = 3
_MODULES = {rule.NAME: rule for rule in RULES}
#: The main line's move at a node of a tree: the mover's best move (by the exact scores), or None.
BestMove = Callable[[Board], int | None]


#: The players' names, the first player's first (the game passes the colours it plays with).
NAMES = ("Red", "Yellow")


def player_names(board: Board, names: tuple[str, str] = NAMES) -> tuple[str, str]:
    """(the side to move, the other side), named by ``names`` (the first player's first)."""
    return (names[0], names[1]) if board.ply % 2 == 0 else (names[1], names[0])


class Words:
    """Reasons and sentences for the proofs about one position (``board``: the position explained)."""

    def __init__(self, board: Board, best: BestMove | None = None, names: tuple[str, str] = NAMES) -> None:
        self.board = board.copy()
        self.cells: Cells = cells_of(board.geometry)
        self.best = best
        self.names = names

    # -- a reason that looks ahead ---------------------------------------------------------------
    def attack(self, proof: Attack) -> tuple[list[Reason], str, str]:
        """(reasons, line, text) of a win for the side to move."""
        mover = player_names(self.board, self.names)[0]
        column = proof.move
        cell = self._landing(column)
        if proof.proof is None:
            self.board.play(column)
            group = self._completed(self.board.mask ^ self.board.current, cell)
            self.board.undo()
            reason = Reason("threat", mover, (self.cells.name(cell),), (column + 1,), (), "", group)
            return [reason], str(column + 1), f"{mover} wins at once in column {column + 1}: {group}."
        self.board.play(column)
        try:
            reasons, line, text = self.defence(proof.proof, after=str(column + 1))
        finally:
            self.board.undo()
        first = Reason("winning-move", mover, (self.cells.name(cell),), (column + 1,))
        text = f"{mover} wins with column {column + 1} ({self.cells.name(cell)}). After it, {text}"
        return [first, *reasons], str(column + 1) + line, text

    def defence(self, proof: Proof, after: str = "") -> tuple[list[Reason], str, str]:
        """(reasons, line, text): why the side to move of ``self.board`` cannot win (or loses)."""
        reasons, line, end = self._walk(proof, after)
        if isinstance(proof, Leaf):
            return reasons, line, end
        assert isinstance(proof, Tree)
        mover, defender = player_names(self.board, self.names)
        answers = [
            f"{mover} {branch.move + 1}, {defender} {branch.answer + 1}{' and wins' if branch.wins else ''}"
            if branch.answer is not None
            else f"{mover} {branch.move + 1} fills the board"
            for branch in proof.branches
        ]
        again = any(isinstance(branch.proof, Tree) for branch in proof.branches)
        first = f"whatever {mover} plays, {defender} has an answer ({'; '.join(answers)})"
        first += ", and again after each next move" if again else ""
        named = ", ".join(f"{(mover, defender)[index % 2]} {int(move)}" for index, move in enumerate(line))
        return reasons, line, f"{first}. After {named}: {end}"

    def _walk(self, proof: Proof, after: str, first: bool = True) -> tuple[list[Reason], str, str]:
        """(reasons, main line, what is said at its end) of a proof about ``self.board``.

        The reasons are the answers to each of the mover's first moves, then
        those along the main line and the rules at its end (a deep look-ahead
        answers thousands of moves: the whole strategy is the proof itself).
        """
        if isinstance(proof, Leaf):
            found, said = self.leaf(proof, after)
            return found, "", said
        assert isinstance(proof, Tree)
        defender = player_names(self.board, self.names)[1]
        reasons: list[Reason] = []
        main = self._main_branch(proof)
        main_line, main_end = "", ""
        for branch in proof.branches:
            if branch is not main and not first:
                continue
            self.board.play(branch.move)
            here = after + str(branch.move + 1)
            try:
                if branch.answer is None:
                    if branch is main:
                        main_line, main_end = str(branch.move + 1), "the board is full: a draw."
                    continue
                cell = self._landing(branch.answer)
                if branch.wins:
                    group = self._completed(self.board.current | cell, cell)
                    reasons.append(
                        Reason("threat", defender, (self.cells.name(cell),), (branch.answer + 1,), (), here, group)
                    )
                    if branch is main:
                        main_line = str(branch.move + 1)
                        main_end = f"{defender} wins at once in column {branch.answer + 1} ({group})."
                    continue
                reasons.append(Reason("answer", defender, (self.cells.name(cell),), (branch.answer + 1,), (), here))
                if branch is not main:
                    continue
                self.board.play(branch.answer)
                try:
                    sub_reasons, sub_line, sub_end = self._walk(branch.proof, here + str(branch.answer + 1), False)
                finally:
                    self.board.undo()
                reasons += sub_reasons
                main_line, main_end = f"{branch.move + 1}{branch.answer + 1}{sub_line}", sub_end
            finally:
                self.board.undo()
        return reasons, main_line, main_end

    def _main_branch(self, tree: Tree) -> Branch | None:
        """The branch of the mover's best move (the first one if the scores are not asked for)."""
        best = self.best(self.board) if self.best is not None else None
        for branch in tree.branches:
            if branch.move == best:
                return branch
        return tree.branches[0] if tree.branches else None

    # -- a reason without look-ahead ----------------------------------------------------------
    def leaf(self, leaf: Leaf, after: str) -> tuple[list[Reason], str]:
        mover, defender = player_names(self.board, self.names)
        cells = self.cells
        if leaf.kind == "double-threat":
            names = cells.names(leaf.threats)
            columns = tuple(sorted({cells.column_of(cell) + 1 for cell in bits_of(leaf.threats)}))
            reason = Reason("double-threat", defender, tuple(names), columns, (), after)
            stacked = len(columns) == 1
            where = f"{names[0]} and on top of it at {names[1]}" if stacked else listed(names)
            return [reason], f"{defender} wins: {defender} threatens to win at {where}, and {mover} can stop only one."
        if leaf.kind == "no-lines":
            reason = Reason("no-lines", defender, after=after)
            return [reason], f"{mover} cannot win: every line {mover} could still make holds a stone of {defender}'s."
        if leaf.kind == "full":
            return [], "the board is full: a draw."
        return self._rules(leaf, after, mover, defender)

    def _rules(self, leaf: Leaf, after: str, mover: str, defender: str) -> tuple[list[Reason], str]:
        field = leaf.field
        assert field is not None
        cells = self.cells
        reasons: list[Reason] = []
        clauses: list[str] = []
        if field.threats:
            reasons += self._threats(field, after, defender)
            clauses.append(self._threats_said(field, mover, defender))
        owner = _owners(leaf.instances, len(field.problems))
        for rule in ORDER:
            items = [item for item in leaf.instances if item.rule == rule]
            if not items:
                continue
            groups: list[str] = []
            for item in items:
                solved = [field.problems[index] for index, who in owner.items() if who is item]
                names = tuple(cells.group_name(group) for group in solved)
                groups += names
                columns = tuple(sorted({cells.column_of(cell) + 1 for cell in bits_of(item.cells)}))
                line = cells.group_name(item.group) if item.group else ""
                reasons.append(Reason(rule, defender, tuple(cells.names(item.cells)), columns, names, after, line))
            clause = _MODULES[rule].words(items, field, mover, defender)
            if groups:
                clause += f", which stops {mover}'s {_some(groups)}"
            clauses.append(clause)
        claim = f"{defender} wins" if leaf.wins else f"{mover} cannot win"
        return reasons, f"{claim}: " + "; ".join(clauses) + "."

    def _threats(self, field: Field, after: str, defender: str) -> list[Reason]:
        """A reason for each of the field's threats (rule ``odd-threat`` where it gives zugzwang, else
        ``even-threat``; ``stacked-threat`` for two threats one above the other): its cells, then those below."""
        cells = self.cells
        reasons = []
        for threat in bits_of(field.threats):
            column = cells.column_of(threat)
            group = self._completed(field.defender | threat, threat)
            where: tuple[int, ...] = (threat, threat >> 1)
            if threat & field.stacked:
                where = (threat, threat << 1, threat >> 1, threat >> 2)
                kind = "stacked-threat"
            else:
                kind = "odd-threat" if (field.frozen & cells.columns[column]).bit_count() % 2 else "even-threat"
            names = tuple(cells.name(cell) for cell in where)
            reasons.append(Reason(kind, defender, names, (column + 1,), (), after, group))
        return reasons

    def _threats_said(self, field: Field, mover: str, defender: str) -> str:
        """The threats in words: why neither side plays below them, and who must in the end."""
        cells = self.cells
        named, below, stacks = [], [], []
        for threat in bits_of(field.threats):
            group = self._completed(field.defender | threat, threat)
            if threat & field.stacked:
                upper = threat << 1
                lower, poison = threat >> 1, threat >> 2
                named.append(
                    f"{cells.name(threat)} and, on top of it, {cells.name(upper)} ({group}; "
                    f"{self._completed(field.defender | upper, upper)})"
                )
                stacks.append(
                    f"if {mover} plays {cells.name(poison)}, {defender} plays {cells.name(lower)} and wins at "
                    f"{cells.name(upper)} once {mover} blocks {cells.name(threat)}"
                )
                below.append(cells.name(poison))
            else:
                named.append(f"{cells.name(threat)} ({group})")
                below.append(cells.name(threat >> 1))
        where = listed(below).replace(" and ", " or ")
        them = "it" if len(named) == 1 and not stacks else "them"
        said = (
            f"{defender}'s {'threat' if them == 'it' else 'threats'} at {listed(named)} cannot be stopped: "
            f"neither side plays {where} below {them}"
        )
        if stacks:
            said += f" ({'; '.join(stacks)})"
        return said + (
            f", {defender} follows up on the rest of the board, and in the end {mover} must play {where} (zugzwang)"
        )

    # -- helpers --------------------------------------------------------------------------------
    def _landing(self, column: int) -> int:
        return self.cells.playable(self.board.mask) & self.cells.columns[column]

    def _completed(self, stones: int, cell: int) -> str:
        """The name of a group through ``cell`` that ``stones`` complete."""
        for index in self.cells.through[cell]:
            group = self.cells.groups[index]
            if group & stones == group:
                return self.cells.group_name(group)
        return self.cells.name(cell)


def _owners(instances: tuple[Instance, ...], count: int) -> dict[int, Instance]:
    """Each problem's instance: the first (simplest) that solves it."""
    owner: dict[int, Instance] = {}
    for item in sorted(instances, key=lambda item: ORDER.index(item.rule)):
        for index in range(count):
            if item.solves >> index & 1 and index not in owner:
                owner[index] = item
    return owner


def _some(names: list[str]) -> str:
    """A few names, then how many more."""
    if len(names) <= NAMED_GROUPS + 1:
        return listed(names)
    return ", ".join(names[:NAMED_GROUPS]) + f" and {len(names) - NAMED_GROUPS} more"


def sentence(text: str) -> str:
    """``text`` with a capital first letter."""
    return text[:1].upper() + text[1:]


def brief(explanation: Explanation, board: Board, names: tuple[str, str] = NAMES) -> str:
    """The reason in one short sentence: the claim and the rules at the end of the main line.

    ``Yellow wins: odd threat at e5 (zugzwang), claimeven in column 1`` - what
    a review prints beside a mistake (``why=``) and the game shows first.
    """
    mover, defender = player_names(board, names)
    if explanation.claim is None:
        return ""
    if explanation.over:
        return explanation.text.rstrip(".")
    claim = {MOVER_WINS: f"{mover} wins", CANNOT_WIN: f"{mover} cannot win", OPPONENT_WINS: f"{defender} wins"}
    head = claim[explanation.claim]
    line = explanation.line
    moves = " ".join(line)
    final = [reason for reason in explanation.rules if reason.after == line and reason.rule != "answer"]
    at_once = [reason for reason in explanation.rules if reason.rule == "threat" and not reason.after]
    if explanation.claim == MOVER_WINS and at_once:
        return f"{mover} wins at once in column {line[0]} ({at_once[0].line})"
    if explanation.claim == MOVER_WINS and line:
        head = f"{mover} wins with column {line[0]}"
        moves = " ".join(line[1:])
    phrases = _phrases(final)
    if not phrases:
        return head
    return f"{head}: " + (f"after {moves}, " if moves else "") + ", ".join(phrases)


def _phrases(reasons: list[Reason]) -> list[str]:
    """A few words per rule (the claimevens together)."""
    phrases = []
    reasons = sorted(reasons, key=lambda reason: reason.rule not in ("odd-threat", "double-threat", "threat"))
    columns = sorted({col for reason in reasons if reason.rule == "claimeven" for col in reason.columns})
    if columns:
        where = "column" if len(columns) == 1 else "columns"
        phrases.append(f"claimeven in {where} {listed([str(col) for col in columns])}")
    for reason in reasons:
        rule, cells = reason.rule, list(reason.cells)
        if rule in ("baseinverse", "vertical"):
            phrases.append(f"{rule} {'/'.join(cells)}")
        elif rule in ("aftereven", "before", "specialbefore"):
            phrases.append(f"{rule} {reason.line}")
        elif rule in ("lowinverse", "highinverse"):
            phrases.append(f"{rule} in columns {listed([str(col) for col in reason.columns])}")
        elif rule == "baseclaim":
            phrases.append(f"baseclaim {', '.join(cells[:3])}")
        elif rule == "odd-threat":
            phrases.append(f"threat at {cells[0]} (zugzwang)")
        elif rule == "double-threat":
            phrases.append(f"double threat at {' and '.join(cells)}")
        elif rule == "no-lines":
            phrases.append("no line left to complete")
        elif rule == "threat":
            phrases.append(f"a win at once at {cells[0]}")
        elif rule == "won":
            phrases.append(f"{reason.player} has won")
    return phrases
