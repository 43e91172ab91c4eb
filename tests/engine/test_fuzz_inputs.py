"""Fuzzing every door through which people's text and numbers enter the engine.

Each test draws many inputs (Hypothesis) and checks the one rule: good input
works, bad input raises an :class:`EngineError` subclass (Python API) or is one
line on stderr with exit status 2 (command line), never anything else.
"""

from __future__ import annotations

import argparse
import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from engine.agents.classroom import board_for_player
from engine.agents.registry import agents, create_agent
from engine.bench.soak import referee
from engine.board import Board, Side
from engine.cli import build_parser
from engine.errors import AgentSpecError, EngineError
from engine.formats import from_array, parse_grid
from engine.geometry import Geometry
from engine.validate import finite_float, whole_number
from tests.engine.strategies import choices, geometries, play_picks

#: Texts that are no number anywhere: not finite, not ASCII, not a plain literal, or absurdly long.
NOT_NUMBERS = ["nan", "NaN", "-inf", "٤", "²", "９", "𝟒", "0x10", "", "1" * 60, "1e", "--1", "None"]


@given(st.text(max_size=30))
def test_any_text_is_a_move_string_or_a_position_error(text: str) -> None:
    try:
        board = Board.from_moves(text)
    except EngineError:
        return
    assert set(text.strip()) <= set("1234567") and board.ply == len(text.strip())


@given(st.one_of(st.none(), st.integers(), st.floats(), st.booleans(), st.binary(), st.lists(st.integers())))
def test_any_object_is_moves_or_a_position_error(moves: object) -> None:
    try:
        board = Board.from_moves(moves)  # type: ignore[arg-type]
    except EngineError:
        return
    assert isinstance(moves, list) and board.ply == len(moves)


@given(st.integers(-3, 10), st.sampled_from([np.int8, np.int64, np.intc, int]))
def test_numpy_integers_are_columns_and_bools_are_not(column: int, kind: type) -> None:
    board = Board()
    if 0 <= column < 7:
        board.play(kind(column))
        assert board.history == (column,) and type(board.history[0]) is int
    else:
        with pytest.raises(EngineError):
            board.play(kind(column))
    Board().play(np.uint16(3))
    for flag in (True, np.bool_(True)):
        with pytest.raises(EngineError, match="whole number"):
            Board().play(flag)  # type: ignore[arg-type]


@given(st.one_of(st.text(alphabet="0123456789xX ", max_size=12), st.text(max_size=12), st.none(), st.integers()))
@example("9x5")
@example(" 8X8x5 ")
def test_any_board_text_is_a_geometry_or_an_engine_error(text: object) -> None:
    try:
        geometry = Geometry.parse(text)  # type: ignore[arg-type]
    except EngineError:
        return
    assert isinstance(text, str)
    assert f"{geometry.cols}x{geometry.rows}" in text.lower().replace(" ", "")
    assert Geometry.parse(f"{geometry.cols}x{geometry.rows}x{geometry.connect}") == geometry


def test_a_board_text_gives_its_geometry() -> None:
    assert Geometry.parse("9x5") == Geometry(9, 5, 4)
    assert Geometry.parse(" 8X8x5 ") == Geometry(8, 8, 5)


@given(st.one_of(st.text(alphabet="-XOxo0. |#\n\t1a", max_size=120), st.none(), st.integers(), st.binary()))
def test_any_grid_text_is_a_board_or_an_engine_error(text: object) -> None:
    try:
        board = parse_grid(text)  # type: ignore[arg-type]
    except EngineError:
        return
    assert isinstance(text, str) and board.geometry.cells >= 16


arrays = st.one_of(
    hnp.arrays(
        st.sampled_from([np.int64, np.float64, np.int8, np.bool_, np.uint64]),
        hnp.array_shapes(min_dims=0, max_dims=3, max_side=10),
    ),
    st.lists(st.lists(st.integers(-3, 3), max_size=9), max_size=9),  # ragged, too
    st.text(max_size=5),
    st.none(),
)


@settings(max_examples=150)
@given(arrays, st.sampled_from([1, -1, 2, True, 0.5, "1"]), st.sampled_from(["signed", "012", None, "bogus", 3]))
def test_any_array_is_a_board_or_an_engine_error(array: object, player: object, encoding: object) -> None:
    for read in (lambda: from_array(array, 4, encoding), lambda: board_for_player(array, player, 4, encoding)):  # type: ignore[arg-type]
        try:
            board = read()
        except EngineError:
            continue
        assert isinstance(board, Board)


def _spec_texts() -> st.SearchStrategy[str]:
    names = [info.name for info in agents() if info.name not in ("classroom", "human")]
    keys = sorted({p.name for info in agents() for p in info.params} | {"bogus"})
    values = st.one_of(
        st.sampled_from([*NOT_NUMBERS, "inf", "1e309", "0", "1", "-1", "2.5", "true", "x"]), st.text(max_size=4)
    )
    pair = st.builds(lambda k, v: f"{k}={v}", st.sampled_from(keys), values)
    return st.builds(
        lambda name, pairs: name + (":" + ",".join(pairs) if pairs else ""),
        st.sampled_from(names),
        st.lists(pair, max_size=3),
    )


