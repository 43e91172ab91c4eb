"""Files other people make, for the tests of the game's readers: good ones, damaged ones, hostile ones.

:func:`saved_game_files` and :func:`settings_files` draw ``(raw bytes, expected)``:
``expected`` is what a correct reader must make of a file that is valid as
drawn (None when the file was damaged on purpose, where the reader may accept
or refuse it, but must do either cleanly).
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, fields
from typing import Any

from hypothesis import strategies as st

from engine.board import Board
from engine.errors import GeometryError
from engine.formats import format_grid
from engine.geometry import Geometry

#: A student's file: if it ever runs, it leaves a marker file beside itself.
STUDENT_SOURCE = """\
from pathlib import Path
Path(__file__).with_name("RAN").write_text("the student's file ran")


def agent(board, player=1):
    Path(__file__).with_name("RAN").write_text("the student's agent played")
    return 0
"""


def _geometries() -> list[Geometry]:
    """Every board the game allows."""
    boards = []
    for cols in range(4, 10):
        for rows in range(4, 10):
            for connect in range(3, 7):
                with contextlib.suppress(GeometryError):
                    boards.append(Geometry(cols, rows, connect))
    return boards


GEOMETRIES = _geometries()

#: Agent specs a saved game may name: people, engine agents, and students' files (which open as people).
SPECS = [None, "human", "hard", "easy", "random", "mcts:time=1.0", "alphabeta:depth=4,eval=f4"]
STUDENT_SPECS = ["bot.py:agent", "/home/ann/course/bot.py:play,timeout=2", "classroom:path=bot.py,function=agent"]

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["4453", "4453 ", " 44", "４", "٤", "0", "", "red", "yellow", "connect-four game"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@dataclass(frozen=True)
class Expected:
    """What a valid saved game must read back as."""

    geometry: Geometry
    start: str
    moves: str
    specs: tuple[str | None, str | None]  # after a student's file became a person (None)
    students: tuple[bool, bool]  # which seats were a student's file


@st.composite
def valid_games(draw) -> tuple[dict[str, Any], Expected]:
    """A saved game as the game writes it (sometimes a student's seat, sometimes from a text grid)."""
    geometry = draw(st.sampled_from(GEOMETRIES))
    board, played = Board(geometry), []
    for choice in draw(st.lists(st.integers(0, 80), max_size=geometry.cells)):
        if board.is_over:
            break
        col = board.legal_columns()[choice % len(board.legal_columns())]
        board.play(col)
        played.append(str(col + 1))
    split = draw(st.integers(0, len(played) - board.is_over))  # (a game never begins at a decided position)
    start_board = Board.from_moves("".join(played[:split]), geometry)
    as_grid = split > 0 and draw(st.booleans())
    start = format_grid(start_board) if as_grid else "".join(played[:split])
    specs = [draw(st.sampled_from(SPECS + STUDENT_SPECS)) for _ in range(2)]
    students = tuple(spec in STUDENT_SPECS for spec in specs)
    data = {
        "format": "connect-four game",
        "version": 1,
        "date": draw(st.sampled_from(["2026-11-22T23:40:05+00:00", "", "yesterday"])),
        "cols": geometry.cols,
        "rows": geometry.rows,
        "connect": geometry.connect,
        "first": draw(st.sampled_from(["red", "yellow"])),
        "red": {"name": draw(st.text(max_size=30)), "agent": specs[0]},
        "yellow": {"name": draw(st.text(max_size=30)), "agent": specs[1]},
        "start": start,
        "moves": "".join(played[split:]),
        "result": "unfinished",
    }
    kept = tuple(None if spec == "human" or spec in STUDENT_SPECS else spec for spec in specs)
    expected = Expected(geometry, start, data["moves"], (kept[0], kept[1]), (students[0], students[1]))
    return data, expected


def _mutate_json(draw, data: dict[str, Any]) -> dict[str, Any]:
    """One field replaced by any JSON value, removed, or a move string with one character too many."""
    data = json.loads(json.dumps(data))
    kind = draw(st.sampled_from(["replace", "remove", "player", "moves", "add"]))
    colour, where = draw(st.sampled_from(["red", "yellow"])), draw(st.sampled_from(["moves", "start"]))
    if not data or (kind == "player" and not isinstance(data.get(colour), dict)):
        kind = "add"
    elif kind == "moves" and not isinstance(data.get(where), str):
        kind = "replace"
    key = draw(st.sampled_from(sorted(data))) if data else ""
    if kind == "replace":
        data[key] = draw(JSON_VALUES)
    elif kind == "remove":
        del data[key]
    elif kind == "player":
        data[colour][draw(st.sampled_from(["name", "agent", "student", "other"]))] = draw(JSON_VALUES)
    elif kind == "moves":
        extra = draw(st.sampled_from([" ", "\n", "\t", "0", "x", "٤", "８", "²", "\u00a0", "10"]))
        data[where] = data[where] + extra if draw(st.booleans()) else extra + data[where]
    else:
        data[draw(st.text(max_size=8))] = draw(JSON_VALUES)
    return data


def _mutate_bytes(draw, raw: bytes) -> bytes:
    """A few bytes flipped, inserted or removed."""
    raw = bytearray(raw)
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(raw)))
        kind = draw(st.sampled_from(["flip", "insert", "delete"]))
        if kind == "insert" or not raw:
            raw[where:where] = draw(st.binary(min_size=1, max_size=3))
        elif kind == "flip":
            raw[min(where, len(raw) - 1)] ^= draw(st.integers(1, 255))
        else:
            del raw[min(where, len(raw) - 1)]
    return bytes(raw)


