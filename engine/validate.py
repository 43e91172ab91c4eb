"""Checking numbers and digits that come from people: one place for every entry point.

Agent keys (``mcts:seconds=1.5``), command-line flags (``--seconds 2``), move
strings and the Python API all read user input through these helpers, so a
new command or agent inherits the same rules and the same messages:

- a float is finite (``nan`` compares false with every bound, so a range
  check alone lets it through); ``inf`` is accepted only where the caller
  says it means "no limit";
- a whole number is written in ASCII digits and lies in its range (Python's
  ``int()`` also reads ``'٤'`` and ``'４'``, and has no upper bound);
- a column is an ``int`` or a numpy integer, never a ``bool`` (``True == 1``).

Every failure is a :class:`~engine.errors.ValueRangeError` whose message
names the value and says what was expected.
"""

from __future__ import annotations

import argparse
import math
import numbers
import operator
import re
from collections.abc import Callable
from typing import Any

from engine.errors import ValueRangeError

#: A whole number in ASCII: an optional sign, then digits (underscores between digits are allowed, as Python does).
_WHOLE = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")
#: The largest node budget and time limit any command or agent takes (numba counts nodes in an int64).
MAX_NODES = 10**15
MAX_SECONDS = 10**7  # about four months
#: The most games one command plays.
MAX_GAMES = 10**7
#: Seeds are whole numbers from 0 to this (what numpy's SeedSequence and the agents take; Python's
#: random made a negative seed the same as its opposite).
MAX_SEED = 2**32 - 1
#: Longest text read as a number: enough for any real limit, and int() on it stays instant.
MAX_NUMBER_CHARS = 40


def shown(value: object) -> str:
    """``repr(value)``, cut short: a message never carries a huge value."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _range_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f" from {_bound(low)} to {_bound(high)}"
    if low is not None:
        return f" of at least {_bound(low)}"
    if high is not None:
        return f" of at most {_bound(high)}"
    return ""


def _bound(value: float) -> str:
    """A range's end as people write it: 4,294,967,295 rather than 4.29497e+09; 0.5 as 0.5."""
    whole = isinstance(value, int) or (float(value).is_integer() and abs(value) < 1e15)
    return f"{int(value):,}" if whole else f"{value:g}"


def finite_float(
    value: object,
    name: str,
    low: float | None = None,
    high: float | None = None,
    *,
    allow_inf: bool = False,
) -> float:
    """``value`` (a number or its text) as a float within ``[low, high]``.

    ``inf`` passes only with ``allow_inf`` (then the upper bound does not
    apply to it): callers that take it must document that it means "no limit".
    """
    expected = f"{name} must be a finite number{_range_text(low, high)}" + (" (or inf: no limit)" if allow_inf else "")
    if isinstance(value, bool):
        raise ValueRangeError(f"{expected}, not {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii() or len(text) > MAX_NUMBER_CHARS:
            raise ValueRangeError(f"{expected}, not {shown(value)}")
        try:
            number = float(text)
        except ValueError:
            raise ValueRangeError(f"{expected}, not {shown(value)}") from None
    else:
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            raise ValueRangeError(f"{expected}, not {shown(value)}") from None
    if math.isnan(number) or (math.isinf(number) and not (allow_inf and number > 0)):
        raise ValueRangeError(f"{expected}, not {shown(value)}")
    if math.isinf(number):
        return number
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueRangeError(f"{expected}, not {shown(value)}")
    return number


def whole_number(value: object, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` (an integer or its ASCII text) as an ``int`` within ``[low, high]``."""
    expected = f"{name} must be a whole number{_range_text(low, high)}"
    if isinstance(value, str):
        text = value.strip()
        if len(text) > MAX_NUMBER_CHARS or not _WHOLE.fullmatch(text):
            raise ValueRangeError(f"{expected}, not {shown(value)}")
        number = int(text)
    else:
        try:
            number = as_integer(value)
        except TypeError:
            raise ValueRangeError(f"{expected}, not {shown(value)}") from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueRangeError(f"{expected}, not {shown(value)}")
    return number


def as_integer(value: object) -> int:
    """An ``int`` or numpy integer as a plain ``int``; :class:`TypeError` for anything else.

    ``bool`` is refused although Python counts it as an integer: ``True``
    for "column 1" is a bug in the caller, not a move.
    """
    if isinstance(value, bool):
        raise TypeError("a bool is not a whole number")
    # numbers.Integral is int and numpy's integer types (numpy registers them), not numpy's bool_;
    # asking it instead of numpy keeps numpy out of the commands' start (see engine.solver.quick).
    if isinstance(value, numbers.Integral):
        return operator.index(value)
    raise TypeError(f"{type(value).__name__} is not a whole number")


def is_column_value(value: object) -> bool:
    """Is ``value`` of a type a column may have (``int`` or numpy integer, not ``bool``)?"""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def column_digit(char: str, cols: int) -> int:
    """The 0-based column of one ASCII digit ``'1'..str(cols)``; :class:`ValueError` otherwise."""
    if len(char) != 1 or not "1" <= char <= "9" or int(char) > cols:
        raise ValueError(char)
    return int(char) - 1


# -- argparse types: every numeric flag of every command goes through these --------------
def float_arg(
    low: float | None = None, high: float | None = None, *, allow_inf: bool = False
) -> Callable[[str], float]:
    """An argparse ``type=`` that reads a finite float in range (see :func:`finite_float`)."""

    def parse(text: str) -> float:
        try:
            return finite_float(text, "the value", low, high, allow_inf=allow_inf)
        except ValueRangeError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix("the value ")) from None

    parse.__name__ = "number"  # argparse names the type in its messages
    return parse


def int_arg(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` that reads an ASCII whole number in range."""

    def parse(text: str) -> int:
        try:
            return whole_number(text, "the value", low, high)
        except ValueRangeError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix("the value ")) from None

    parse.__name__ = "whole number"
    return parse


def check_number(value: Any, name: str, kind: type, low: float | None, high: float | None) -> Any:
    """A parameter value of type ``kind`` (int or float) checked as above; others pass unchanged."""
    if kind is float:
        return finite_float(value, name, low, high)
    if kind is int:
        return whole_number(
            value, name, None if low is None else math.ceil(low), None if high is None else math.floor(high)
        )
    return value
