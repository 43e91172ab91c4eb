"""The human agent: a person choosing columns at a terminal prompt.

The GUI does not call :meth:`HumanAgent.choose`: it sees ``is_human`` and takes
the move from the mouse or keyboard instead. ``match`` and ``play`` in a
terminal use the prompt below.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import register
from engine.board import Board
from engine.errors import ValueRangeError
from engine.stop import StopFlag
from engine.validate import shown, whole_number


class QuitGame(Exception):
    """The person asked to quit (``q``) or the input ended."""

    @property
    def farewell(self) -> str:
        """The line a command ends with when this stops its game."""
        return "End of input: bye!" if str(self) == "end of input" else "Bye!"


def read_column(board: Board, prompt: str, read: Callable[[str], str], write: Callable[[str], None]) -> int:
    """Ask until the answer is a legal 1-based column; return it 0-based.

    Not a number, out of range and full columns get a message and a new
    prompt; ``q`` or the end of input raise :class:`QuitGame`.
    """
    cols = board.geometry.cols
    while True:
        try:
            answer = read(prompt).strip()
        except EOFError:
            raise QuitGame("end of input") from None
        if answer.lower() in ("q", "quit", "exit"):
            raise QuitGame("quit")
        try:
            col = whole_number(answer, "a column") - 1  # ASCII digits only; the range is the rules' business
        except ValueRangeError:
            write(f"Please type a column number from 1 to {cols} (or q to quit), not {shown(answer)}.")
            continue
        reason = board.legality(col)
        if reason is None:
            return col
        write(f"Illegal move: {reason}.")


@register("human", "a person: the mouse or keyboard in the game, a prompt in the terminal")
@dataclass
class HumanAgent(Agent):
    is_human = True
    read: Callable[[str], str] = field(default=input, repr=False, compare=False)
    write: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stdout), repr=False, compare=False)

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        prompt = f"{board.turn.symbol}'s move (1-{board.geometry.cols}, q quits): "
        return SearchResult(column=read_column(board, prompt, self.read, self.write))