def _hostile(draw, raw: bytes) -> bytes:
    """Deep nesting or a number thousands of digits long, where a value should be."""
    text = raw.decode("utf-8")
    depth = draw(st.sampled_from([50, 1000, 10_000, 40_000]))
    value = draw(
        st.sampled_from(["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, "9" * 5000, "-" + "1" * 4301])
    )
    key = draw(st.sampled_from(['"cols"', '"version"', '"moves"', '"date"', '"name"', '"red"', '"tally"', '"volume"']))
    found = re.search(re.escape(key) + r"\s*:", text)
    if found is None:
        return value.encode()
    colon = found.end()
    end = colon
    while end < len(text) and text[end] not in ",}":
        end += 1
    return (text[:colon] + " " + value + text[end:]).encode()


def _files(draw, valid: tuple[dict[str, Any], Any]) -> tuple[bytes, Any]:
    data, expected = valid
    raw = json.dumps(data, indent=2, ensure_ascii=draw(st.booleans())).encode("utf-8")
    kind = draw(st.sampled_from(["valid", "valid", "bom", "json", "json", "json", "bytes", "hostile", "random"]))
    if kind == "valid":
        return raw, expected
    if kind == "bom":
        return b"\xef\xbb\xbf" + raw, expected
    if kind == "json":
        return json.dumps(_mutate_json(draw, data)).encode("utf-8"), None
    if kind == "bytes":
        return _mutate_bytes(draw, raw), None
    if kind == "hostile":
        return _hostile(draw, raw), None
    return draw(st.binary(max_size=200) | st.text(max_size=200).map(str.encode)), None


@st.composite
def saved_game_files(draw) -> tuple[bytes, Expected | None]:
    """The bytes of a saved-game file, and what it must read back as (None: damaged, anything goes)."""
    return _files(draw, draw(valid_games()))


# -- settings ----------------------------------------------------------------------------------------
def _settings_values():
    from game.model import AnimationSpeed, Colour, Look, Mode
    from game.settings import Settings

    choices: dict[str, Any] = {
        "mode": st.sampled_from([m.value for m in Mode]),
        "human_colour": st.sampled_from([c.value for c in Colour]),
        "first": st.sampled_from([c.value for c in Colour]),
        "red_agent": st.sampled_from(["", "hard", "easy", "mcts:time=1.0"]),
        "yellow_agent": st.sampled_from(["", "hard", "random", "alphabeta:depth=4"]),
        "look": st.sampled_from([look.value for look in Look]),
        "animation": st.sampled_from([a.value for a in AnimationSpeed]),
        "spectator_speed": st.sampled_from(["slow", "normal", "fast", "instant"]),
        "cols": st.integers(4, 9),
        "rows": st.integers(4, 9),
        "connect": st.just(4),
        "volume": st.integers(10, 100),
        "text_scale": st.sampled_from([100, 125, 150]),
        "window_width": st.integers(640, 4000),
        "window_height": st.integers(480, 3000),
        "tally": st.just({}),
    }
    for f in fields(Settings):
        if f.name not in choices:
            default = getattr(Settings(), f.name)
            choices[f.name] = st.booleans() if isinstance(default, bool) else st.text(max_size=30)
    return choices


@st.composite
def valid_settings(draw) -> tuple[dict[str, Any], dict[str, Any]]:
    """Settings as the game writes them (some fields left out), and the values they must load as."""
    values = {name: draw(strategy) for name, strategy in _settings_values().items()}
    kept = draw(st.lists(st.sampled_from(sorted(values)), unique=True))
    data = {name: values[name] for name in kept}
    return data, data


@st.composite
def settings_files(draw) -> tuple[bytes, dict[str, Any] | None]:
    """The bytes of a settings file, and the values it must load as (None: damaged, anything goes)."""
    data, expected = draw(valid_settings())
    if draw(st.integers(0, 9)) == 0:  # a student's file among the agents: dropped, never used
        data = {**data, draw(st.sampled_from(["red_agent", "yellow_agent"])): draw(st.sampled_from(STUDENT_SPECS))}
        return json.dumps(data).encode(), None
    return _files(draw, (data, expected))
