"""Every study with --quick: the rows it writes, its table and charts, the report page."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import pytest

from engine.experiments.study import all_studies
from engine.tasks import Checkpoint, derive_seed, run_tasks


def _rows(folder):
    with (folder / "rows.csv").open() as source:
        return list(csv.DictReader(source))


@pytest.mark.parametrize("name", [study.name for study in all_studies()])
def test_each_study_writes_rows_table_charts_and_readme(quick_runs, name):
    status, out = quick_runs[name]
    assert status == 0
    assert _rows(out), "no rows"
    readme = (out / "README.md").read_text()
    assert "python -m engine experiment" in readme and "## Reading" in readme and "## Beside the seed" in readme
    charts = [line.split("(")[1].rstrip(")") for line in readme.splitlines() if line.startswith("![")]
    assert charts
    for chart in charts:
        assert (out / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "table.md").read_text().startswith(("|", "Score", "Exact", "Each"))


def test_random_games_rows(quick_runs):
    rows = _rows(quick_runs["random-games"][1])
    sizes = {row["size"] for row in rows}
    assert sizes == {"4x4", "7x6"}
    for size in sizes:
        mine = [row for row in rows if row["size"] == size]
        assert len(mine) == 200
        cols, height = map(int, size.split("x"))
        assert all(7 <= int(row["plies"]) <= cols * height for row in mine)
        assert {row["winner"] for row in mine} <= {"first", "second", "draw"}
    assert all(row["winner"] != "draw" or int(row["plies"]) == 16 for row in rows if row["size"] == "4x4")


def test_state_space_counts_match_the_published_sequence(quick_runs):
    rows = _rows(quick_runs["state-space"][1])
    seven = [int(row["positions"]) for row in rows if row["size"] == "7x6"]
    assert seven == [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]  # OEIS A212693
    four = [row for row in rows if row["size"] == "4x4"]
    assert len(four) == 17 and four[0]["to_the_end"] == "True"


def test_ordering_rows_cover_every_order_and_engine(quick_runs):
    rows = _rows(quick_runs["ordering"][1])
    kinds = {(row["order"], row["engine"]) for row in rows}
    assert kinds == {
        ("natural", "numba"),
        ("center", "numba"),
        ("heuristic", "numba"),
        ("natural", "python"),
        ("center", "python"),
    }
    for row in rows:
        if row["engine"] == "numba":
            assert int(row["nodes"]) > 0 and float(row["seconds"]) > 0
        elif not row["seconds"]:
            assert row["note"]  # a Python cell left empty says why


def test_eval_tournament_plays_every_pairing(quick_runs):
    rows = _rows(quick_runs["eval-tournament"][1])
    pairs = {(row["red"], row["yellow"]) for row in rows}
    assert len(pairs) == 8 * 7 // 2 + 3
    assert all(row["winner"] in ("red", "yellow", "draw") for row in rows)
    assert not any(row["forfeit"] for row in rows)


def test_node_limit_rows_per_budget(quick_runs):
    rows = _rows(quick_runs["node-limit"][1])
    games = [row for row in rows if row["winner"]]
    moves = [row for row in rows if row["agent"]]
    assert {row["red"] for row in games} == {"alphabeta:depth=81,nodes=1000", "alphabeta:depth=81,nodes=10000"}
    assert len(games) == 4
    assert all(int(row["nodes"]) <= 1000 + 200 for row in moves if row["agent"].endswith("nodes=1000"))


def test_algorithms_rows_measure_every_algorithm(quick_runs):
    rows = _rows(quick_runs["algorithms"][1])
    measures = [row for row in rows if row["algorithm"]]
    assert {row["algorithm"] for row in measures} == {"A*", "minimax", "MCTS"}
    assert all(float(row["rss_peak_mb"]) > 0 for row in measures)
    for row in measures:
        if row["algorithm"] == "MCTS":  # its tree: far more reserved than one move's nodes write
            assert 0 < float(row["written_kb"]) < float(row["reserved_kb"])
    games = [row for row in rows if row["winner"]]
    assert len(games) == 7 * 2  # seed 004's seven pairings, minimax vs MCTS included


def test_accuracy_optimal_moves_keep_the_value(quick_runs):
    rows = _rows(quick_runs["accuracy"][1])
    assert {row["phase"] for row in rows} <= {"opening", "middle", "end"}
    assert all(row["keeps_value"] == "True" for row in rows if row["optimal"] == "True")
    strong = [row for row in rows if row["agent"] == "alphabeta:depth=4"]
    weak = [row for row in rows if row["agent"] == "random"]
    assert len(strong) == len(weak) > 0


def test_first_move_exact_values_and_the_centre(quick_runs):
    rows = _rows(quick_runs["first-move"][1])
    exact = [int(row["exact"]) for row in rows if row["family"] == "exact"]
    assert exact == [-2, -1, 0, 1, 0, -1, -2]  # Pons's first-move scores on 7x6
    assert all(row["column"] == "4" for row in rows if row["spec"] == "alphabeta:depth=4")


def test_same_seed_same_rows(tmp_path):
    from engine.cli import main

    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        assert (
            main(
                [
                    "experiment",
                    "random-games",
                    "--quick",
                    "--games",
                    "30",
                    "--no-progress",
                    "--jobs",
                    "1",
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        runs.append(_rows(out))
    assert runs[0] == runs[1]


class _Square:
    """A task that squares a number, or stops like Ctrl-C on ``stop_at``."""

    def __init__(self, n: int, stop_at: int = -1) -> None:
        self.n, self.stop_at = n, stop_at

    @property
    def key(self) -> str:
        return str(self.n)

    def run(self):
        if self.n == self.stop_at:
            raise KeyboardInterrupt
        return {"n": self.n, "square": self.n * self.n}


def test_an_interrupted_run_resumes_without_replaying_rows(tmp_path):
    checkpoint = tmp_path / "progress.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_tasks([_Square(n, stop_at=3) for n in range(6)], checkpoint=checkpoint, progress=False)
    assert [json.loads(line)["key"] for line in checkpoint.read_text().splitlines()] == ["0", "1", "2"]
    ran = []

    class Counting(_Square):
        def run(self):
            ran.append(self.n)
            return super().run()

    rows = run_tasks([Counting(n) for n in range(6)], checkpoint=checkpoint, progress=False)
    assert ran == [3, 4, 5]
    assert [row["square"] for row in rows] == [0, 1, 4, 9, 16, 25]
    assert len(Checkpoint(checkpoint).rows) == 6


def test_report_page_shows_every_chart(tmp_path):
    """The page links every chart; a rerun with every row made already adds no time to the
    page's time per study (it made no rows)."""
    from engine.cli import main

    command = ["report", "--quick", "--jobs", "1", "--no-progress", "--out", str(tmp_path)]
    assert main([*command, "--only", "random-games", "first-move"]) == 0
    page = (tmp_path / "README.md").read_text()
    assert "## random-games" in page and "## first-move" in page
    links = [line.split("(")[1].rstrip(")") for line in page.splitlines() if line.startswith("![")]
    assert len(links) == 4
    assert all((tmp_path / link).exists() for link in links)
    assert main([*command, "--only", "first-move"]) == 0
    again = (tmp_path / "README.md").read_text()
    assert _study_time(again, "first-move") == _study_time(page, "first-move")


