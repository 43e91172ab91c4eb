"""Every screen at every text size, in a small and a large window: nothing overlaps, nothing leaves the window.

The screens are the real ones with their real controls, laid out by their own
``resize``; a control's label must show in full beside it (the label column
measures the text) unless the column has reached half the row, and the result
banner's headline must not be cut.
"""

from __future__ import annotations

import itertools

import pygame
import pytest

from engine.board import Board
from game.model import Colour, Mode
from game.scenes import players_overlay
from game.scenes.agent_select import AgentSelect
from game.scenes.match import MatchScene
from game.scenes.players_overlay import PlayersOverlay
from game.scenes.result import ResultOverlay
from game.theme import Theme
from game.widgets import Labelled
from tests.game.test_match import config, open_match
from tests.game.test_why import CLAIMEVEN, InProcess
from tests.game.test_window import resize

#: The smallest window at every text size runs by default; the large window with -m slow.
LAYOUTS = [
    *[((640, 480), scale) for scale in Theme.TEXT_SCALES],
    *[pytest.param((1280, 800), scale, marks=pytest.mark.slow) for scale in Theme.TEXT_SCALES],
]
#: A hotseat game that red wins on a diagonal with its last move.
WINNING_GAME = "12234334644"


def check(scene, window: tuple[int, int], extra: dict[str, pygame.Rect] | None = None) -> None:
    """The visible controls (and ``extra`` boxes) lie inside the window, apart from each other,
    and every label shows in full unless its column is as wide as it may be."""
    theme = scene.app.theme
    form = scene.controls.form if isinstance(scene, MatchScene) else scene.form  # the match keeps it in its controls
    boxes = [(describe(widget), widget.rect) for widget in form.widgets if widget.visible]
    boxes += list((extra or {}).items())
    screen = pygame.Rect((0, 0), window)
    where = f"{type(scene).__name__} at {window}, text {theme.text_scale:.0%}"
    for name, rect in boxes:
        assert rect.width > 0 and rect.height > 0, f"{name} has no room on {where}"
        assert screen.contains(rect), f"{name} {rect} leaves the window on {where}"
    for (one, a), (other, b) in itertools.combinations(boxes, 2):
        assert not a.colliderect(b), f"{one} {a} overlaps {other} {b} on {where}"
    for widget in form.widgets:  # a label is shortened only when its column is as wide as it may be
        if isinstance(widget, Labelled) and widget.visible:
            whole = widget.label_need(theme) <= widget.label_width(theme)
            assert whole or widget.label_width(theme) == widget.label_cap(), f"{widget.label!r} is cut on {where}"


def describe(widget) -> str:
    """A control's kind and words, for the failure messages."""
    words = getattr(widget, "label", "") or getattr(widget, "text", "") or getattr(widget, "title", "")
    return f"{type(widget).__name__} {words!r}"


def check_agents(driver, agents: AgentSelect, window: tuple[int, int]) -> None:
    """The agent screen: its editors sit inside the side's panel, which stays clear of every other control;
    each editor's row is tall enough for its words, and ↓ reaches every editor, scrolled into view."""
    check(agents, window)
    assert pygame.Rect((0, 0), window).contains(agents.panel)
    for widget in agents.form.widgets:
        if not widget.visible:
            continue
        inside = widget in agents.editors
        assert agents.panel.contains(widget.rect) if inside else not agents.panel.colliderect(widget.rect), widget
    if not agents.editors:
        return
    line = agents.app.theme.font(16, True).get_linesize()
    where = f"{agents.sides[agents.current].agent} at {window}, text {agents.app.theme.text_scale:.0%}"
    wheel(driver, agents.panel.center, 1, len(agents.editors))  # back to the top of the list
    agents.form.focus_on(agents.editors[0])
    for editor in agents.editors:
        assert agents.form.focused is editor and editor.visible, f"{describe(editor)} cannot be reached on {where}"
        assert editor.rect.height >= line + 4, f"{describe(editor)} is too cramped on {where}"
        check(agents, window)
        driver.key(pygame.K_DOWN)
    assert agents.form.focused is agents.back  # past the last editor: the buttons


