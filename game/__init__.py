"""Connect Four, the desktop game (pygame-ce), built on :mod:`engine`.

How it fits together (one module, one job; CONTRIBUTING.md draws the whole map):

- :mod:`game.app` - the window, the services every screen uses, the fixed-step frame loop;
  :mod:`game.stack` the screens on top of each other, :mod:`game.frames` what a frame redraws;
- :mod:`game.screens` - every screen by name; :mod:`game.scene` and :mod:`game.scenes` - one class per screen;
  screens open each other by name and hand back results by callback, and never import each other;
- :mod:`game.bindings` - each screen's keys in one table (its handler, footer, button hints, the shortcuts card);
- :mod:`game.match` - the match screen's parts: the turn controller (no pygame), feeds, controls, view;
- :mod:`game.jobs` - background work (numbered jobs, the newest cancels the older), run by
  :mod:`game.worker` (the agents' thread) and :mod:`game.analysis_process` (the analysis and the review);
- :mod:`game.catalog` and :mod:`game.preparation` - the engine's agents, loaded and compiled off the main thread;
- :mod:`game.match_model` - a match's board, players, undo and redo, without drawing;
- :mod:`game.panels` - views beside the board (analysis, thinking, move list, evaluation graph);
- :mod:`game.saves` - saved games (JSON files in the user's data folder) and pasted positions;
- :mod:`game.tally` - the score between the current players; :mod:`game.spectator` - pace and series;
- :mod:`game.labels` - headlines that keep their last word when a name is shortened;
- :mod:`game.board_view`, :mod:`game.animation`, :mod:`game.drawing`,
  :mod:`game.pictures`, :mod:`game.theme` - how it looks;
- :mod:`game.widgets` and :mod:`game.inputs` - buttons, choices, number and text fields, keyboard focus;
- :mod:`game.model` - the core values (Colour, Mode, Look, AnimationSpeed); :mod:`game.settings` - the
  choices saved between runs;
- :mod:`game.launch` - the command line of ``main.py``.

The game imports the engine, never the other way round, and only the main
thread calls pygame.
"""
