"""Screens by name with results by callback, and keys declared once: one table per screen drives the handler,
the shortcuts card, the footer and the buttons' key hints."""

from __future__ import annotations

import pygame

from game import screens
from game.bindings import BACK, CTRL, SHARING, Binding, Bindings, card, parse
from game.scenes.base import FormScene
from game.widgets import Button


def keydown(key: int, mod: int = 0, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0)


class Owner:
    def __init__(self, spectating: bool = False) -> None:
        self.calls: list[str] = []
        self._spectating = spectating

    def undo(self) -> None:
        self.calls.append("undo")

    def redo(self) -> None:
        self.calls.append("redo")

    def step(self) -> None:
        self.calls.append("step")

    def save(self) -> None:
        self.calls.append("save")

    def column(self, event) -> None:
        self.calls.append(f"column {event.key - pygame.K_1 + 1}")

    def spectating(self, event) -> bool:
        return self._spectating


TABLE = Bindings(
    Binding("u ctrl+z", "undo", "U, Ctrl+Z", "undo", "Playing", footer="U undo"),
    Binding("shift+u", "redo", "Shift+U", "redo", "Playing"),
    Binding("s", "step", "S", "one move", "Two computers", when="spectating", footer="S step"),
    Binding("ctrl+s", "save", "Ctrl+S", "save", SHARING, button="Ctrl+S: save"),
    Binding("1 2 3", "column", with_event=True),
    Binding("left right", label="← →", does="choose", group="Playing"),  # only described: a form handles it
)


def test_keys_are_written_as_pygame_names_with_their_modifiers():
    assert parse("ctrl+z") == (parse("z")[0].__class__(pygame.K_z, ctrl=True),)
    assert [key.code for key in parse("return kp_enter pageup 1 kp1")] == [
        pygame.K_RETURN,
        pygame.K_KP_ENTER,
        pygame.K_PAGEUP,
        pygame.K_1,
        pygame.K_KP1,
    ]
    assert parse("?")[0].char == "?"


def test_the_table_handles_the_keys_more_modifiers_and_conditions_first():
    owner = Owner()
    for event in (keydown(pygame.K_u), keydown(pygame.K_u, pygame.KMOD_SHIFT), keydown(pygame.K_z, CTRL)):
        assert TABLE.dispatch(owner, event)
    assert owner.calls == ["undo", "redo", "undo"]
    assert not TABLE.dispatch(owner, keydown(pygame.K_s))  # not while nobody spectates
    assert TABLE.dispatch(owner, keydown(pygame.K_s, CTRL)) and owner.calls[-1] == "save"
    assert TABLE.dispatch(owner, keydown(pygame.K_2)) and owner.calls[-1] == "column 2"
    assert not TABLE.dispatch(owner, keydown(pygame.K_LEFT))  # described, handled elsewhere
    watching = Owner(spectating=True)
    assert TABLE.dispatch(watching, keydown(pygame.K_s)) and watching.calls == ["step"]


def test_a_repeated_key_acts_only_where_the_table_says_it_repeats():
    owner, held = Owner(), keydown(pygame.K_u)
    held.repeat = True
    assert not TABLE.dispatch(owner, held) and owner.calls == []


def test_the_same_table_writes_the_footer_the_button_hints_and_the_card():
    assert TABLE.footer() == "U undo   S step"
    assert TABLE.hint("undo") == "U, Ctrl+Z" and TABLE.hint("save") == "Ctrl+S: save" and TABLE.hint("x") == ""
    groups = dict(card([TABLE, Bindings(BACK), TABLE]))  # each key once, in the order first met
    assert groups["Playing"] == (("U, Ctrl+Z", "undo"), ("Shift+U", "redo"), ("← →", "choose"))
    assert groups[SHARING] == (("Ctrl+S", "save"),)
    assert groups["Everywhere"] == (("Esc", "back one screen"),)


