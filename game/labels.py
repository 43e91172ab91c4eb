"""Text that must fit: names and agent labels shortened with an ellipsis, never the words that matter.

A line of parts (``col 4 · exact · depth 12 · 0.4 s``) leaves out whole parts
from its end rather than cutting one in the middle (:func:`fit_parts`).

A headline such as ``Yellow (MCTS · seconds=2.0, c=1.4) wins!`` is shortened in
the name, so that it still ends with ``wins!``. An engine is named by a
readable name first (``MCTS``), then its settings as written in its spec;
where they do not all fit, whole settings are left out at the end, which an
ellipsis marks.
"""

from __future__ import annotations

from pathlib import PureWindowsPath
from typing import TYPE_CHECKING

from game.theme import Theme

if TYPE_CHECKING:
    from engine.geometry import Geometry

#: How the game names the engines whose own name is not a word (any other: its name, capitalised).
AGENT_NAMES = {"alphabeta": "Alpha-beta", "astar": "A*", "mcts": "MCTS", "montecarlo": "Monte Carlo"}


def agent_words(spec: str) -> tuple[str, list[str]]:
    """An agent spec as a readable name and its settings.

    ``mcts:seconds=0.1,c=2`` gives ``("MCTS", ["seconds=0.1", "c=2"])``, a preset ``hard`` gives
    ``("Hard", [])`` and a student's ``~/course/bot.py:play,seconds=2`` gives ``("bot.py:play", ["seconds=2"])``.
    """
    folder, py, rest = spec.rpartition(".py:")
    if py:  # a student's file: its name, not its folders (either kind of slash)
        function, _, settings = rest.partition(",")
        name = f"{PureWindowsPath(folder + '.py').name}:{function.strip()}"
    else:
        name, _, settings = spec.partition(":")
        name = AGENT_NAMES.get(name.strip().lower(), name.strip().capitalize())
    words = [setting.strip() for setting in settings.split(",") if setting.strip()]
    if name == "Classroom":  # classroom:path=FILE,function=NAME: named by the student's file, as FILE.py:NAME
        values = dict(word.partition("=")[::2] for word in words)
        if values.get("path"):
            file = PureWindowsPath(values["path"].strip()).name
            name = f"{file}:{values.get('function', 'agent').strip() or 'agent'}"
            words = [word for word in words if word.partition("=")[0] not in ("path", "function")]
    return name, words


def fit_agent(theme: Theme, spec: str | None, size: float, width: int, extra: str = "") -> str:
    """An agent's name (``Human`` for None), then ``extra`` (say "moves first"), then as many of its
    settings as fit in ``width`` pixels, whole; an ellipsis at the end says that some are left out."""
    name, settings = agent_words(spec) if spec is not None else ("Human", [])
    head, font = " · ".join(filter(None, (name, extra))), theme.font(size)
    for count in range(len(settings), -1, -1):
        shown = ", ".join([*settings[:count], *(["…"] if count < len(settings) else [])])
        text = f"{head} · {shown}" if shown else head
        if font.size(text)[0] <= width:
            return text
    return fit_parts(theme, head, size, width)


def fit_parts(theme: Theme, text: str, size: float, width: int, bold: bool = False) -> str:
    """``text`` of parts joined by `` · `` fitted into ``width`` pixels: whole parts left out from the end
    (``You vs Medium · 7×6`` becomes ``You vs Medium``), and only a first part too long alone shortened."""
    font, parts = theme.font(size, bold), text.split(" · ")
    while len(parts) > 1 and font.size(" · ".join(parts))[0] > width:
        parts.pop()
    return theme.fit_text(" · ".join(parts), size, width, bold)


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


def board_name(geometry: Geometry) -> str:
    """A board as the screens name it: ``7×6``, or ``7×6, 5 in a row`` when the line to make is not four."""
    size = f"{geometry.cols}×{geometry.rows}"
    return size if geometry.connect == 4 else f"{size}, {geometry.connect} in a row"
