"""Text that must fit: names and agent labels shortened with an ellipsis, never the words that matter.

A headline such as ``Yellow (mcts:time=2.0,c=1.4) wins!`` is shortened in
the name, so that it still ends with ``wins!``.
"""

from __future__ import annotations

from game.theme import Theme


def fit_headline(theme: Theme, text: str, size: float, width: int, bold: bool = True) -> str:
    """``text`` fitted into ``width`` pixels by shortening all but its last word."""
    font = theme.font(size, bold)
    if font.size(text)[0] <= width or " " not in text:
        return theme.fit_text(text, size, width, bold)
    head, last = text.rsplit(" ", 1)
    room = width - font.size(" " + last)[0]
    if room < font.size("A…")[0]:
        return theme.fit_text(text, size, width, bold)
    return f"{theme.fit_text(head, size, room, bold)} {last}"