def wheel(driver, pos: tuple[int, int], y: int, times: int = 1) -> None:
    """Turn the mouse wheel ``times`` notches (``y`` 1: up, -1: down) with the pointer at ``pos``."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(times):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False))
    driver.step()


def show(driver, name, *args):
    """Open the screen called ``name`` as a player would (by its name) and give it two frames."""
    driver.app.open(name, *args)
    driver.step(2)
    return driver.scene


@pytest.mark.parametrize(("window", "scale"), LAYOUTS)
def test_every_screen_fits_at_every_text_size(start, window, scale):
    driver = start(text_scale=scale)
    resize(driver, window)
    app = driver.app
    assert app.screen.get_size() == window and app.theme.text_scale == scale / 100
    driver.wait_for_catalog()
    check(driver.scene, window)  # the main menu
    for name in ("mode_select", *(name for name, _ in app.menu_entries())):  # the menu's own screens too
        check(show(driver, name), window)
        app.reset("menu")
        driver.step()
    shortcuts = show(driver, "shortcuts")
    assert pygame.Rect((0, 0), window).contains(shortcuts.card)
    app.reset("menu")

    app.settings.mode = Mode.SPECTATOR  # two computers: the agent screen has its tabs
    agents = show(driver, "agent_select")
    check_agents(driver, agents, window)
    agents._pick_custom()
    for info in app.catalog.agents():  # every engine's own editors
        agents._pick_agent(info.name)
        driver.step()
        check_agents(driver, agents, window)
    board = show(driver, "board_setup")
    check(board, window, {"preview": board.preview.frame})
    app.reset("menu")

    match = open_match(driver, config(None, None))
    boxes = {"board": match.view.board.frame, **{f"{c.label} panel": r for c, r in match.view.panels.items()}}
    check(match, window, boxes)
    driver.key(pygame.K_a)  # the analysis, and the Why? button beside it
    assert match.controls.why_button in match.controls.form.widgets
    check(match, window, {**boxes, "board": match.view.board.frame})
    driver.key(pygame.K_a)
    for move in WINNING_GAME:
        match.turns.drop(int(move) - 1)
        driver.settle()
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result banner")
    result = driver.scene
    check(result, window)
    assert all(result.panel.contains(button.rect) for button in result.form.widgets)
    title = app.theme.font(28, True).size(result.headline()[0])[0]
    limit = result.panel.right if result.stacked else result.again.rect.x
    assert result._text_left() + title <= limit, f"the headline {result.headline()[0]!r} is cut"

    why = show(driver, "why", Board.from_moves(CLAIMEVEN), (Colour.RED, Colour.YELLOW), InProcess())
    driver.run_until(lambda: why.why is not None, timeout=60, what="the reason")
    check(why, window, {"board": why.view.frame, "the reason": why.side})


def test_the_editors_scroll_with_the_wheel_and_a_click_focuses_the_one_shown(start):
    driver = start(text_scale=150, mode="spectator")
    resize(driver, (640, 480))
    driver.wait_for_catalog()
    agents = show(driver, "agent_select")
    wheel(driver, agents.panel.center, -1)  # over a preset's description: nothing to scroll, nothing breaks
    agents._pick_custom()
    agents._pick_agent("alphabeta")
    driver.step()
    hidden = agents.editors[-1]
    assert not hidden.visible and agents.editor_rows < len(agents.editors)
    driver.focus(agents.editors[0])
    wheel(driver, agents.panel.center, -1, len(agents.editors))
    assert hidden.visible and not agents.editors[0].visible
    assert agents.form.focused.visible  # the focus followed the list: a key never edits what is out of sight
    driver.focus(hidden)
    assert agents.form.focused is hidden
    driver.key(pygame.K_UP)  # back up the list, one editor at a time, scrolling
    assert agents.form.focused is agents.editors[-2]
    check_agents(driver, agents, (640, 480))


@pytest.mark.parametrize(("window", "scale"), LAYOUTS)
def test_the_players_panel_fits_with_its_note_clear_of_its_title(start, window, scale):
    driver = start(text_scale=scale)
    resize(driver, window)
    driver.wait_for_catalog()
    match = open_match(driver, config("random", "random"))
    driver.key(pygame.K_SPACE)  # paused: the panel is looked at, not raced
    driver.key(pygame.K_p)
    panel = driver.scene
    assert isinstance(panel, PlayersOverlay)
    check(panel, window)
    assert pygame.Rect((0, 0), window).contains(panel.panel)
    assert all(panel.panel.contains(widget.rect) for widget in panel.form.widgets)
    theme, px = driver.app.theme, driver.app.theme.px
    title = theme.font(22, True).size(players_overlay.TITLE)[0]
    note = theme.font(14).size(players_overlay.NOTE)[0]
    if not panel.note_below:  # beside the title: both fit, with a gap
        assert title + px(16) + note <= panel.panel.width - px(48)
    top = min(widget.rect.top for widget in panel.form.widgets)
    lines = theme.font(22, True).get_linesize() + (theme.font(14).get_linesize() if panel.note_below else 0)
    assert panel.panel.y + px(18) + lines <= top  # the heading stays above the controls
    driver.key(pygame.K_ESCAPE)
    assert driver.scene is match
