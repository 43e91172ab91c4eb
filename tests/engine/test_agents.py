"""The agent interface: specs, the registry, stop flags, games and matches."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import agent_info, agents, create_agent, describe_agents, parse_spec, presets
from engine.board import Board, Side
from engine.errors import AgentSpecError, IllegalMoveError
from engine.match import play_game, play_match
from engine.stop import StopFlag
from tests.waiting import wait_until


def test_random_agent_is_reproducible_from_its_seed() -> None:
    def game(seed: int) -> list[int]:
        return play_game(create_agent(f"random:seed={seed}"), create_agent(f"random:seed={seed + 1}")).moves

    assert game(5) == game(5)
    assert game(5) != game(6)


def test_every_agent_returns_a_legal_move_with_statistics() -> None:
    board = Board.from_moves("444444")  # column 4 is full
    for info in agents():
        if info.cls.is_human or info.name == "classroom":
            continue
        result = create_agent(info.name).choose(board)
        assert board.is_legal(result.column), info.name
        assert result.seconds >= 0 and result.nodes >= 0
        assert "nodes=" in result.stats_line() and "time_ms=" in result.stats_line()


def test_choose_refuses_a_finished_game() -> None:
    with pytest.raises(IllegalMoveError, match="game is over"):
        create_agent("random").choose(Board.from_moves("1212121"))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty agent spec"),
        ("nosuch", "unknown agent 'nosuch'"),
        ("random:seed=abc", "seed='abc': expected a whole number"),
        ("random:depth=3", "random has no key 'depth'"),
        ("random:seed", "'seed' should be key=value"),
    ],
)
def test_bad_specs_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        create_agent(spec)


def test_presets_expand_to_their_spec_and_accept_overrides() -> None:
    assert parse_spec("beginner") == ("random", {})
    assert parse_spec("beginner:seed=4") == ("random", {"seed": "4"})
    levels = [preset.level for preset in presets()]
    assert levels == sorted(levels)


@pytest.mark.parametrize(
    ("old", "new", "key", "value"),
    [
        ("mcts:time=2", "mcts:seconds=2", "seconds", 2.0),
        ("montecarlo:time=0.5", "montecarlo:seconds=0.5", "seconds", 0.5),
        ("perfect:time=3", "perfect:seconds=3", "seconds", 3.0),
        ("alphabeta:time=1,tt=4", "alphabeta:seconds=1,table_mb=4", "table_mb", 4),
        ("classroom:path=x.py,timeout=5,load_timeout=7", "classroom:path=x.py,seconds=5,load_seconds=7", "seconds", 5),
        ("x.py:f,load_timeout=7", "x.py:f,load_seconds=7", "load_seconds", 7),
    ],
)
def test_older_key_names_stay_accepted_as_aliases(old: str, new: str, key: str, value: object) -> None:
    """One name per concept (seconds, table_mb), and specs written with the older names still mean the same."""
    assert parse_spec(old) == parse_spec(new)
    if not new.startswith(("classroom", "x.py")):  # (a student's agent would load its file)
        assert getattr(create_agent(old), key) == value
        assert create_agent(old).spec == create_agent(new).spec


def test_an_alias_and_its_key_in_one_spec_the_later_counts() -> None:
    assert parse_spec("mcts:seconds=1,time=2") == ("mcts", {"seconds": "2"})
    assert parse_spec("expert:time=0.2")[1]["seconds"] == "0.2"  # a preset's own key gives way
    with pytest.raises(AgentSpecError, match="has no key 'tt'"):
        create_agent("minimax:tt=3")  # an alias belongs to its agent's key only


def test_a_result_is_frozen_all_the_way_down() -> None:
    """A frozen result carries no dict: its extra statistics are read-only, and it hashes."""
    result = SearchResult(3, info={"ties": 2, "book": "yes"})
    assert result.info == {"ties": 2, "book": "yes"} and list(result.info) == ["ties", "book"]
    assert hash(result) == hash(SearchResult(3, info={"ties": 2, "book": "yes"}))
    with pytest.raises(TypeError):
        result.info["ties"] = 3  # type: ignore[index]
    assert result.stats_line().endswith("ties=2 book=yes")


def test_spec_round_trips_through_the_agent() -> None:
    agent = create_agent("random:seed=9")
    assert agent.spec == "random:seed=9" and create_agent(agent.spec).seed == 9


def test_help_lists_every_agent_and_key() -> None:
    text = describe_agents()
    for info in agents():
        assert info.name in text
        for p in info.params:
            assert f"{p.name}=" in text
    assert "also time=" in text and "also tt=" in text  # the older names people may meet in old specs


def test_stop_flag_deadline_and_parent() -> None:
    parent = StopFlag()
    with parent.deadline(None) as child:
        assert not child.is_set()
        parent.set()
        assert child.is_set() and child.array[0] == 1
    with StopFlag().deadline(0.05) as timed:
        wait_until(timed.is_set, 2, "the deadline", every=0.005)


@dataclass
class _Broken(Agent):
    """An agent that fails in a chosen way, for the forfeit rules."""

    how: str = "raise"

    def _search(self, board: Board, stop: StopFlag) -> SearchResult:
        if self.how == "raise":
            raise RuntimeError("kaboom")
        return SearchResult(column=board.geometry.cols)  # one past the last column


@pytest.mark.parametrize(
    ("how", "reason"),
    [("raise", "failed: kaboom"), ("illegal", "chose column 8 (it answered 7, counted from 0): there is no column 8")],
)
def test_a_failing_agent_forfeits_only_its_game(how: str, reason: str) -> None:
    record = play_game(create_agent("random:seed=1"), _Broken(how))
    assert record.forfeit is Side.SECOND and record.winner is Side.FIRST and reason in record.reason
    totals = play_match(_Broken(how), create_agent("random"), 3)
    assert totals.yellow_wins == 3 and totals.red_wins == 0


def test_match_alternates_who_starts_and_counts_consistently() -> None:
    totals = play_match(create_agent("random"), create_agent("random"), 20, seed=11)
    assert totals.red_wins + totals.yellow_wins + totals.draws == 20
    assert totals.first_wins + totals.second_wins + totals.draws == 20
    replay = play_match(create_agent("random"), create_agent("random"), 20, seed=11)
    assert [g.moves for g in replay.games] == [g.moves for g in totals.games]


def test_parameters_have_labels_for_people() -> None:
    alphabeta = {p.name: p.label for p in agent_info("alphabeta").params}
    assert alphabeta["table_mb"] == "Table MB"  # set with param(label=...)
    assert alphabeta["depth"] == "Depth"  # derived from the key
