"""The match model: colours and sides, undo rules, statistics per colour."""

from __future__ import annotations

from engine.agents.base import SearchResult
from game.match_model import MatchModel
from game.settings import Colour
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
