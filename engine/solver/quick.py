"""Small positions in plain Python: the first answers of a process, before the compiled solver is there.

Loading numba and the compiled search from its cache takes a process about
0.4 s before the first search; an end-game position then takes microseconds.
A pipe that starts ``python -m engine solve`` once per position would wait on
that more than on any search. :class:`QuickSolver` answers such positions
without numba or numpy: Pons's negamax in plain Python over the same bitboards
(as Python integers), moves in the compiled solver's order of promise, with a
node budget. A position it cannot finish within the
budget goes to the compiled :class:`~engine.solver.solver.Solver`, which is
loaded then and answers everything after it.

Exact like the compiled solver (the tests check both agree on the Pons sets),
but thousands of times slower per position: it is only for small searches.
"""

from __future__ import annotations

from engine.board import Board
from engine.geometry import Geometry
from engine.solver.questions import next_question
from engine.solver.settings import PROMISE_ANY, PROMISE_LATER, PROMISE_NOW, PROMISE_SOON

#: Positions a quick solve may visit before it gives up (about 60 ms: 12 us a position).
BUDGET = 5_000


class OverBudget(Exception):
    """The search needs more than the budget."""


class QuickSolver:
    """Exact scores in Pons's convention (see docs/cli.md) of positions whose search is small."""

    def __init__(self, geometry: Geometry, budget: int = BUDGET) -> None:
        self.geometry = geometry
        self.budget = budget
        self.nodes = 0
        g = geometry
        self._cells, self._connect = g.cells, g.connect
        self._bottom, self._full = g.bottom_mask, g.board_mask
        # Shifts that line a cell up with the connect - 1 cells below it in its column, and with
        # those behind and ahead of it in the three other directions (see engine.geometry).
        self._below = tuple(range(1, g.connect))
        directions = (g.height - 1, g.height, g.height + 1)
        self._lines = tuple(tuple(k * step for k in range(1, g.connect)) for step in directions)
        centre = g.cols // 2
        self._order = sorted(range(g.cols), key=lambda col: (abs(col - centre), col))  # centre first
        self._columns = [g.column_mask(col) for col in range(g.cols)]
        self._table: dict[int, tuple[int, int]] = {}  # key -> (lowest, highest) proven

    # -- public -----------------------------------------------------------------------------
    def solve(self, board: Board, weak: bool = False) -> int | None:
        """The score (weak: its sign) of a position not over, or None if the budget runs out."""
        current, mask, ply = board.current, board.mask, board.ply
        self.nodes = 0
        try:
            if self._wins_now(current, mask):
                score = self.geometry.win_score(ply + 1)
            else:
                score = self._solve(current, mask, ply, weak)
        except OverBudget:
            return None
        return (score > 0) - (score < 0) if weak else score

    def analyze(self, board: Board) -> list[int | None] | None:
        """The score of playing each column (None: full) of a position not over; None if over budget."""
        scores: list[int | None] = []
        self.nodes = 0
        try:
            for col in range(self.geometry.cols):
                if not board.is_legal(col):
                    scores.append(None)
                elif board.is_winning_move(col):
                    scores.append(self.geometry.win_score(board.ply + 1))
                else:
                    board.play(col)
                    try:
                        scores.append(self._child_score(board))
                    finally:
                        board.undo()
        except OverBudget:
            return None
        return scores

    # -- the search ---------------------------------------------------------------------------
    def _child_score(self, board: Board) -> int:
        """Minus the score of the position after a move (the mover's score for that move)."""
        if board.is_full:
            return 0
        if self._wins_now(board.current, board.mask):
            return -self.geometry.win_score(board.ply + 1)
        return -self._solve(board.current, board.mask, board.ply, False)

    def _solve(self, current: int, mask: int, ply: int, weak: bool) -> int:
        """The exact score of a position whose mover cannot win at once, by null-window questions."""
        low, high = -((self._cells - ply) // 2), (self._cells + 1 - ply) // 2
        if weak:
            low, high = max(low, -1), min(high, 1)
        while low < high:
            middle = next_question(low, high, ply, self._cells)
            value = self._negamax(current, mask, ply, middle, middle + 1)
            if value <= middle:
                high = value
            else:
                low = value
        return low

    def _negamax(self, current: int, mask: int, ply: int, alpha: int, beta: int) -> int:
        """Negamax with alpha-beta (see engine.solver.negamax for the bounds it returns)."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise OverBudget
        cells = self._cells
        opponent = current ^ mask
        threats = self._winning_cells(opponent, mask)
        playable = (mask + self._bottom) & self._full
        forced = playable & threats
        if forced:
            if forced & (forced - 1):
                return -((cells - ply) // 2)  # two threats to block: lost
            playable = forced
        moves = playable & ~(threats >> 1)  # never right below an opponent's winning cell
        if not moves:
            return -((cells - ply) // 2)
        if ply >= cells - 2:
            return 0
        alpha = max(alpha, -((cells - 2 - ply) // 2))  # the opponent cannot win with their next stone
        beta = min(beta, (cells - 1 - ply) // 2)  # we cannot win with this stone
        key = current + mask
        lowest, highest = self._table.get(key, (alpha, beta))
        alpha, beta = max(alpha, lowest), min(beta, highest)
        if alpha >= beta:
            return alpha
        start = alpha
        best = -cells
        for cell in self._ordered(current, mask, moves, threats):
            score = -self._negamax(opponent, mask | cell, ply + 1, -beta, -alpha)
            best = max(best, score)
            if score >= beta:
                break
            alpha = max(alpha, score)
        known_low, known_high = self._table.get(key, (-cells, cells))
        if best >= beta:
            known_low = max(known_low, best)
        elif best <= start:
            known_high = min(known_high, best)
        else:
            known_low = known_high = best
        self._table[key] = (known_low, known_high)
        return best

    def _ordered(self, current: int, mask: int, moves: int, opponent_threats: int) -> list[int]:
        """The cells of ``moves``, most promising first (engine.solver.moves.move_promise), centre first on ties."""
        bottom, full = self._bottom, self._full
        scored = []
        for place, col in enumerate(self._order):
            cell = self._columns[col] & moves
            if cell:
                after = mask | cell
                useful = self._winning_cells(current | cell, after) & ~(opponent_threats << 1)
                playable = (after + bottom) & full
                above = (playable << 1) & full
                promise = (
                    PROMISE_NOW * (useful & playable).bit_count()
                    + PROMISE_SOON * (useful & above).bit_count()
                    + PROMISE_LATER * (useful & (above << 1)).bit_count()
                    + PROMISE_ANY * useful.bit_count()
                )
                scored.append((-promise, place, cell))
        return [cell for *_, cell in sorted(scored)]

    def _wins_now(self, current: int, mask: int) -> bool:
        return bool(self._winning_cells(current, mask) & (mask + self._bottom) & self._full)

    def _winning_cells(self, bits: int, mask: int) -> int:
        """The empty cells where one more stone would give ``bits`` a line (as in engine.kernels.rules)."""
        full = self._full
        cells = full
        for shift in self._below:  # in a column only the stones below a cell can make its line
            cells &= bits << shift
        stones = self._connect - 1
        for shifts in self._lines:
            # behind[k]: the k cells just behind a cell along the direction hold stones; ahead[k] likewise.
            behind, ahead = [full], [full]
            for shift in shifts:
                behind.append(behind[-1] & (bits << shift))
                ahead.append(ahead[-1] & (bits >> shift))
            for k in range(stones + 1):  # k of the line's other stones behind the cell, the rest ahead
                cells |= behind[k] & ahead[stones - k]
        return cells & full & ~mask
