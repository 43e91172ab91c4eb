"""The parts of the match screen (:mod:`game.scenes.match`), each owning one kind of state.

- :mod:`~game.match.turns`: the turn controller - who moves, what the computer was asked (stale answers
  dropped), the preparing wait, the spectator's pace; it draws nothing and imports no pygame;
- :mod:`~game.match.feeds`: what feeds the panels - the live analysis, the thinking computer's search,
  the game review;
- :mod:`~game.match.controls`: the keys (one table) and the buttons, and the disc in hand;
- :mod:`~game.match.view`: the layout, what a change redraws, and the drawing (which never changes state),
  with :mod:`~game.match.texts` for the words: the headline and the players' panels;
- :mod:`~game.match.sharing`: the position to the clipboard and back, the game to a file.
"""
