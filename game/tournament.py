"""Tournament games played by the game itself, as a player would see them played.

``python -m engine tournament`` plays its games in plain processes. The
difficulty ladder must hold where people meet it: in the window, where each
computer thinks on the :class:`~game.worker.Worker` thread (at a lower
priority) while the main thread draws 60 frames a second. Here every game of
the same round robin schedule (:func:`engine.experiments.tournament.schedule`)
is a real spectator match in a real :class:`~game.app.App` (hidden, with
SDL's dummy video driver), the discs placed at the "instant" pace so that no
wall time is spent on animations; the thinking is exactly the game's.

The rows go to ``DIR/progress.jsonl`` in the tournament runner's format, one
game at a time, so an interrupted run resumes where it stopped, and
``python -m engine bench ladder DIR`` reads them::

    nice -n 19 python -m game.tournament beginner novice easy --games 20 --out results/ladder
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.agents.registry import create_agent
from engine.board import Side
from engine.errors import EngineError
from engine.experiments.games import GameTask
from engine.experiments.tournament import schedule, summarize
from engine.geometry import Geometry
from engine.match import GameRecord
from engine.tasks import Row, run_tasks
from game.app import App
from game.launch import match_from
from game.model import Colour
from game.options import Options

#: The settings of the hidden window: discs appear at once, everything else as a new player has it.
SETTINGS = {"spectator_speed": "instant"}


@dataclass(frozen=True)
class InGameTask:
    """A :class:`GameTask` played by the game's window; the same key, so its row takes the same place."""

    game: GameTask
    settings_path: Path

    @property
    def key(self) -> str:
        return self.game.key

    def run(self) -> Row:
        task = self.game
        geometry = Geometry(task.cols, task.rows, task.connect)
        # Red moves first in the window: it is whichever of the pair opens this game.
        first, second = (task.red, task.yellow) if task.red_first else (task.yellow, task.red)
        seeds = {task.red: task.seed, task.yellow: task.seed + 1}
        options = Options(match=match_from(first, second, geometry, task.opening))
        # No warm-up of every preset beside the game (a new window does that once, in its first
        # seconds): each game is played as in a window that has been open for a while. The two
        # players still prepare on the worker thread before their first move, outside its clock.
        app = App(
            options,
            settings_path=self.settings_path,
            agent_factory=lambda spec: create_agent(spec, seed=seeds[spec]),
            warm_up=False,
        )
        try:
            scene: Any = app.scene  # the match screen, opened by name from the options
            assert scene.name == "match"
            turns = scene.turns
            while not turns.model.board.is_over:
                if turns.error:
                    raise RuntimeError(turns.error)
                if not app.running:  # SDL turns Ctrl-C and SIGTERM into a closed window: no row for this game
                    raise KeyboardInterrupt
                app.step()
            model = turns.model
        finally:
            app.close()
        winner = model.winner
        record = GameRecord(
            start=model.start,
            moves=list(model.board.history[len(model.start.history) :]),
            results=[result for result in model.results if result is not None],
            winner=None if winner is None else (Side.FIRST if winner is Colour.RED else Side.SECOND),
        )
        return task.row(record)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.tournament",
        description="a round robin whose games the game's own window plays (hidden); rows resume from DIR",
    )
    parser.add_argument("agents", nargs="+", metavar="AGENT", help="two or more agent specs or presets")
    parser.add_argument("--games", type=int, default=10, help="games per pairing (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings and the agents (default 0)")
    parser.add_argument("--openings", type=int, default=2, metavar="PLIES", help="moves of each opening (default 2)")
    parser.add_argument("--out", type=Path, default=Path("results/game-tournament"), metavar="DIR")
    args = parser.parse_args(argv)
    # A hidden window: SDL's dummy drivers (read when the window opens) draw into memory and play no sound.
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        tasks = schedule(args.agents, args.games, args.seed, opening_plies=args.openings)
    except (EngineError, ValueError) as exc:  # a bad spec or count: one line, no traceback
        parser.exit(2, f"error: {exc}\n")
    with tempfile.TemporaryDirectory() as home:
        settings_path = Path(home) / "settings.json"
        settings_path.write_text(json.dumps(SETTINGS), encoding="utf-8")
        try:
            rows = run_tasks(
                [InGameTask(task, settings_path) for task in tasks],
                checkpoint=args.out / "progress.jsonl",
                desc="games",
            )
        except (EngineError, OSError) as exc:  # a damaged resume file, an unwritable --out: one line
            parser.exit(1, f"error: {getattr(exc, 'strerror', None) or exc}\n")
    result = summarize(args.agents, rows)
    print(result.crosstable_markdown(), result.standings_markdown(), sep="\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
