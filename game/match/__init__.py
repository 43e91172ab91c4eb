"""The parts of the match screen (:mod:`game.scenes.match`), each owning one kind of state.

- :mod:`~game.match.turns`: the turn controller - who moves, when the computer is asked and what its
  answer means, the game's end; it draws nothing and imports no pygame. Its parts:
  :mod:`~game.match.spectating` (the spectator's pause, step, pace, series and players),
  :mod:`~game.match.computer` (the computer players and the lane of their moves and hints) and
  :mod:`~game.match.keeping` (the unfinished game kept on disk);
- :mod:`~game.match.feeds`: what feeds the panels - the live analysis, the thinking computer's search,
  the game review;
- :mod:`~game.match.controls`: the keys (one table) and the buttons, and the disc in hand;
- :mod:`~game.match.view`: the layout, what a change redraws, and the drawing (which never changes state),
  with :mod:`~game.match.texts` for the words: the headline and the players' panels;
- :mod:`~game.match.sharing`: the position to the clipboard and back, the game to a file;
- :mod:`~game.match.services`: what a match needs of the app.
"""
