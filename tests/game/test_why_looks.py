"""The Why screen's marks read in every look: every kind of mark has a colour that stands out from whatever it
may lie on, a mark on a disc of its own colour still shows, and the numbers of a reason's main line stay on top
of the marks and of the disc shapes.

"Stands out" is WCAG 2.1's contrast of 3:1 for the parts of a graphic needed to understand it (success
criterion 1.4.11, non-text contrast), computed as in tests/game/test_looks.py.
"""

from __future__ import annotations

import math

import pygame
import pytest

from engine.board import Side
from game import theme
from game.animation import Animations
from game.board_view import Marks
from game.model import Look
from game.panels.why import PAPER, inks
from game.scenes.why import WhyScene
from game.theme import DISC
from tests.game.test_looks import contrast
from tests.game.test_why import in_process, open_why  # noqa: F401 (in_process is a fixture)

#: Red wins: claimeven, baseinverse, aftereven and an odd threat - every kind of mark, in the position itself.
EVERY_KIND = "5617131757733341415"
#: Red wins: a reason that looks ahead (numbered discs), with claimevens, a threat, a baseinverse and a before.
LOOKS_AHEAD = "376645334561"
NON_TEXT_CONTRAST = 3.0
#: The marks drawn inside one cell (the others cross the board between the cells).
IN_A_CELL = {"claim", "threat", "poison"}


@pytest.fixture(autouse=True)
def standard_afterwards():
    yield
    theme.use_look(Look.STANDARD, False)


def use(driver, look: Look, shapes: bool) -> None:
    """The look (and the disc shapes) the settings screen would set, applied to the open screen."""
    driver.app.settings.look, driver.app.settings.colour_blind = look, shapes
    driver.app.settings_changed()
    driver.step()


def pixel(surface: pygame.Surface, point: tuple[float, float]) -> tuple[int, int, int]:
    return tuple(surface.get_at((round(point[0]), round(point[1]))))[:3]


def test_every_mark_stands_out_in_every_look_and_the_moves_numbers_stay_on_top(start, in_process):  # noqa: F811
    """Every kind of mark, in every look: its colours against the board drawn without marks, and drawn pixels
    across the defender's line where it crosses the defender's own disc; then, with the disc shapes, each
    numbered disc of a main line keeps its number's white box above every mark."""
    driver = start()
    why = open_why(driver, EVERY_KIND)
    assert why.why is not None
    kinds = {mark.kind for mark in why.why.marks}
    assert kinds == {"claim", "pair", "line", "refuted", "threat", "poison"}
    (bar,) = [mark for mark in why.why.marks if mark.kind == "line"]
    mine = [cell for cell in bar.cells if why.board.cell(*cell) is Side(why.why.defender)]
    assert mine  # (the bar b4-e1 crosses the defender's discs on c3, d2 and e1)
    for look in Look:
        use(driver, look, False)  # (no shapes: the strips across the bar below see the bar, not a cross)
        own = DISC[why.colours[why.why.defender]]
        for kind, name, background in backgrounds(why, kinds):
            best = max(contrast(colour, background) for colour in inks(kind, own))
            assert best >= NON_TEXT_CONTRAST, f"{look.value}: a {kind} mark on {name} {background}: {best:.2f}"
        for kind in kinds:  # its edge and its fill differ: on a disc of its own colour (Show me fills cells) it shows
            edge, *_, fill = inks(kind, own)
            assert contrast(edge, fill) >= NON_TEXT_CONTRAST, (look, kind)
        for cell in mine:
            best = max(contrast(colour, own) for colour in strip_across(why, bar, cell))
            assert best >= NON_TEXT_CONTRAST, f"{look.value}: the bar on {cell}: {best:.2f}"

    driver.key(pygame.K_ESCAPE)
    why = open_why(driver, LOOKS_AHEAD)
    assert why.why is not None and len(why.why.moves) >= 3
    numbered = numbered_cells(why)
    covered = {cell for mark in why.why.marks if mark.kind in ("line", "refuted") for cell in mark.cells}
    assert numbered & covered  # (a number under a bar or a dashed line: it must stay on top)
    for look in Look:
        use(driver, look, True)
        for col, row in sorted(numbered):
            x, y = why.view.cell_centre(col, row)
            box = [pixel(why.app.screen, (x + dx, y + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
            # black on white: no colour of a disc or a mark drawn over it
            assert PAPER in box and all(max(rgb) - min(rgb) <= 16 for rgb in box), f"{look.value}: {col, row}"


def numbered_cells(why: WhyScene) -> set[tuple[int, int]]:
    """The cells of the reason's main line (its numbered discs), as ``(column, row)``."""
    board = why.board.copy()
    cells = set()
    for digit in why.why.moves:
        col = int(digit) - 1
        cells.add((col, board.height(col)))
        board.play(col)
    return cells


def backgrounds(why: WhyScene, kinds: set[str]):
    """``(kind, name, colour)``: what a mark of each kind may lie on, in the current look: a hole and the board
    (drawn by the screen's own board view, without discs or marks) and a disc of either colour."""
    surface = why.app.screen.copy()
    why.app.draw_background(surface)
    why.view.draw(surface, lambda col, row: None, Animations(), Marks())
    half, rows = why.view.cell / 2, why.board.geometry.rows
    board = [pixel(surface, (x - half, y)) for x, y in (why.view.cell_centre(0, row) for row in range(rows))]
    for kind in sorted(kinds):
        yield kind, "a hole", pixel(surface, why.view.cell_centre(0, 0))
        yield from ((kind, "a disc", tuple(DISC[colour])) for colour in why.colours)
        if kind not in IN_A_CELL:  # (from the top of the board to its bottom)
            yield from ((kind, "the board", colour) for colour in board)


def strip_across(why: WhyScene, bar, cell: tuple[int, int]) -> list[tuple[int, int, int]]:
    """The drawn pixels on a line through ``cell``'s centre at right angles to ``bar``, as wide as the bar."""
    (x0, y0), (x1, y1) = why.view.cell_centre(*bar.cells[0]), why.view.cell_centre(*bar.cells[-1])
    length = math.dist((x0, y0), (x1, y1))
    across = ((y0 - y1) / length, (x1 - x0) / length)
    x, y = why.view.cell_centre(*cell)
    reach = why.app.theme.px(8)
    return [pixel(why.app.screen, (x + across[0] * t, y + across[1] * t)) for t in range(-reach, reach + 1)]
