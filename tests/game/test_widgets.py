"""Controls driven by keys: steppers, choices, text, and the focus moving between them."""

from __future__ import annotations

import pygame

from game.inputs import Card, Choice, Stepper, TextField
from game.widgets import Button, Form, next_step


def keydown(key: int, unicode: str = "", mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, unicode=unicode, mod=mod, scancode=0)


def test_steps_are_one_on_small_ranges_and_1_2_5_on_wide_ones():
    assert next_step(6, 1, 1, 20, int) == 7
    assert next_step(80, 1, 1, 81, int) == 81
    assert next_step(1000, 1, 1, 10_000_000, int) == 2000
    assert next_step(2000, 1, 1, 10_000_000, int) == 5000
    assert next_step(5000, -1, 1, 10_000_000, int) == 2000
    assert next_step(10_000_000, 1, 1, 10_000_000, int) == 10_000_000
    assert next_step(1.0, 1, 0.0, 5.0, float) == 1.1


def test_stepper_keys_and_typing():
    changes = []
    stepper = Stepper("Depth", 4, changes.append, low=1, high=12)
    assert stepper.key(keydown(pygame.K_RIGHT)) and stepper.value == 5
    stepper.key(keydown(pygame.K_1, "1"))
    stepper.key(keydown(pygame.K_0, "0"))
    assert stepper.text() == "10" and stepper.value == 5  # typed, not yet taken
    stepper.key(keydown(pygame.K_RETURN))
    assert stepper.value == 10 and changes == [5, 10]
    for char in "99":
        stepper.key(keydown(pygame.K_9, char))
    stepper.blur()  # leaving the field takes what was typed: out of range is refused
    assert stepper.value == 10 and stepper.error


def test_optional_stepper_accepts_none():
    stepper = Stepper("Time", None, lambda value: None, low=0.001, high=86400, kind=float, optional=True)
    assert stepper.text() == "none"
    stepper.step(1)  # from "none" to a sensible first value
    assert stepper.value == 1
    stepper.step(-1)
    assert stepper.value == 0.5
    for _ in "0.5":
        stepper.key(keydown(pygame.K_BACKSPACE))
    stepper.commit()  # an empty entry means none again

    assert stepper.value is None
    stepper.value = 0.001
    stepper.step(-1)  # below the lowest value: none
    assert stepper.value is None


def test_choice_and_text_field():
    picked = []
    choice = Choice("Order", [("none", "none"), ("center", "center")], "none", picked.append)
    choice.key(keydown(pygame.K_RIGHT))
    choice.key(keydown(pygame.K_RIGHT))  # already the last segment
    assert choice.value == "center" and picked == ["center"]
    field = TextField("Path", "", lambda text: None)
    field.key(pygame.event.Event(pygame.TEXTINPUT, text="me.py"))
    field.key(keydown(pygame.K_BACKSPACE))
    assert field.value == "me.p"
    assert field.key(keydown(pygame.K_q, "q"))  # a letter is the field's, not a shortcut


def test_form_focus_skips_disabled_controls(start):
    driver = start()
    pressed = []
    first, off, last = (Button(name, lambda n=name: pressed.append(n)) for name in ("a", "b", "c"))
    off.enabled = False
    form = Form(driver.app.theme, [first, off, last])
    assert form.focused is first
    form.handle_event(keydown(pygame.K_DOWN))
    assert form.focused is last
    form.handle_event(keydown(pygame.K_RETURN))
    form.handle_event(keydown(pygame.K_TAB))
    assert form.focused is first and pressed == ["c"]


def test_a_long_button_label_gets_smaller_then_two_lines_then_shortened(start):
    theme = start(text_scale=150).app.theme
    button = Button("Stop series", lambda: None)
    button.rect = pygame.Rect(0, 0, 400, theme.px(50))
    assert button.label_layout(theme) == ("Stop series", 17, 0)  # room enough: as designed
    width = theme.font(17, True).size("Stop series")[0]
    button.rect.width = width  # too narrow at 17 (less the padding): a smaller size on one line
    text, size, wrap = button.label_layout(theme)
    assert text == "Stop series" and size < 17 and wrap == 0
    button.rect.width = theme.font(13, True).size("series")[0] + theme.px(20)  # one word a line
    text, size, wrap = button.label_layout(theme)
    assert text == "Stop series" and wrap > 0
    assert theme.text(text, size, bold=True, wrap=wrap, centred=True).get_height() <= button.rect.height
    button.rect.height = theme.font(13, True).get_linesize()  # no room for two lines: shortened
    text, _, wrap = button.label_layout(theme)
    assert text.endswith("…") and wrap == 0


def test_a_choice_whose_words_do_not_fit_its_segments_steps_like_a_list(start):
    theme = start(text_scale=150).app.theme
    picked = []
    orders = [(name, name) for name in ("natural", "center", "heuristic")]
    choice = Choice("Order", orders, "natural", picked.append)
    choice.rect = pygame.Rect(0, 0, 1200, 40)
    control = choice.control_rect(theme)
    choice.click((control.right - 5, control.centery), theme)  # wide: the last segment, at once
    assert choice.value == "heuristic"
    choice.set_index(0)
    choice.rect = pygame.Rect(0, 0, 2 * theme.font(15, True).size("heuristic")[0], 40)  # narrow: ‹ value ›
    control = choice.control_rect(theme)
    choice.click((control.right - 5, control.centery), theme)  # the right half: the next value
    assert choice.value == "center"
    choice.click((control.x + 5, control.centery), theme)
    assert choice.value == "natural" and picked == ["heuristic", "natural", "center", "natural"]


def test_a_cards_detail_gets_smaller_on_its_lines_before_it_is_shortened(start, monkeypatch):
    """At 150 % text the set-up's cards read "Play against an engine,…": a size smaller, the detail is whole."""
    driver = start(text_scale=150)
    theme, screen = driver.app.theme, driver.app.screen
    detail = "Play against an engine, from beginner to perfect."
    card = Card("You vs Computer", detail, lambda: None)
    width = theme.px(150)
    at_13, at_11 = (theme.text(detail, size, wrap=width, centred=True).get_height() for size in (13, 11))
    assert at_11 < at_13
    drawn: list[tuple[str, float]] = []
    draw_text = theme.draw_text
    monkeypatch.setattr(
        theme,
        "draw_text",
        lambda s, text, size, *a, **k: drawn.append((text, size)) or draw_text(s, text, size, *a, **k),
    )
    card._draw_detail(screen, theme, pygame.Rect(0, 0, width, at_13), wrap=True)
    card._draw_detail(screen, theme, pygame.Rect(0, 0, width, at_11), wrap=True)
    card._draw_detail(screen, theme, pygame.Rect(0, 0, width, theme.font(13).get_linesize()), wrap=True)
    assert drawn[0] == (detail, 13) and drawn[1] == (detail, 11)
    assert drawn[2][0].endswith("…") and drawn[2][1] == 13  # no room for its lines at any size: one, shortened
