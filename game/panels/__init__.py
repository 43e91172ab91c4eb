"""Views drawn beside or over the board of the match screen, one module each.

- :mod:`~game.panels.analysis`: every column's value, filled in live by the solver;
- :mod:`~game.panels.thinking`: what the computer to move is searching (depth, speed, line, visit shares);
- :mod:`~game.panels.eval_graph`: the value of a reviewed game after every move, as a graph;
- :mod:`~game.panels.move_list`: the moves of the game, numbered, the current one marked.

A panel keeps its state in ``update`` and only reads it in ``draw``, like the scenes.
"""
