"""The studies of seeds 000 and 001's own experiments: playtime, cutoff-depth, empty-boards.

Each runs with --quick in the shared ``quick_runs`` fixture; here: what their rows hold, that a
stopped run resumes where it stopped, and that bad input is one line.
"""

from __future__ import annotations

import csv
import json
import shutil

import pytest

from engine.experiments.seed_boards import read_leniently, tactics
from engine.grade.seed_boards import SEED_000


def _rows(folder):
    with (folder / "rows.csv").open(encoding="utf-8") as source:
        return list(csv.DictReader(source))


def test_the_page_quotes_the_seeds_question(quick_runs):
    for name, words in (
        ("playtime", "Let the Minimax Search agent play a random agent"),
        ("cutoff-depth", "Experiment with different cutoff values"),
        ("empty-boards", "How long does it take to make a move?"),
    ):
        status, folder = quick_runs[name]
        readme = (folder / "README.md").read_text(encoding="utf-8")
        asked = next(line for line in readme.splitlines() if line.startswith("**The seeds ask:**"))
        assert status == 0 and words in asked


def test_playtime_plays_both_matches_with_both_colours_and_times_every_move(quick_runs):
    rows = _rows(quick_runs["playtime"][1])
    assert {r["match"] for r in rows} == {"minimax vs random", "cut-off 10 vs cut-off 5"}
    for match in {r["match"] for r in rows}:
        games = [r for r in rows if r["match"] == match]
        assert {r["red_first"] for r in games} == {"True", "False"}  # each agent moves first in some
    for r in rows:
        times = r["move_ms"].split()
        assert len(times) == int(r["plies"]) == len(r["moves"])  # every move, from the empty board
        assert all(float(t) >= 0 for t in times) and r["opening"] == "" and not r["forfeit"]
        assert r["winner"] in ("red", "yellow", "draw")
    table = (quick_runs["playtime"][1] / "table.md").read_text(encoding="utf-8")
    minimax = [r for r in rows if r["match"] == "minimax vs random" and r["red_first"] == "True"]
    wins = sum(r["winner"] == "red" for r in minimax)
    assert f"| minimax vs random | 5x4 | minimax | {len(minimax)} |" in table
    assert f"{wins} ({wins / len(minimax):.0%})" in table


def test_cutoff_depth_plays_the_win_or_block_on_seed_000s_boards(quick_runs):
    """The plain cut-off search, at every depth, on the boards where seed 000 looks for a win or a block:
    the column the rows call right is the rules' answer, and the search plays it."""
    rows = _rows(quick_runs["cutoff-depth"][1])
    boards = [r for r in rows if r["part"] == "seed board"]
    labels = {b.label for b in SEED_000 if b.purpose in ("win", "block")}
    assert {r["board"] for r in boards} == labels and len(labels) == 9
    assert {r["depth"] for r in boards} == {"1", "3"}
    for r in boards:
        position = read_leniently(next(b for b in SEED_000 if b.label == r["board"]))
        found = tactics(position.geometry, position.mover, position.opponent)
        right = found.wins or found.blocks
        assert r["right"] == " ".join(str(c + 1) for c in right) and right
        assert (int(r["column"]) - 1 in right) == (r["found"] == "True") == True  # noqa: E712
        assert float(r["cpu_ms"]) > 0 and int(r["nodes"]) > 0
    games = [r for r in rows if r["part"] == "game"]
    assert {r["yellow"] for r in games} == {"alphabeta:depth=5,eval=seed000,mode=2"}
    assert {r["red"] for r in games} == {
        "alphabeta:depth=1,eval=seed000,mode=1",
        "alphabeta:depth=3,eval=seed000,mode=1",
    }
    moves = [r for r in rows if r["agent"]]
    assert {r["size"] for r in moves} == {"7x6"} and all(r["optimal"] in ("True", "False") for r in moves)


def test_empty_boards_kernel_and_python_visit_the_same_nodes(quick_runs):
    """The numba kernel and the plain-Python reference are the same search: where both ran, the same
    nodes and the same column; 4x4 connect 4 is a draw, which the search to the end proves."""
    rows = _rows(quick_runs["empty-boards"][1])
    python = [r for r in rows if r["engine"] == "python" and r["seconds"]]
    assert python, "the Python reference ran no search"
    for r in python:
        twin = next(
            k
            for k in rows
            if k["engine"] == "numba" and (k["board"], k["depth"], k["order"]) == (r["board"], r["depth"], r["order"])
        )
        assert (twin["nodes"], twin["column"]) == (r["nodes"], r["column"])
    end = [r for r in rows if r["depth"] == "0" and r["engine"] == "numba"]
    assert {r["value"] for r in end if r["board"] == "4x4"} == {"draw"}
    stopped = [r for r in end if r["finished"] == "False"]
    assert stopped and all(r["note"] == "stopped at 300,000 nodes" and not r["column"] for r in stopped)
    assert all(int(r["nodes"]) >= 300_000 for r in stopped)
    table = (quick_runs["empty-boards"][1] / "table.md").read_text(encoding="utf-8")
    assert "| 5x4 | 4x5 | > 300,000 |" in table  # a stopped search says so, as a lower bound


