"""Connect Four, the desktop game (pygame-ce), built on :mod:`engine`.

How it fits together (one module, one job):

- :mod:`game.app` - the stack of scenes, the fixed-step frame loop;
- :mod:`game.display` - the window, crisp on high-DPI screens (pixels to draw, the mouse in points);
- :mod:`game.scene` and :mod:`game.scenes` - one class per screen;
- :mod:`game.worker` - the one background thread that runs the agents;
- :mod:`game.catalog` - loads the engine's agents and warms them up off the main thread;
- :mod:`game.match_model` - a match's board, players, undo and redo, without drawing;
- :mod:`game.panels` - views beside the board (the move list);
- :mod:`game.saves` - saved games (JSON files in the user's data folder) and pasted positions;
- :mod:`game.tally` - the score between the current players; :mod:`game.spectator` - pace and series;
- :mod:`game.labels` - headlines that keep their last word when a name is shortened;
- :mod:`game.board_view`, :mod:`game.animation`, :mod:`game.drawing`,
  :mod:`game.pictures`, :mod:`game.theme` - how it looks;
- :mod:`game.widgets` - buttons, choices, number and text fields, keyboard focus;
- :mod:`game.settings` - the choices saved between runs;
- :mod:`game.launch` - the command line of ``main.py``.

The game imports the engine, never the other way round, and only the main
thread calls pygame.
"""
