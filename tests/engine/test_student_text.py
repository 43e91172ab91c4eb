"""Text from students reaches people clean: no control characters, no bidirectional overrides."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from engine.agents.registry import create_agent
from engine.board import Side
from engine.match import play_game
from engine.sandbox.process import LineRelay
from engine.sandbox.text import clean
from tests.waiting import wait_until

ATTACK = "\x1b[2J\x1b]0;title\x07\x1b]52;c;cm0gLXJm\x07red 0, yellow 4\u202eevil\u2066x\u2069\x9b31m\x00\u2028"


def test_every_control_and_bidi_character_is_replaced() -> None:
    cleaned = clean(ATTACK + "\tend")
    assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in cleaned)
    assert not set(cleaned) & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028")
    assert cleaned.endswith(" end") and "red 0, yellow 4" in cleaned
    assert clean("plain text, é ü 中文 🙂 and a ZWJ 👩\u200d💻") == "plain text, é ü 中文 🙂 and a ZWJ 👩\u200d💻"


def test_printed_lines_are_relayed_clean() -> None:
    said: list[str] = []
    relay = LineRelay("bot\x1b[2J.py", 10_000, said.append)
    relay.feed(ATTACK.encode() + b"\n")
    relay.close()
    assert said and not any("\x1b" in line or "\u202e" in line or "\x07" in line for line in said)


STUDENT = f"""
def agent(board, player=1):
    print({ATTACK!r})  # no flush: it must still arrive
    raise RuntimeError({ATTACK!r})
"""


def test_a_forfeit_reason_and_the_output_are_clean(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent(STUDENT))
    student = create_agent(f"{path}:agent,timeout=20")
    try:
        record = play_game(student, create_agent("random:seed=1"))
    finally:
        student.close()
    assert record.forfeit is Side.FIRST
    assert "RuntimeError" in record.reason and "\x1b" not in record.reason and "\u202e" not in record.reason
    seen = [""]

    def finished() -> bool:
        seen[0] += capfd.readouterr().err
        return "red 0, yellow 4" in seen[0]

    wait_until(finished, 5, "the match's last line", every=0.05)
    err = seen[0]
    assert "[bot.py] \ufffd[2J" in err
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
