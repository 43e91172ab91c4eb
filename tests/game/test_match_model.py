"""The match model: colours and sides, undo rules, statistics per colour."""

from __future__ import annotations

from engine.agents.base import SearchResult
from game.match_model import MatchModel
from game.model import Colour
from tests.game.test_match import config


def test_the_colour_that_starts_plays_first():
    model = MatchModel(config(None, "random", first=Colour.YELLOW))
    assert model.colour_to_move is Colour.YELLOW and not model.human_to_move
    model.play(3, SearchResult(column=3))
    assert model.colour_to_move is Colour.RED and model.human_to_move
    assert model.owner(3, 0) is Colour.YELLOW and model.last_move == (3, 0)


def test_a_start_position_keeps_its_side_to_move():
    model = MatchModel(config(None, None, moves="445"))
    assert model.moves_played == 0 and model.colour_to_move is Colour.YELLOW
    assert model.owner(3, 1) is Colour.YELLOW and model.last_move is None
    assert model.undo_count() == 0  # the start position cannot be undone


def test_undo_against_the_computer_goes_back_to_your_turn():
    model = MatchModel(config("random", None))  # the computer (red) starts
    model.play(3, SearchResult(column=3))
    assert model.undo_count() == 0  # only the computer has moved
    model.play(2)
    model.play(4, SearchResult(column=4))
    assert model.undo_count() == 2
    assert model.undo() == [(4, 0), (2, 0)]
    assert model.board.history == (3,) and model.human_to_move


def test_undo_in_hotseat_is_one_move_and_none_for_spectators():
    hotseat = MatchModel(config(None, None))
    hotseat.play(0)
    hotseat.play(1)
    assert hotseat.undo_count() == 1
    spectator = MatchModel(config("random", "random"))
    spectator.play(0, SearchResult(column=0))
    assert spectator.undo_count() == 0


def test_last_result_by_colour():
    model = MatchModel(config("random", "random"))
    first, second = SearchResult(column=1, nodes=5), SearchResult(column=2, nodes=7)
    model.play(1, first)
    model.play(2, second)
    assert model.last_result(Colour.RED) is first and model.last_result(Colour.YELLOW) is second


def test_redo_replays_what_undo_took_back():
    model = MatchModel(config(None, "random"))  # you (red) against the computer
    model.play(3)
    model.play(2, SearchResult(column=2))
    model.play(4)
    model.play(5, SearchResult(column=5))
    assert model.undo() == [(5, 0), (4, 0)]
    assert model.redo_count() == 2 and model.line == [3, 2, 4, 5]
    assert model.redo() == [(4, 0, Colour.RED), (5, 0, Colour.YELLOW)]
    assert model.board.history == (3, 2, 4, 5) and model.results[-1].column == 5  # statistics come back too
    assert model.redo_count() == 0


def test_undone_moves_are_kept_until_a_different_move_is_played():
    model = MatchModel(config(None, None))
    for col in (0, 1, 2):
        model.play(col)
    model.undo()
    model.undo()
    assert model.line == [0, 1, 2]
    model.play(1)  # the same move as the one taken back: the rest stays
    assert model.line == [0, 1, 2] and model.redo_count() == 1
    model.undo()
    model.play(6)  # a different move: the moves taken back are gone
    assert model.line == [0, 6] and model.redo_count() == 0


def test_go_to_any_move_of_the_line():
    model = MatchModel(config(None, None, moves="44"))
    for col in (0, 1, 2, 3):
        model.play(col)
    emptied, played = model.go_to(1)
    assert emptied == [(3, 2), (2, 0), (1, 0)] and played == []
    assert model.board.history == (3, 3, 0) and model.line == [0, 1, 2, 3]
    emptied, played = model.go_to(3)
    assert emptied == [] and [col for col, _, _ in played] == [1, 2]
    assert model.go_to(99)[1][0][:2] == (3, 2)  # as far as the line goes
    assert model.board.move_string == "44" + "1234"


def test_a_saved_games_moves_are_replayed_and_can_be_taken_back():
    from dataclasses import replace

    model = MatchModel(replace(config(None, None, moves="4"), replay="45"))
    assert model.board.move_string == "445" and model.moves_played == 2 and model.undo_count() == 1
