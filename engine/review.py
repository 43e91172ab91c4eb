"""Game review: every move of a game labelled by the solver.

For the position before each move the solver finds its exact value ``before``
(for the side to move: the best any move achieves) and the value ``after`` of
the move that was played (minus the value of the position it led to). Then:

- ``best``: the move achieves the best value (a different column may too);
- ``good``: a worse distance, same result (still a win, still a draw...);
- ``mistake``: the result drops one step: win to draw, or draw to loss;
- ``blunder``: a win thrown into a loss;
- ``unknown``: a position was not solved within the time allowed.

A move that is not best also gets ``better``: a best column (the centre-most).
A mistake or a blunder can also get ``why`` (:func:`why`): one sentence from
:mod:`engine.explain` - the checked reason the opponent now wins, or, for a
win thrown into a draw, why the position was won.

The positions are solved from the last to the first: late positions are
quick, and what the solver's table learns there makes the earlier ones
quicker. The early positions of a game that left the opening book can take
minutes each, so the first pass has an overall budget (every move gets its
label, or ``unknown``, in :data:`GAME_SECONDS`), and a second pass then
solves the unknown positions without it. :func:`review_game` yields each
:class:`MoveReview` as soon as it is known (a move again when the second
pass decides it), so a caller can show the review filling in;
:func:`review` waits for the first pass.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

from engine.board import Board
from engine.explain.explainer import Explainer
from engine.explain.explanation import MOVER_WINS
from engine.explain.words import NAMES, brief
from engine.geometry import Geometry
from engine.limits import Limits
from engine.outcome import outcome
from engine.solver.auto import AutoSolver
from engine.solver.solver import game_over_score, sign
from engine.stop import StopFlag

LABELS = ("best", "good", "mistake", "blunder", "unknown")
#: Seconds the solver may spend on one position in the first pass of a review.
POSITION_SECONDS = 3.0
#: Seconds the first pass (every move labelled, or unknown) takes at most: a 7x6 game in under 10 s.
GAME_SECONDS = 9.0
#: Seconds for each position still unknown in the second pass (the game's review fills in as it goes).
AFTERWARDS_SECONDS = 120.0
#: Seconds the whole second pass takes at most: on a big board every early position may stay
#: unknown, and a review left open must not keep a core busy for hours.
AFTERWARDS_BUDGET = 300.0
#: Seconds to find the reason of one mistake (``why``).
WHY_SECONDS = 3.0


@dataclass(frozen=True)
class MoveReview:
    """One reviewed move. ``ply`` counts from 1; ``column`` and ``better`` are 0-based.

    ``before`` and ``after`` are exact scores (Pons's convention) for the
    player who made the move, None where unknown.
    """

    ply: int
    column: int
    label: str
    before: int | None = None
    after: int | None = None
    better: int | None = None
    why: str | None = None

    @property
    def mover_ply(self) -> int:
        """Stones on the board before this move: what :func:`~engine.outcome.outcome` counts from."""
        return self.ply - 1

    def fields(self, geometry: Geometry) -> dict[str, object]:
        """``key -> value`` details of the command-line line; columns 1-based."""
        out: dict[str, object] = {}
        for key, score in (("before", self.before), ("after", self.after)):
            if score is not None:
                out[key] = score
                out[f"{key}_words"] = outcome(score, self.mover_ply, geometry).short
        if self.better is not None:
            out["better"] = self.better + 1
        if self.why:
            out["why"] = self.why  # (last: it runs to the end of the line)
        return out

    def line(self, geometry: Geometry) -> str:
        """``PLY COLUMN LABEL key=value...``, the ``review`` command's output line (``why=`` last, to its end)."""
        details = " ".join(f"{key}={value}" for key, value in self.fields(geometry).items())
        return f"{self.ply} {self.column + 1} {self.label}" + (f" {details}" if details else "")


def label_for(before: int | None, after: int | None) -> str:
    """The label of a move worth ``after`` in a position worth ``before`` (both for the mover)."""
    if before is None or after is None:
        return "unknown"
    if after == before:
        return "best"
    drop = sign(before) - sign(after)
    return ("good", "mistake", "blunder")[drop]


def review_game(
    board: Board,
    solver: AutoSolver,
    stop: StopFlag | None = None,
    *,
    seconds: float | None = POSITION_SECONDS,
    budget: float | None = GAME_SECONDS,
    afterwards: float | None = AFTERWARDS_SECONDS,
    afterwards_budget: float | None = AFTERWARDS_BUDGET,
    explainer: Explainer | None = None,
    names: tuple[str, str] = NAMES,
) -> Iterator[MoveReview]:
    """The reviews of the moves of ``board``'s game, each as soon as it is known.

    First every move, the last one first: each position's solve is limited
    to ``seconds`` and all of them together to ``budget`` (None: no limit),
    so the whole game has a label within that time, ``unknown`` where a
    position was not solved. Then, if ``afterwards`` is not None, the
    positions still unknown are solved again with that limit each (all of
    them within ``afterwards_budget``), and the
    moves they decide are yielded again, now labelled, as are the moves
    labelled worse than best whose better column was not found in time (the
    book can give a position's value at once, but not always its best
    column): a caller keeps the newest review of each ply. With an
    ``explainer``, each mistake and blunder of the first pass comes again with
    its ``why`` (``names``: the players, the first player's first) before the
    second pass. ``stop`` ends the review at once (what is not yielded yet is
    simply not).
    """
    stop = stop or StopFlag()
    clock = _Clock(budget)
    moves = board.history
    positions = [board.root()]
    for col in moves:
        positions.append(positions[-1].copy())
        positions[-1].play(col)
    values: list[int | None] = [None] * len(positions)  # each position's exact value, for its side to move
    no_better: set[int] = set()  # moves labelled worse than best whose better column was not found in time

    def reviewed(index: int, limit: float | None) -> MoveReview:
        """The move from position ``index`` to ``index + 1``."""
        before, next_value = values[index], values[index + 1]
        after = None if next_value is None else -next_value
        label = label_for(before, after)
        worse = label not in ("best", "unknown")
        better = solver.best_move(positions[index], Limits(seconds=limit, stop=stop)).column if worse else None
        if worse and better is None:
            no_better.add(index)  # (a value from the book came at once; its best column may take longer)
        else:
            no_better.discard(index)
        return MoveReview(index + 1, moves[index], label, before, after, better)

    first: list[MoveReview] = []
    for index in range(len(positions) - 1, -1, -1):
        values[index] = _value(positions[index], solver, stop, clock.limit(seconds))
        if index < len(moves):
            item = reviewed(index, clock.limit(seconds))
            if stop.is_set():
                return
            first.append(item)
            yield item
    if explainer is not None:
        for item in first:
            if item.label in ("mistake", "blunder"):
                sentence = why(positions[item.ply - 1], item, explainer, names=names, stop=stop)
                if stop.is_set():
                    return
                if sentence:
                    yield replace(item, why=sentence)
    if afterwards is None:
        return
    second = _Clock(afterwards_budget)
    for index in range(len(positions) - 1, -1, -1):
        if values[index] is not None:
            continue
        limit = second.limit(afterwards)
        if limit is not None and limit <= 0:
            return  # the second pass's budget is spent: the rest stay unknown
        values[index] = _value(positions[index], solver, stop, limit)
        if stop.is_set():
            return
        if values[index] is None:
            continue
        for move in (index, index - 1):  # the move from this position and the one into it
            if 0 <= move < len(moves):
                item = reviewed(move, second.limit(afterwards))
                if stop.is_set():
                    return
                yield item
    for move in sorted(no_better, reverse=True):
        limit = second.limit(afterwards)
        if limit is not None and limit <= 0:
            return
        item = reviewed(move, limit)
        if stop.is_set():
            return
        yield item


def review(
    board: Board, solver: AutoSolver, *, seconds: float | None = POSITION_SECONDS, budget: float | None = GAME_SECONDS
) -> list[MoveReview]:
    """Every move of ``board``'s game reviewed within ``budget`` seconds, in the order played."""
    found = review_game(board, solver, seconds=seconds, budget=budget, afterwards=None)
    return sorted(found, key=lambda item: item.ply)


class _Clock:
    """A review's overall time limit: how much of it each solve may take."""

    def __init__(self, budget: float | None) -> None:
        self.deadline = None if budget is None else time.perf_counter() + budget

    def limit(self, seconds: float | None) -> float | None:
        """``seconds``, cut to what is left of the budget (0 once it is spent)."""
        if self.deadline is None:
            return seconds
        left = max(0.0, self.deadline - time.perf_counter())
        return left if seconds is None else min(seconds, left)


def summary(reviews: list[MoveReview], first_player: str = "Red", second_player: str = "Yellow") -> dict[str, Counter]:
    """How many moves of each label each player made (the first player made the odd plies)."""
    counts: dict[str, Counter] = {first_player: Counter(), second_player: Counter()}
    for item in reviews:
        counts[first_player if item.ply % 2 else second_player][item.label] += 1
    return counts


def summary_text(counts: Counter) -> str:
    """``18 best, 2 mistakes``: the non-zero counts in label order."""
    parts = []
    for label in LABELS:
        count = counts[label]
        if count:
            parts.append(f"{count} {label}" + ("s" if count != 1 and label in ("mistake", "blunder") else ""))
    return ", ".join(parts) or "no moves"


def why(
    position: Board,
    item: MoveReview,
    explainer: Explainer,
    seconds: float | None = WHY_SECONDS,
    names: tuple[str, str] = NAMES,
    stop: StopFlag | None = None,
) -> str | None:
    """One sentence on why ``item``'s move (played from ``position``) was a mistake or a blunder, or None.

    Where the opponent now wins, the checked reason it does; where a win
    became a draw, the reason the position was won. None when no reason is
    found within ``seconds`` (or the move was no mistake).
    """
    if item.label not in ("mistake", "blunder") or item.after is None:
        return None
    limits = Limits(seconds=seconds, stop=stop)
    after = position.copy()
    after.play(item.column)
    if item.after < 0 and not after.is_over:  # the opponent, to move, now wins
        explanation = explainer.explain(after, limits, names)
        if explanation.claim == MOVER_WINS:
            return "now " + brief(explanation, after, names)
        return None
    explanation = explainer.explain(position, limits, names)  # a win thrown away: what won
    if explanation.claim == MOVER_WINS:
        return "instead " + brief(explanation, position, names)
    return None


def _value(position: Board, solver: AutoSolver, stop: StopFlag, seconds: float | None) -> int | None:
    """The exact score of ``position`` for its side to move, or None if not solved in time."""
    if position.is_over:
        return game_over_score(position)
    score = solver.solve(position, Limits(seconds=seconds, stop=stop)).score
    return None if score is None else int(score.value)