def _study_time(page: str, study: str) -> str:
    """A study's figure on the page's last line, "wall-clock time per study, ...: NAME N s, ..."."""
    times = page.splitlines()[-1]
    assert "wall-clock time per study" in times
    return times.split(f" {study} ")[1].split(" s")[0]


def test_unknown_study_is_one_line(cli):
    status, _, err = cli(["experiment", "nosuch", "--quick"])
    assert status == 2 and "unknown study" in err and len(err.strip().splitlines()) == 1


def test_a_seed_depends_on_every_part_whole_and_on_nothing_else() -> None:
    """Specs that differ only at the end get seeds of their own, and a seed is the same in another
    Python process (another string hash salt), so a study's games are the same on every run."""
    specs = [f"mcts:iterations={n}" for n in (1000, 5000)] + [f"alphabeta:depth={d}" for d in range(1, 9)]
    seeds = [derive_seed(7, spec, 3) for spec in specs]
    assert len(set(seeds)) == len(specs) and all(0 <= seed < 2**31 for seed in seeds)
    assert len({derive_seed(1, 2), derive_seed(2, 1), derive_seed("1", 2), derive_seed(12)}) == 4
    code = "from engine.tasks import derive_seed as d; print(d(7, 'mcts:iterations=1000', 3))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    elsewhere = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert int(elsewhere.stdout) == seeds[0]
