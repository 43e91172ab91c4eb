"""The way in: a position's exact score and a checked reason for it, in words.

:class:`Explainer` solves the position with :class:`~engine.solver.auto.AutoSolver`
(the exact score is the claim's first check), then looks for a reason that
fits the score (:class:`~engine.explain.forcing.Forcing`): why the side to move
wins, loses, or cannot win. Every reason it returns has been played out
against every reply (:mod:`engine.explain.check`); when none is found in time
the explanation says so and gives the exact value alone::

    from engine.explain import Explainer

    explanation = Explainer().explain("4453")
    explanation.claim, explanation.text
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import ModuleType

from engine.board import Board, Side
from engine.errors import EngineError
from engine.explain.cells import cells_of
from engine.explain.explanation import CANNOT_WIN, MOVER_WINS, OPPONENT_WINS, Explanation, Reason
from engine.explain.forcing import Forcing, OutOfTime
from engine.explain.prove import RULES
from engine.explain.words import NAMES, Words, player_names, sentence
from engine.geometry import Geometry
from engine.limits import NO_LIMITS, Limits
from engine.solver.auto import AutoSolver

#: Moves a reason may look ahead (the mover's and the defender's together; a forced block not counted).
PLIES = 24
#: The most that may be asked for: the cells of the largest board.
MAX_PLIES = 81
NOT_SOLVED = "not solved within the limit: no value and no reason (raise --seconds)"


class Explainer:
    """Explains positions of one geometry; ``solver`` is shared by every position (its table learns)."""

    def __init__(
        self,
        geometry: Geometry | None = None,
        *,
        solver: AutoSolver | None = None,
        plies: int = PLIES,
        rules: Sequence[ModuleType] = RULES,
    ) -> None:
        self.geometry = geometry or (solver.geometry if solver is not None else Geometry())
        self.solver = solver or AutoSolver(self.geometry)
        self.plies = plies
        self.rules = tuple(rules)
        self._warm = False  # the compiled solver's kernels are loaded (before a clock runs)

    def explain(self, position: Board | str, limits: Limits = NO_LIMITS, names: tuple[str, str] = NAMES) -> Explanation:
        """The exact score and a checked reason (None where none is found within ``limits``).

        ``names``: the players as the words name them, the first player's first.
        A move string that is not a position raises :class:`~engine.errors.PositionError`.
        """
        board = position.copy() if isinstance(position, Board) else Board.from_moves(position, self.geometry)
        if board.geometry != self.geometry:
            raise EngineError(f"a {board.geometry} position given to the explainer of {self.geometry}")
        text = position if isinstance(position, str) else (board.move_string or "")
        if board.is_over:
            return finished(board, text, names)
        if limits != NO_LIMITS and not self._warm:
            # A limit sends every solve to the compiled solver: its kernels are loaded (or compiled, on a
            # first start) before the clock runs, so that the time limit is the search's.
            self.solver.compiled.warm_up()
            self._warm = True
        solution = self.solver.solve(board, limits)
        if solution.score is None:
            return Explanation(text, None, None, (), "", NOT_SOLVED)
        # The reasons get what the solve left of the time (loading the solver's kernels is not counted).
        deadline = None if limits.seconds is None else time.perf_counter() + limits.seconds - solution.seconds
        score = int(solution.score.value)
        oracle = _Oracle(self.solver, limits, deadline)
        forcing = Forcing(oracle.signs, self.plies, self.rules, deadline, limits.stop)
        words = Words(board, oracle.best, names)
        try:
            if score > 0:
                attack = forcing.attack(board, oracle(board))
                if attack is not None:
                    reasons, line, said = words.attack(attack)
                    return Explanation(text, score, MOVER_WINS, tuple(reasons), line, sentence(said), attack)
            else:
                for want_win in (True, False) if score < 0 else (False,):
                    proof = forcing.defend(board, want_win)
                    if proof is not None:
                        reasons, line, said = words.defence(proof)
                        claim = OPPONENT_WINS if want_win else CANNOT_WIN
                        return Explanation(text, score, claim, tuple(reasons), line, sentence(said), proof)
        except OutOfTime:
            return Explanation(text, score, None, (), "", no_reason(board, score, names, in_time=False))
        return Explanation(text, score, None, (), "", no_reason(board, score, names))


class _Oracle:
    """Exact scores of every column for the forcing search, within the explanation's limits."""

    def __init__(self, solver: AutoSolver, limits: Limits, deadline: float | None) -> None:
        self.solver, self.limits, self.deadline = solver, limits, deadline

    def __call__(self, board: Board) -> list[int | None]:
        analysis = self.solver.analyze(board, self._limits())
        if not analysis.finished:
            raise OutOfTime
        return [None if score is None else int(score.value) for score in analysis.scores]

    def signs(self, board: Board, columns: Sequence[int]) -> dict[int, int]:
        """The sign of the exact score of each of ``columns``: weak solves, quicker than the scores."""
        if len(columns) == 1:  # (a forced answer: one solve, not one per column)
            col = columns[0]
            if board.is_winning_move(col):
                return {col: 1}
            board.play(col)
            try:
                solution = self.solver.solve(board, self._limits(), weak=True)
            finally:
                board.undo()
            if solution.score is None:
                raise OutOfTime
            return {col: -int(solution.score.value)}
        analysis = self.solver.analyze(board, self._limits(), weak=True)
        if not analysis.finished:
            raise OutOfTime
        return {col: int(score.value) for col in columns if (score := analysis.scores[col]) is not None}

    def _limits(self) -> Limits:
        """The explanation's limits, with what is left of its time."""
        if self.deadline is None:
            return self.limits
        left = self.deadline - time.perf_counter()
        if left <= 0:
            raise OutOfTime
        return Limits(self.limits.nodes, left, self.limits.stop)

    def best(self, board: Board) -> int | None:
        """The mover's best column (the first of the best ones), or None out of time."""
        try:
            scores = self(board)
        except OutOfTime:
            return None
        playable = [col for col, score in enumerate(scores) if score is not None]
        return max(playable, key=lambda col: scores[col] or 0) if playable else None


