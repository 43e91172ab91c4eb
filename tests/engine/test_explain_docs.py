"""docs/explain.md's coverage tables are the bench's own: re-derived from the rows it wrote, a sample re-explained."""

from __future__ import annotations

import csv
from pathlib import Path

from engine.bench.explain import markdown
from engine.board import Board
from engine.explain.explainer import Explainer

DOCS = Path(__file__).resolve().parents[2] / "docs"
ROWS = ("coverage.csv", "ladder.csv", "before_threats.csv", "after_threats.csv")


def test_each_table_of_the_page_is_the_tally_of_the_bench_rows_it_names() -> None:
    page = (DOCS / "explain.md").read_text(encoding="utf-8")
    for name in ROWS:
        rows = (DOCS / "explain" / name).read_text(encoding="utf-8")
        assert f"docs/explain/{name}" in page
        assert markdown(rows) in page, name


def test_a_sample_of_the_rows_is_what_the_explainer_says_now() -> None:
    """The claims in the rows are the code's: every 100th of the quick ones with a reason, explained again (one
    without a reason may have run out of time on a busy machine: it proves nothing either way)."""
    rows = list(csv.DictReader((DOCS / "explain" / "coverage.csv").read_text(encoding="utf-8").splitlines()))
    assert rows and all(row["false"] == "0" for row in rows)
    quick = [row for row in rows if row["claim"] and float(row["cpu_seconds"]) < 0.2]
    explainer = Explainer()
    for row in quick[::100]:
        explanation = explainer.explain(Board.from_moves(row["position"]))
        assert (explanation.score, explanation.claim or "") == (int(row["score"]), row["claim"]), row["position"]