@settings(max_examples=200)
@given(_spec_texts())
def test_any_agent_spec_is_an_agent_or_one_clear_error(spec: str) -> None:
    try:
        agent = create_agent(spec)
    except AgentSpecError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    for info in agents():
        if info.name == agent.name:
            for p in info.params:
                value = getattr(agent, p.name)
                if isinstance(value, float):
                    assert math.isfinite(value)
                if p.kind in (int, float) and value is not None and p.low is not None:
                    assert p.low <= value <= p.high  # type: ignore[operator]
    agent.close()


@given(st.sampled_from(NOT_NUMBERS))
def test_not_numbers_are_refused_by_the_shared_checks(text: str) -> None:
    with pytest.raises(EngineError):
        finite_float(text, "x", 0, 10)
    with pytest.raises(EngineError):
        whole_number(text, "x", 0, 10)


#: The names of the argparse types that read numbers (engine.validate's, and plain int/float).
NUMBER_TYPES = ("number", "whole number", "int", "float")


def _numeric_flags() -> list[tuple[list[str], str]]:
    """(command path, flag) for every int or float flag of every command and benchmark."""
    found = []

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, [*path, name])
            elif action.option_strings and getattr(action.type, "__name__", "") in NUMBER_TYPES:
                found.append((path, action.option_strings[-1]))

    walk(build_parser(), [])
    return found


NUMERIC_FLAGS = _numeric_flags()


def test_the_fuzz_sees_the_numeric_flags() -> None:
    flags = {(" ".join(path), flag) for path, flag in NUMERIC_FLAGS}
    assert {("solve", "--seconds"), ("solve", "--table-mb"), ("count", "--plies"), ("match", "--games")} <= flags
    assert any(path[0] == "bench" for path, _ in NUMERIC_FLAGS)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(NUMERIC_FLAGS), st.sampled_from(NOT_NUMBERS))
def test_every_numeric_flag_refuses_what_is_no_number_in_one_line(cli, where, text: str) -> None:
    path, flag = where
    status, out, err = cli([*path, f"{flag}={text}"])
    assert status == 2 and out == "" and err.count("\n") == 1 and flag in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "--table-mb", "1e12", "4"], "--table-mb"),
        (["solve", "--table-mb", "60000", "4"], "more than this machine"),
        (["solve", "--nodes", "100000000000000000000000", "4"], "--nodes"),
        (["solve", "--seconds", "-1", "4"], "--seconds"),
        (["move", "--agent", "mcts:seconds=nan", "4"], "seconds='nan'"),
        (["move", "--agent", "classroom:path=x.py,seconds=nan", "4"], "seconds='nan'"),
        (["move", "--agent", "perfect:seconds=inf", "4"], "seconds='inf'"),
        (["move", "--agent", "mcts:c=-inf", "4"], "c='-inf'"),
        (["move", "--agent", "alphabeta:depth=٤", "4"], "depth='٤'"),
    ],
)
def test_the_numbers_the_tester_tried_are_one_clear_line(cli, argv: list[str], message: str) -> None:
    status, _, err = cli(argv)
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def _commands() -> list[list[str]]:
    commands = []

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> None:
        commands.append(path)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, [*path, name])

    walk(build_parser(), [])
    return commands


@pytest.mark.parametrize("path", _commands(), ids=lambda path: " ".join(path) or "engine")
def test_every_help_prints(cli, path: list[str]) -> None:
    status, out, err = cli([*path, "--help"])
    assert status == 0 and "usage:" in out and "Traceback" not in err


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.text(alphabet=st.characters(exclude_characters="\n\r\x1c\x1d\x1e\x85\u2028\u2029\x0b\x0c"), max_size=12),
        min_size=1,
        max_size=8,
    )
)
@example(["4", "\ud800", "44"])  # a lone surrogate cannot be printed as it is: it is answered all the same
def test_a_batch_gets_one_answer_line_per_input_line(cli, lines: list[str]) -> None:
    status, out, err = cli(["solve", "--cols", "4", "--rows", "4"], stdin="\n".join(lines) + "\n")
    answers = out.splitlines()
    assert len(answers) == len(lines)
    unanswered = sum(answer.endswith(" ?") for answer in answers)
    assert status == (1 if unanswered else 0) and err.count("\n") == unanswered


@given(geometries(), choices())
def test_the_soak_referee_agrees_with_the_board(geometry: Geometry, picks: list[int]) -> None:
    board = play_picks(geometry, picks)
    verdict, winner = referee(geometry, list(board.history))
    assert verdict == "ok"
    assert winner == (None if board.winner is None else int(board.winner is Side.SECOND))
    if board.history:  # one more stone into a full column, or after a win, is illegal
        full = next((c for c in range(geometry.cols) if board.height(c) == geometry.rows), None)
        if board.winner is not None:
            assert referee(geometry, [*board.history, board.history[0]])[0] == "illegal"
        elif full is not None:
            assert referee(geometry, [*board.history, full])[0] == "illegal"


def test_the_soak_runs_and_reports(cli) -> None:
    status, out, _ = cli(["bench", "soak", "--minutes", "0.01", "--agents", "random;random:seed=3"])
    assert status == 0 and out.startswith("games ") and "illegal moves 0, wrong results 0" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_grid_files_that_never_end_are_refused(cli, tmp_path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo), str(tmp_path)):
        status, _out, err = cli(["solve", "--grid", path])
        assert status == 2 and "not a regular file" in err and err.count("\n") == 1
