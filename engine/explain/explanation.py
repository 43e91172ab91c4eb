"""What ``explain`` answers: the exact score, a claim, the rules behind it, a line and the words.

:class:`Explanation` is one position's answer; :class:`Reason` one rule (or
threat) of it, with the cells, columns and groups it concerns and the moves
after which it applies (``after``: "" for the position itself). ``to_json``
gives the object the ``--json`` output prints, with exactly the keys
``position, score, claim, rules, line, text``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.explain.forcing import Proof

#: The claims, for the side to move.
MOVER_WINS = "mover wins"
CANNOT_WIN = "mover cannot win"
OPPONENT_WINS = "opponent wins"
CLAIMS = (MOVER_WINS, CANNOT_WIN, OPPONENT_WINS)


@dataclass(frozen=True)
class Reason:
    """One rule instance or threat: ``rule`` is one of Allis's nine or a threat word (``threat``, ...).

    ``player`` is whose strategy or threat it is (Red or Yellow); ``cells``
    are named ``d2`` (column letter, row from 1 at the bottom), ``columns``
    count from 1, ``groups`` are named by their ends (``d2-g2``): the groups
    the rule refutes, or the player's own line (an aftereven's, a threat's).
    """

    rule: str
    player: str
    cells: tuple[str, ...] = ()
    columns: tuple[int, ...] = ()
    groups: tuple[str, ...] = ()
    after: str = ""
    #: the player's own line (an aftereven's, a before's, a threat's), named by its ends
    line: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rule": self.rule,
            "player": self.player,
            "cells": list(self.cells),
            "columns": list(self.columns),
            "groups": list(self.groups),
            "after": self.after,
        }
        if self.line:
            out["line"] = self.line
        return out


@dataclass(frozen=True)
class Explanation:
    """One position explained. ``score`` is exact (``solve``'s convention) or None if not solved in time.

    ``claim`` is one of :data:`CLAIMS` or None (no checked reason found);
    ``line`` the main line of a reason that looks ahead, as a move string;
    ``text`` what a person reads. ``proof`` is the checked reason itself
    (for the game's picture and its "Show me"), ``over`` is set for a
    finished position.
    """

    position: str
    score: int | None
    claim: str | None
    rules: tuple[Reason, ...]
    line: str
    text: str
    proof: Proof | None = field(default=None, compare=False, repr=False)
    over: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "score": self.score,
            "claim": self.claim,
            "rules": [reason.to_json() for reason in self.rules],
            "line": self.line,
            "text": self.text,
        }

    def summary(self) -> str:
        """The command's plain line: ``POSITION SCORE TEXT`` (``?`` for a score not found in time)."""
        score = "?" if self.score is None else str(self.score)
        return f"{self.position} {score} {self.text}"
