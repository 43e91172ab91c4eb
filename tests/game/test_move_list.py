"""The move list beside the board, and undo/redo by keys, buttons and clicks on moves."""

from __future__ import annotations

from dataclasses import replace

import pygame

from engine.geometry import Geometry
from game.model import Colour
from game.panels.move_list import MoveEntry, MoveState
from tests.game.test_match import config, open_match


def entries(match):
    return [(entry.ply, entry.column + 1, entry.state, entry.current) for entry in match.view.move_list.entries]


def test_the_list_numbers_every_move_and_marks_the_current_one(start):
    driver = start()
    match = open_match(driver, config(None, None, moves="44"))
    for column in (0, 1, 2):
        driver.click_column(column)
    assert entries(match) == [
        (1, 4, MoveState.START, False),
        (2, 4, MoveState.START, False),
        (3, 1, MoveState.PLAYED, False),
        (4, 2, MoveState.PLAYED, False),
        (5, 3, MoveState.PLAYED, True),
    ]
    driver.key(pygame.K_u)
    driver.step()
    assert [state for _, _, state, _ in entries(match)][-1] is MoveState.UNDONE  # kept, to redo
    assert entries(match)[3][3]  # the current move is now the 4th


def test_redo_by_shift_u_ctrl_y_and_the_button(start):
    driver = start()
    match = open_match(driver, config(None, None))
    for column in (3, 3, 4):
        driver.click_column(column)
    for _ in range(3):
        driver.key(pygame.K_u)
    assert match.turns.model.board.history == ()
    driver.key(pygame.K_u, mod=pygame.KMOD_SHIFT)
    driver.key(pygame.K_y, mod=pygame.KMOD_CTRL)
    assert match.turns.model.board.history == (3, 3)
    driver.press(next(button for button in match.controls.form.widgets if button.text == "Redo"))
    assert match.turns.model.board.history == (3, 3, 4)
    driver.key(pygame.K_y, mod=pygame.KMOD_CTRL)
    assert match.turns.model.board.history == (3, 3, 4) and "Nothing to redo" in match.turns.flashing[0]


def test_a_different_move_forgets_the_moves_taken_back(start):
    driver = start()
    match = open_match(driver, config(None, None))
    for column in (3, 3, 4):
        driver.click_column(column)
    driver.key(pygame.K_u)
    driver.key(pygame.K_u)
    driver.click_column(0)
    driver.step()
    assert [column for _, column, _, _ in entries(match)] == [4, 1]
    assert match.turns.model.redo_count() == 0


def test_clicking_a_move_shows_the_game_just_after_it(start):
    driver = start()
    match = open_match(driver, config(None, None))
    for column in (3, 3, 4, 4, 5):
        driver.click_column(column)
    driver.settle()
    driver.step()
    cell = next(rect for rect, index in match.view.move_list._cells if index == 1)  # the 2nd move
    driver.click(cell.center)
    assert match.turns.model.board.history == (3, 3) and len(match.turns.model.line) == 5
    cell = next(rect for rect, index in match.view.move_list._cells if index == 4)  # forward again, to the end
    driver.click(cell.center)
    assert match.turns.model.board.history == (3, 3, 4, 4, 5)


def test_against_the_computer_redo_replays_your_move_and_its_reply(start):
    driver = start()
    match = open_match(driver, config(None, "random:seed=2"))
    driver.key(pygame.K_4)
    driver.run_until(lambda: match.turns.model.human_to_move, what="the computer's move")
    reply = match.turns.model.board.history[1]
    driver.key(pygame.K_u)
    assert match.turns.model.board.history == ()
    driver.key(pygame.K_u, mod=pygame.KMOD_SHIFT)
    assert match.turns.model.board.history == (3, reply) and match.turns.model.human_to_move


def test_a_long_game_scrolls_to_keep_the_current_move_in_view(start):
    driver = start(window_width=640, window_height=480)
    long_game = "771598758649353259352268926764988951912718647244439216913637"  # 60 moves, nobody wins
    match = open_match(driver, config(None, None, Geometry(9, 9, 5), moves=long_game))
    driver.click_column(next(col for col in range(7) if match.turns.model.board.legality(col) is None))
    driver.step()
    shown = {index for _, index in match.view.move_list._cells}
    assert len(match.view.move_list.entries) - 1 in shown and 0 not in shown
    pos = match.view.move_list.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=3, flipped=False, precise_x=0.0, precise_y=3.0))
    driver.step()
    assert 0 not in {index for _, index in match.view.move_list._cells}
    assert match.view.move_list.first_row > 0
    for _ in range(20):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0))
    driver.step()
    assert match.view.move_list.first_row == 0 and 0 in {index for _, index in match.view.move_list._cells}


def test_a_new_move_changes_the_title_and_its_row_and_a_scroll_the_whole_list(start):
    driver = start()
    match = open_match(driver, config(None, None, moves="4455"))
    move_list = match.view.move_list
    with_three = [*move_list.entries[:-1], replace(move_list.entries[-1], current=False)]
    with_three.append(MoveEntry(5, 0, Colour.RED, MoveState.PLAYED, current=True))
    changed = move_list.update(with_three)
    title, *rows = changed
    assert title.top == move_list.rect.top and title.height < move_list.rect.height // 3
    (fourth, _), (fifth, _) = move_list._cells[3], move_list._cells[4]
    assert {row.y for row in rows} == {fourth.y, fifth.y}  # the move no longer current, and the new one
    assert move_list.update(with_three) == []  # nothing new
    long = [MoveEntry(ply, 0, Colour.RED, MoveState.PLAYED, current=ply == 80) for ply in range(1, 81)]
    assert move_list.update(long) == [move_list.rect]  # scrolled: all of it
