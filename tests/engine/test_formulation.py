"""docs/formulation.md cannot go stale: every figure on it that is quick to compute is computed here.

The tables are read from the page and compared with ``count_positions`` and
with bounds computed here by plain enumeration (not by the page's own formula);
the page's Python snippet is run, and the names it gives for each part of the
problem are looked up in the code.
"""

from __future__ import annotations

import itertools
import math
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.board import Board, Side
from engine.count import count_positions
from engine.experiments.state_space import KNOWN_7X6_TOTAL
from engine.geometry import Geometry

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "formulation.md").read_text(encoding="utf-8")
FLAT = " ".join(PAGE.split())  # the prose with its line breaks undone

#: 7x6 plies recounted in the ordinary run (about a second); the rest of the table under -m slow.
QUICK_PLIES = 10


def table(header_start: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header row starts with ``header_start``."""
    lines = PAGE.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def number(text: str) -> int:
    """``1,234`` -> 1234 (the exact part of a cell, before any ``≈``)."""
    return int(text.split("≈")[0].strip().replace(",", ""))


def approx(text: str) -> str:
    """The ``≈ 1.09 × 10^20`` part of a cell, as ``1.09e+20``."""
    mantissa, exponent = re.search(r"≈ ([0-9.]+) × 10\^([0-9]+)", text).groups()
    return f"{mantissa}e+{int(exponent):02d}"


def stacked_balanced(cols: int, rows: int) -> Counter:
    """Stones stacked from the bottom, X as many as O or one more: how many such colourings have n stones.

    By enumeration of every column-height vector, independent of the page's polynomial.
    """
    by_stones: Counter = Counter()
    for heights in itertools.product(range(rows + 1), repeat=cols):
        n = sum(heights)
        by_stones[n] += math.comb(n, (n + 1) // 2)
    return by_stones


def counts(cols: int, rows: int, plies: int) -> list[int]:
    return [count for _, count in count_positions(Geometry(cols, rows, 4), plies)]


SEVEN_BY_SIX = table("| ply | positions (exact)")


def check_seven_by_six_rows(rows: list[list[str]], exact: list[int]) -> None:
    bound = stacked_balanced(7, 6)
    for ply, positions, colourings, running in rows:
        ply_number = int(ply)
        assert number(positions) == exact[ply_number], f"ply {ply}"
        assert number(colourings) == bound[ply_number], f"ply {ply}"
        assert number(running) == sum(exact[: ply_number + 1]), f"ply {ply}"


def test_the_seven_by_six_table_matches_count_up_to_the_quick_plies() -> None:
    assert [int(row[0]) for row in SEVEN_BY_SIX] == list(range(len(SEVEN_BY_SIX)))
    check_seven_by_six_rows(SEVEN_BY_SIX[: QUICK_PLIES + 1], counts(7, 6, QUICK_PLIES))


@pytest.mark.slow
def test_the_whole_seven_by_six_table_matches_count() -> None:
    last = len(SEVEN_BY_SIX) - 1
    exact = counts(7, 6, last)
    check_seven_by_six_rows(SEVEN_BY_SIX, exact)
    growth = re.search(r"at ply (\d+) the count still grows by a factor of about ([0-9.]+)", FLAT)
    assert int(growth[1]) == last and f"{exact[last] / exact[last - 1]:.1f}" == growth[2]


def test_the_small_boards_are_counted_to_the_end() -> None:
    rows = table("| ply | 4x4 | 5x4 | 4x5 |")
    boards = [(4, 4), (5, 4), (4, 5)]
    by_ply = [row for row in rows if row[0].isdigit()]
    extra = {row[0]: row[1:] for row in rows if not row[0].isdigit()}
    for column, (cols, rows_) in enumerate(boards, start=1):
        exact = counts(cols, rows_, cols * rows_)
        assert len(exact) == cols * rows_ + 1
        shown = [row[column] for row in by_ply]
        assert [number(cell) for cell in shown if cell] == exact
        assert all(not cell for cell in shown[len(exact) :])  # nothing past a full board
        assert number(extra["all plies"][column - 1]) == sum(exact)
        assert number(extra["stacked, balanced colourings"][column - 1]) == sum(stacked_balanced(cols, rows_).values())
        assert number(extra["3^cells"][column - 1]) == 3 ** (cols * rows_)
        assert sum(exact) <= sum(stacked_balanced(cols, rows_).values()) <= 3 ** (cols * rows_)


BOUNDS = {row[0].split(" (")[0]: row[2] for row in table("| quantity | formula | 7x6 |")}


def test_the_bounds_are_what_their_formulas_give() -> None:
    cells = 42
    colourings = 3**cells
    stacked = sum(stacked_balanced(7, 6).values())
    fills = math.factorial(cells) // math.factorial(6) ** 7
    assert number(BOUNDS["cell colourings"]) == colourings
    assert approx(BOUNDS["cell colourings"]) == f"{colourings:.2e}"
    assert number(BOUNDS["stacked, balanced colourings"]) == stacked
    assert approx(BOUNDS["stacked, balanced colourings"]) == f"{stacked:.2e}"
    assert approx(BOUNDS["move sequences, at most"]) == f"{7**cells:.2e}"
    assert number(BOUNDS["orders of filling the board"]) == fills
    assert approx(BOUNDS["orders of filling the board"]) == f"{fills:.2e}"
    assert KNOWN_7X6_TOTAL <= stacked <= colourings


def test_the_known_total_is_the_cited_constant_written_right() -> None:
    assert number(BOUNDS["positions, exact"]) == KNOWN_7X6_TOTAL
    assert approx(BOUNDS["positions, exact"]) == f"{KNOWN_7X6_TOTAL:.2e}" == "4.53e+12"
    assert f"**{KNOWN_7X6_TOTAL:,} positions** (about 4.53 × 10^12)" in FLAT
    assert "oeis.org/A212693" in FLAT and "John Tromp" in FLAT
    # The seed's 10^13 appears once, in the sentence that corrects it.
    assert FLAT.count("4.53 × 10^13") == 1
    start = FLAT.index("4.53 × 10^13")
    assert FLAT[start : FLAT.index(". ", start)] == "4.53 × 10^13, which is a factor of ten too large"
    assert f"{KNOWN_7X6_TOTAL * 10:.2e}" == "4.53e+13"  # the seed's figure is the total times ten


def test_the_ratios_in_the_text() -> None:
    one_in = re.search(r"one cell colouring in (\d+) million", FLAT)[1]
    assert round(3**42 / KNOWN_7X6_TOTAL / 1e6) == int(one_in)
    share = re.search(r"about ([0-9.]+)% of the stacked, balanced", FLAT)[1]
    assert f"{100 * KNOWN_7X6_TOTAL / sum(stacked_balanced(7, 6).values()):.1f}" == share


def test_the_pages_snippet_prints_the_tables_bounds() -> None:
    snippet = PAGE[PAGE.rindex('python -c "') : PAGE.rindex("```")]
    code = snippet.split('"', 1)[1].rsplit('"', 1)[0]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    colourings, stacked, sequences, fills = map(int, done.stdout.split())
    assert colourings == number(BOUNDS["cell colourings"])
    assert stacked == number(BOUNDS["stacked, balanced colourings"])
    assert f"{sequences:.2e}" == approx(BOUNDS["move sequences, at most"])
    assert fills == number(BOUNDS["orders of filling the board"])


def test_the_utility_examples() -> None:
    geometry = Geometry()
    quickest = Board.from_moves("4545454")  # X's fourth stone in column 4, the 7th stone of the game
    assert quickest.winner is Side.FIRST and quickest.ply == 7
    assert geometry.win_score(7) == (42 + 2 - 7) // 2 == 18
    assert geometry.win_score(42) == (42 + 2 - 42) // 2 == 1
    assert "(42 + 2 - 7) // 2 = 18" in FLAT and "(42 + 2 - 42) // 2 = 1" in FLAT
    # "one more than the number of stones the winner still had in hand", on boards of both parities
    for cols, rows in ((7, 6), (5, 5)):
        g = Geometry(cols, rows, 4)
        for p in range(7, g.cells + 1):
            winner_stones = (g.cells + 1) // 2 if p % 2 else g.cells // 2
            assert g.win_score(p) == winner_stones - (p + 1) // 2 + 1


def test_the_code_names_on_the_page_exist() -> None:
    from engine import formats
    from engine import score as score_module
    from engine.kernels import rules

    objects = {"Board": Board(), "Geometry": Geometry(), "Side": Side, "Score": score_module.Score}
    named = set(re.findall(r"`(Board|Geometry|Side|Score)\.([A-Za-z_]+)", PAGE))
    assert len(named) > 15
    for owner, attribute in named:
        assert hasattr(objects[owner], attribute), f"{owner}.{attribute}"
    for function in ("can_play", "legal_columns", "play", "has_alignment"):
        assert f"`{function}(" in PAGE and callable(getattr(rules, function))
    assert callable(formats.to_array) and callable(formats.from_array)
    assert "`count_positions`" in PAGE and callable(count_positions)
    for path in re.findall(r"`(engine/[a-z_/]+\.py)`", PAGE):
        assert (ROOT / path).is_file(), path