@pytest.mark.parametrize("name", ["playtime", "cutoff-depth", "empty-boards"])
def test_a_stopped_run_resumes_without_redoing_what_it_made(quick_runs, tmp_path, name):
    """The last two tasks' lines removed from the resume file (a run stopped there): the same command
    makes those two again and keeps every other row as it was (its measured times included)."""
    from engine.cli import main

    folder = tmp_path / name
    shutil.copytree(quick_runs[name][1], folder)
    progress = folder / "progress.jsonl"
    lines = progress.read_text(encoding="utf-8").splitlines()
    kept = [json.loads(line) for line in lines[:-2]]
    progress.write_text("\n".join(lines[:-2]) + "\n", encoding="utf-8")
    assert main(["experiment", name, "--quick", "--jobs", "1", "--no-progress", "--out", str(folder)]) == 0
    again = {entry["key"]: entry["rows"] for entry in map(json.loads, progress.read_text().splitlines())}
    assert len(again) == len(lines)
    assert all(again[entry["key"]] == entry["rows"] for entry in kept)


def test_bad_games_count_is_one_line(cli):
    status, _, err = cli(["experiment", "cutoff-depth", "--games", "0"])
    assert status == 2 and "--games" in err and len(err.strip().splitlines()) == 1


def test_a_resume_file_whose_rows_do_not_fit_is_one_line(quick_runs, tmp_path, cli):
    """An edited row (nodes that are not a number) stops the study with one line naming the file."""
    folder = tmp_path / "empty-boards"
    shutil.copytree(quick_runs["empty-boards"][1], folder)
    progress = folder / "progress.jsonl"
    entries = [json.loads(line) for line in progress.read_text().splitlines()]
    entries[0]["rows"][0]["nodes"] = "many"
    progress.write_text("".join(json.dumps(e) + "\n" for e in entries))
    status, _, err = cli(
        ["experiment", "empty-boards", "--quick", "--jobs", "1", "--no-progress", "--out", str(folder)]
    )
    assert status != 0 and len(err.strip().splitlines()) == 1
    assert "progress.jsonl" in err and "--restart" in err and "Traceback" not in err


def test_the_studies_page_says_what_the_studies_run():
    """docs/experiments.md's lines of the three studies name their boards, depths and limits as the modules do."""
    from pathlib import Path

    from engine.experiments import cutoff_depth, empty_boards, playtime

    def sizes(boards):
        names = [f"{c}x{r}" for c, r in boards]
        return f"{', '.join(names[:-1])} and {names[-1]}"

    page = (Path(__file__).resolve().parents[3] / "docs" / "experiments.md").read_text(encoding="utf-8")
    lines = {
        name: next(line for line in page.splitlines() if line.startswith(f"| `{name}` |"))
        for name in ("playtime", "cutoff-depth", "empty-boards")
    }
    minimax, heuristic = playtime.MATCHES
    assert minimax.first == "alphabeta:depth=10,eval=zero" and "minimax (10 plies" in lines["playtime"]
    assert sizes(minimax.boards) in lines["playtime"] and sizes(heuristic.boards) in lines["playtime"]
    assert heuristic.first.endswith("depth=10,eval=seed000,mode=1") and heuristic.second.endswith("mode=2")
    depths = cutoff_depth.DEPTHS
    assert depths == tuple(range(depths[0], depths[-1] + 1))  # "1 to 8": every depth between
    assert f"depths {depths[0]} to {depths[-1]}" in lines["cutoff-depth"]
    assert heuristic.second == cutoff_depth.OPPONENT and "cut-off 5 agent" in lines["cutoff-depth"]
    eb = lines["empty-boards"]
    assert f"stopped at {empty_boards.NODE_CAP:,} nodes" in eb
    assert f"{' and '.join(map(str, sorted(empty_boards.END_ROWS)))} rows" in eb
    cols, cut = empty_boards.CUTOFF_COLS, empty_boards.CUTOFF_DEPTHS
    assert f"depths {cut[0]} to {cut[-1]} ({cols[0]} to {cols[-1]} columns)" in eb


def test_report_gives_a_study_its_section_with_the_seeds_question(tmp_path):
    from engine.cli import main

    argv = ["report", "--quick", "--only", "playtime", "--jobs", "1", "--no-progress", "--out", str(tmp_path)]
    assert main(argv) == 0
    page = (tmp_path / "README.md").read_text(encoding="utf-8")
    section = page.split("## playtime:", 1)[1]
    assert section.index("**The seeds ask:**") < section.index("| match |")  # the question before the table
    links = [line.split("(")[1].rstrip(")") for line in section.splitlines() if line.startswith("![")]
    assert links == ["playtime/playtime_outcomes.png", "playtime/playtime_time.png"]
    assert all((tmp_path / link).read_bytes()[:4] == b"\x89PNG" for link in links)