def test_the_shortcuts_card_lists_every_key_of_every_screen_in_its_groups(start):
    groups = {group: [keys for keys, _ in entries] for group, entries in start().app.shortcuts()}
    sharing = [keys for keys in groups[SHARING] if keys in ("Ctrl+S", "Ctrl+O", "Delete", "Ctrl+C", "Ctrl+V")]
    assert sharing == ["Ctrl+S", "Ctrl+O", "Delete", "Ctrl+C", "Ctrl+V"]  # the match's, the menu's, the saved games'
    assert "U, Ctrl+Z" in groups["Playing"] and groups["Everywhere"][-4:] == ["F1, ?", "F2", "M", "F11"]


def test_every_screen_is_opened_by_its_name_and_knows_it(start):
    for screen in screens.SCREENS:
        assert screen.load().name == screen.name
    driver = start()
    driver.app.open("help")
    driver.step()
    assert driver.scene.name == "help" and driver.scene.bindings.footer().endswith("Esc back   F1 all keys")


def test_a_screen_hands_back_its_result_to_whoever_opened_it(start):
    driver = start()
    results = []
    driver.app.open("help", callback=results.append)
    driver.step()
    opened = driver.scene
    opened.dismiss("seen")
    assert results == []  # a change of screens waits for the frame's next phase
    driver.step()
    assert results == ["seen"] and driver.scene.name == "menu"
    driver.app.open("settings", callback=results.append)
    driver.step()
    driver.key(pygame.K_ESCAPE)  # Escape closes with no result
    assert results == ["seen", None]


class Notes(FormScene):
    """A screen added as CONTRIBUTING.md says: this module, and its line in game.screens."""

    name = "notes"
    title = "Notes"
    bindings = Bindings(Binding("n", "write", "N", "a new note", SHARING, footer="N new note"), BACK)

    def __init__(self, app) -> None:
        super().__init__(app)
        self.written = 0
        self.back = Button("Back", self.dismiss, detail=self.bindings.hint("dismiss"))
        self.form.set_widgets([self.back])

    def write(self) -> None:
        self.written += 1

    def resize(self, size) -> None:
        self.button_row([self.back], self.content(size))


def test_a_screen_with_its_line_in_the_index_gets_a_menu_button_a_menu_key_and_a_place_on_the_card(start, monkeypatch):
    key = Binding("ctrl+j", label="Ctrl+J", does="your notes (in the menu)", group=SHARING)
    added = screens.Screen("notes", lambda: Notes, menu="Notes", key=key)
    monkeypatch.setattr(screens, "SCREENS", (*screens.SCREENS, added))
    monkeypatch.setattr(screens, "BY_NAME", {**screens.BY_NAME, "notes": added})
    driver = start()
    driver.app.reset("menu")
    driver.step()
    menu = driver.scene
    assert menu.screens["notes"] in menu.form.widgets  # a button in the menu's row
    assert ("Ctrl+J", "your notes (in the menu)") in dict(driver.app.shortcuts())[SHARING]
    assert ("N", "a new note") in dict(driver.app.shortcuts())[SHARING]
    driver.key(pygame.K_j, CTRL)
    notes = driver.scene
    assert isinstance(notes, Notes) and notes.bindings.footer() == "N new note   Esc back"
    driver.key(pygame.K_n, unicode="n")
    assert notes.written == 1
    driver.key(pygame.K_ESCAPE)
    driver.press(menu.screens["notes"])
    assert isinstance(driver.scene, Notes)


def test_the_custom_editor_says_at_once_when_two_values_do_not_go_together(start):
    """Seed 000's weight mode only goes with its evaluation: the message shows as the value changes."""
    driver = start()
    driver.wait_for_catalog()
    driver.app.open("agent_select")
    driver.step(2)
    agents = driver.scene
    agents._pick_custom()
    agents._pick_agent("greedy")
    driver.step()
    assert agents.error == ""
    mode = next(editor for editor in agents.editors if getattr(editor, "label", "") == "Seed 000 mode")
    driver.focus(mode)
    driver.key(pygame.K_RIGHT)
    assert "goes with eval=seed000" in agents.error
    driver.key(pygame.K_LEFT)
    assert agents.error == ""
