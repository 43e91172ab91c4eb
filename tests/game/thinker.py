"""A computer player that thinks for a set time per move, to measure how the window copes.

``python -m tests.game.thinker [--python] [main.py options]`` registers it as
``thinker`` and starts a spectator game between two of them (one second a
move) with ``--exit-after-game --frame-stats``, so the printed frame times
show whether the window kept its 60 frames per second while they searched.
It thinks with random playouts in a numba kernel that releases the
interpreter lock (as the engine's agents do), or with ``python=true`` in
plain Python, which holds the lock: the worst case for the window.
"""

from __future__ import annotations

import os
import random
import sys
from dataclasses import dataclass

from numba import njit

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import param, register
from engine.board import Board
from engine.kernels.rng import make_rng
from engine.kernels.rules import is_winning_move, play, random_playout
from engine.kernels.stop import stop_requested
from engine.stop import StopFlag


@njit(cache=True, nogil=True)
def _playouts(current, mask, g, col, rng, count, flag):
    """Score of ``count`` random games after playing ``col`` (stops early when asked)."""
    if is_winning_move(current, mask, g, col):
        return count
    after_current, after_mask = play(current, mask, g, col)
    total = 0
    for done in range(count):
        if done % 64 == 0 and stop_requested(flag):
            break
        total -= random_playout(after_current, after_mask, g, rng)  # the opponent moves next
    return total


def _python_playout(board: Board, rng: random.Random) -> int:
    mover = board.turn
    while not board.is_over:
        board.play(rng.choice(board.legal_columns()))
    return 0 if board.winner is None else (1 if board.winner is mover else -1)


@register("thinker", "random playouts for a fixed time per move (for measuring the game's frame times)")
@dataclass
class Thinker(Agent):
    seconds: float = param(1.0, "thinking time per move", low=0.01, high=60.0)
    python: bool = param(False, "think in plain Python, holding the interpreter lock")
    seed: int = param(0, "random seed")

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        scores = dict.fromkeys(board.legal_columns(), 0)
        rng, python_rng = make_rng(self.seed + board.ply), random.Random(self.seed + board.ply)
        current, mask = board.kernel_state()
        nodes = 0
        with stop.deadline(self.seconds) as limit:
            while not limit.is_set():
                for col in scores:
                    if self.python:
                        after = board.copy()
                        after.play(col)
                        scores[col] += 100 if after.is_over else -_python_playout(after, python_rng)
                    else:
                        scores[col] += _playouts(current, mask, board.geometry.kernel, col, rng, 200, limit.array)
                    nodes += 1 if self.python else 200
        best = max(scores, key=scores.get)
        return SearchResult(column=best, nodes=nodes)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.launch import main as game

    args = list(sys.argv[1:] if argv is None else argv)
    python = "true" if "--python" in args else "false"
    args = [arg for arg in args if arg != "--python"]
    specs = [f"thinker:python={python},seed={seed}" for seed in (1, 2)]
    return game(["--red", specs[0], "--yellow", specs[1], "--exit-after-game", "--frame-stats", *args])


if __name__ == "__main__":
    sys.exit(main())