def finished(board: Board, text: str, names: tuple[str, str] = NAMES) -> Explanation:
    """A position already over: who won and where (the side to move has lost), or a draw."""
    if board.winner is None:
        return Explanation(text, 0, CANNOT_WIN, (), "", "The board is full: a draw.", over=True)
    cells = cells_of(board.geometry)
    stones = board.stones(board.winner)
    groups = [group for group in cells.groups if group & stones == group]
    lines = tuple(cells.group_name(group) for group in groups)
    winner = names[0] if board.winner is Side.FIRST else names[1]
    reason = Reason("won", winner, tuple(cells.names(sum(set(groups)))), (), lines)
    score = -board.geometry.win_score(board.ply)
    said = f"{winner} has won: {', '.join(lines)}."
    return Explanation(text, score, OPPONENT_WINS, (reason,), "", said, over=True)


def no_reason(board: Board, score: int, names: tuple[str, str] = NAMES, in_time: bool = True) -> str:
    """What is said without a reason: the exact value, and why there is no short reason."""
    mover, defender = player_names(board, names)
    value = f"{mover} wins" if score > 0 else f"{defender} wins" if score < 0 else "a draw with best play"
    if not in_time:
        return f"Exact value: {value}; no reason was found within the time limit."
    if score <= 0 and (board.geometry.cells - board.ply) % 2 == 1:
        why = (
            f"{defender} does not control zugzwang here (an odd number of empty cells and no odd threat of "
            f"{defender}'s), so no rule applies, and no short forcing line ends in one"
        )
        return f"Exact value: {value}; no short reason: {why}."
    return f"Exact value: {value}; no short reason found (no set of rules holds, even a few moves ahead)."
