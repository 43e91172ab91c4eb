"""The documentation's pictures of the trainer: Puzzles, a puzzle being solved, the opening explorer.

Called by ``python -m game.screenshots`` with its director (which drives the
real game with a clock of its own): the Puzzles screen, a puzzle of the
shipped set after a wrong try and its reason, the same after both hints, a
solved win in N, and the explorer on a 7x6 opening. Every moment waits for
what it shows (the engine's answer), never for a fixed time.
"""

from __future__ import annotations

from typing import Any

from engine.board import Board

#: The explorer's position in the pictures: an opening of four moves, every column answered by the book.
EXPLORED = "4453"
#: A puzzle of the shipped set that shows a win in N (found by these, the first of the set that has them).
WIN_MOTIFS = ("win-in-3", "double-threat")


def shoot_trainer(director: Any) -> None:
    """The trainer's screens, each at its moment (see the module)."""
    from game.puzzle_session import State

    director.back_to_menu()
    app = director.app
    # No first start's note and no earlier screen's message on the shots
    director.run(0, until=lambda: app.catalog.progress() is None and not app.toasts.shown, timeout=600)
    chooser = director.show("puzzles")
    director.shoot("puzzles")
    puzzle = next((p for p in chooser.set_puzzles if p.kind == "save" and p.band >= 3), None)
    if puzzle is None:
        return  # (no shipped set: the run's message says so)
    director.app.open("puzzle", puzzle, chooser.progress, chooser.following)
    director.run(0.3)
    scene = director.app.scene
    session = scene.session
    scene.cursor = next(col for col in session.board.legal_columns() if col not in session.answers())
    scene.drop_at_cursor()
    director.run(0, until=lambda: session.pending is None, timeout=600)
    director.run(0.2)
    director.shoot("puzzle_wrong")
    scene.hint()
    scene.hint()
    director.run(0.2)
    director.shoot("puzzle_hint")
    win = next((p for p in chooser.set_puzzles if all(m in p.motifs for m in WIN_MOTIFS)), None)
    win = win or next(p for p in chooser.set_puzzles if p.kind == "win" and len(p.line) >= 5)
    scene.dismiss()
    director.run(0.2)
    director.app.open("puzzle", win, chooser.progress, chooser.following)
    director.run(0.3)
    scene = director.app.scene
    while scene.session.state is not State.SOLVED:
        if scene.session.state is State.PLAYING:
            scene.cursor = scene.session.answers()[0]
            scene.drop_at_cursor()
        director.run(0.8)
    director.run(0.3)
    director.shoot("puzzle_solved")
    director.back_to_menu()
    explorer = director.show("explorer", Board.from_moves(EXPLORED))
    director.run(0, until=lambda: explorer.current is not None, timeout=600)
    director.run(0.2)
    director.shoot("explorer")
