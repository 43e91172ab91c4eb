"""Checking a study's written figures against its rows: every number in a reading must come from data.

:func:`figures` pulls the numbers out of a study's "Ours" line and its
reading (leaving out what is a name, not a figure: code spans, board sizes
such as 7x6, seed numbers, names such as F4 or a state's name); each number
keeps the precision it is printed with. :func:`unexplained` returns the numbers
that match none of the candidate values a test recomputed from the study's
``rows.csv`` and its documented constants: a hand-typed figure (or a figure
printed with a digit too many) is left over there.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


def rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "rows.csv").open(encoding="utf-8") as source:
        return list(csv.DictReader(source))


def number(text: str) -> float:
    return float(text) if text not in ("", "None") else math.nan


def sections(readme: str) -> str:
    """The "Ours" line and the reading of a study's README, as one text."""
    ours = next((line for line in readme.splitlines() if line.startswith("**Ours:**")), "")
    reading = readme.split("## Reading", 1)[1] if "## Reading" in readme else ""
    reading = re.split(r"\n#", reading, maxsplit=1)[0]
    return ours.removeprefix("**Ours:**") + "\n" + reading


@dataclass(frozen=True)
class Figure:
    text: str
    value: float
    half_unit: float  # half of the last printed digit's unit: the rounding the text allows
    percent: bool


#: Names, not figures: code spans, board sizes, seed numbers, words with digits (F4, EvalF1,
#: x10), formulas (3^42, b^cells), and the study's own names given by the caller.
_NAMES = (
    r"`[^`]*`",
    r"\b\d+x\d+\b",
    r"(?i)\bseeds? \d{3}(?:(?:, | and )\d{3})*",
    r"\b95% (?:CI|interval)",
    r"\b\d{3}(?= \d+x\d+)",  # a seed board's label starts with its seed: "000 4x4 a"
    r"\b[A-Za-z]+\d+\b",
    r"\b\d+\^\w+",
    r"\bconnect \d\b",
)
_NUMBER = re.compile(r"(?<![\w.])(?P<sign>[+\-±]?)(?P<body>\d[\d,]*(?:\.\d+)?(?:e-?\d+)?)(?P<percent>%?)")


def figures(text: str, names: Iterable[str] = ()) -> list[Figure]:
    """Every number printed in ``text``, names left out (``names``: the study's own, e.g. "3 middle game")."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    for pattern in _NAMES:
        text = re.sub(pattern, " ", text)
    out = []
    for match in _NUMBER.finditer(text):
        body = match["body"].replace(",", "")
        sign = match["sign"]
        start = match.start()
        if sign == "-" and start > 0 and (text[start - 1].isdigit() or text[start - 1] == "%"):
            sign = ""  # a range, "0-13" or "17%-69%": the second number is not negative
        mantissa, _, exponent = body.partition("e")
        decimals = len(mantissa.partition(".")[2])
        half = 0.5 * 10.0 ** (-decimals) * (10.0 ** int(exponent) if exponent else 1.0)
        value = float(body) * (-1.0 if sign == "-" else 1.0)
        out.append(Figure(match.group(0), value, half, bool(match["percent"])))
    return out


def matches(figure: Figure, candidate: float) -> bool:
    if not math.isfinite(candidate):
        return False
    slack = figure.half_unit * 1.0001 + 1e-9
    if figure.percent:
        return abs(100.0 * candidate - figure.value) <= slack or abs(candidate - figure.value) <= slack
    return abs(candidate - figure.value) <= slack


def unexplained(text: str, candidates: Iterable[float], names: Iterable[str] = ()) -> list[str]:
    """The numbers of ``text`` that no candidate explains (at the precision they are printed with)."""
    values = [float(c) for c in candidates]
    return [f.text for f in figures(text, names) if not any(matches(f, c) for c in values)]


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval, written out here again (the check does not borrow the study's code)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)
