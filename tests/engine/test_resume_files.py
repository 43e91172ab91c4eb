"""Resume files (``progress.jsonl``) are untrusted data: every kind of damage is a clean run or one clear line.

A damaged line is skipped (its task runs again) with at most one warning
naming the file; a file that cannot be read as text (not a regular file, too
large, not UTF-8) is one error naming it. Never a traceback, never a hang,
and the valid rows of a file are never lost.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.experiments.games import GameTask
from engine.files import FileProblem
from engine.tasks import Checkpoint, RowError, plain_rows, run_tasks

#: A tiny tournament: two games on 4x4, in this process.
TOURNAMENT = ["tournament", "random", "greedy", "--games", "2", "--cols", "4", "--rows", "4", "--jobs", "1"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """The folder of a finished tiny tournament (copied by each test)."""
    from engine.cli import main

    out = tmp_path_factory.mktemp("finished") / "run"
    assert main([*TOURNAMENT, "--no-progress", "--out", str(out)]) == 0
    assert len((out / "progress.jsonl").read_text().splitlines()) == 2
    return out


def _lines(folder: Path) -> list[str]:
    return (folder / "progress.jsonl").read_text().splitlines()


def _entry(folder: Path, index: int = 0) -> dict:
    return json.loads(_lines(folder)[index])


def _with_first_line(folder: Path, line: str | bytes) -> None:
    """Replace the first line of the resume file (the second stays valid)."""
    second = _lines(folder)[1].encode()
    first = line.encode() if isinstance(line, str) else line
    (folder / "progress.jsonl").write_bytes(first + b"\n" + second + b"\n")


def _row_changed(folder: Path, **values) -> str:
    entry = _entry(folder)
    entry["rows"][0].update(values)
    return json.dumps(entry)


def _damage(kind: str, folder: Path) -> None:
    """Damage ``folder/progress.jsonl`` in one of the ways a file can be damaged or crafted."""
    progress = folder / "progress.jsonl"
    key = _entry(folder)["key"]
    if kind == "truncated line":
        text = progress.read_text()
        progress.write_text(text[: len(text) - 40])  # the last line cut short, no newline
    elif kind == "bad UTF-8":
        _with_first_line(folder, b'{"key": "\xff\xfe", "rows": []}')
    elif kind == "NUL bytes":
        _with_first_line(folder, b"\0" * 64)
        with progress.open("ab") as out:
            out.write(b"\0" * 4096)  # what a crash of the file system can leave at the end
    elif kind == "FIFO":
        progress.unlink()
        os.mkfifo(progress)
    elif kind == "directory":
        progress.unlink()
        progress.mkdir()
    elif kind == "/dev/zero symlink":
        progress.unlink()
        progress.symlink_to("/dev/zero")
    elif kind == "symlink to a user's file":
        (folder / "thesis.txt").write_text("my thesis\n")
        progress.unlink()
        progress.symlink_to(folder / "thesis.txt")
    elif kind == "huge file":
        with progress.open("r+b") as out:
            out.truncate(300 * 2**20)  # sparse: large to the reader, nothing on the disk
    elif kind == "non-object JSON":
        _with_first_line(folder, "[1, 2, 3]")
    elif kind == "missing key":
        entry = _entry(folder)
        del entry["key"]
        _with_first_line(folder, json.dumps(entry))
    elif kind == "key not a string":
        _with_first_line(folder, json.dumps({"key": 7, "rows": _entry(folder)["rows"]}))
    elif kind == "rows not a list":
        _with_first_line(folder, json.dumps({"key": key, "rows": {"winner": "red"}}))
    elif kind == "row values nested objects":
        _with_first_line(folder, _row_changed(folder, winner={"$eval": "os.system('x')"}))
    elif kind == "5000-digit numbers":
        _with_first_line(folder, _row_changed(folder, plies=0).replace('"plies": 0', '"plies": ' + "9" * 5000))
    elif kind == "100-digit numbers":
        _with_first_line(folder, _row_changed(folder, red_nodes=10**100))
    elif kind == "deep nesting":
        _with_first_line(folder, '{"key": "k", "rows": ' + "[" * 100_000 + "]" * 100_000 + "}")
    elif kind == "lone surrogate":
        _with_first_line(folder, _row_changed(folder, moves="\ud800"))  # no UTF-8 for rows.csv
    elif kind == "row missing a field":
        entry = _entry(folder)
        del entry["rows"][0]["winner"]
        _with_first_line(folder, json.dumps(entry))  # plain data, once a KeyError in the summary
    elif kind == "row of another game":
        _with_first_line(folder, _row_changed(folder, red="minimax:depth=9", winner="red"))
    elif kind == "outcome not known":
        _with_first_line(folder, _row_changed(folder, winner="nobody"))
    elif kind == "empty file":
        progress.write_bytes(b"")
    elif kind == "byte-order mark":
        progress.write_bytes(b"\xef\xbb\xbf" + progress.read_bytes())
    else:
        raise AssertionError(kind)


#: Damage after which the run goes on: the damaged lines' tasks run again.
SKIPPED = [
    "truncated line",
    "NUL bytes",
    "non-object JSON",
    "missing key",
    "key not a string",
    "rows not a list",
    "row values nested objects",
    "5000-digit numbers",
    "100-digit numbers",
    "deep nesting",
    "lone surrogate",
    "row missing a field",
    "row of another game",
    "outcome not known",
]
#: Damage the run cannot read past: one error naming the file.
REFUSED = ["bad UTF-8", "FIFO", "directory", "/dev/zero symlink", "symlink to a user's file", "huge file"]
#: Files that are fine as they are.
CLEAN = ["empty file", "byte-order mark"]


@pytest.mark.timeout(60)  # a FIFO opened for reading would wait for a writer for ever
@pytest.mark.parametrize("kind", SKIPPED + REFUSED + CLEAN)
def test_every_kind_of_damage_is_a_clean_run_or_one_clear_line(cli, finished, tmp_path, kind) -> None:
    folder = tmp_path / "run"
    shutil.copytree(finished, folder)
    _damage(kind, folder)
    status, out, err = cli([*TOURNAMENT, "--no-progress", "--out", str(folder)])
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    if kind in REFUSED:
        assert status == 2 and len(lines) == 1, err
        assert lines[0].startswith("error: resume file ") and str(folder / "progress.jsonl") in lines[0]
        assert "--restart" in lines[0]
        if kind == "symlink to a user's file":
            assert (folder / "thesis.txt").read_text() == "my thesis\n"  # never appended to
        return
    assert status == 0, err
    if kind in SKIPPED:
        assert len(lines) == 1 and lines[0].startswith("warning: resume file ") and "damaged line" in lines[0]
        assert str(folder / "progress.jsonl") in lines[0]
    else:
        assert lines == []
    assert "elo" in out
    # The damaged game was played again; the table has both games; the file reads back whole.
    rows = (folder / "games.csv").read_text().splitlines()
    assert len(rows) == 3
    assert len(Checkpoint(folder / "progress.jsonl").rows) == 2


def test_restart_clears_a_damaged_resume_file(cli, finished, tmp_path) -> None:
    folder = tmp_path / "run"
    shutil.copytree(finished, folder)
    _damage("bad UTF-8", folder)
    status, _, err = cli([*TOURNAMENT, "--no-progress", "--out", str(folder), "--restart"])
    assert status == 0 and err == ""
    assert len(_lines(folder)) == 2


def test_a_resumed_line_after_a_cut_line_starts_on_its_own_line(tmp_path) -> None:
    path = tmp_path / "progress.jsonl"
    path.write_text('{"key": "a", "rows": [{"n": 1}]}\n{"key": "b", "ro')  # killed in the middle of a line
    store = Checkpoint(path)
    assert store.rows == {"a": [{"n": 1}]} and store.damaged == 1
    store.add("c", [{"n": 3}])
    again = Checkpoint(path)
    assert again.rows == {"a": [{"n": 1}], "c": [{"n": 3}]} and again.damaged == 1


def test_the_rows_a_worker_sends_back_are_checked_as_plain_data(tmp_path) -> None:
    class Sneaky:
        key = "sneaky"

        def run(self):
            return [{"n": object()}]

    class Fine:
        key = "fine"

        def run(self):
            return {"n": 1, "share": 0.5, "name": "x", "ok": True, "none": None}

    with ThreadPoolExecutor(1) as executor, pytest.raises(RowError, match="not plain data"):
        run_tasks([Fine(), Sneaky()], executor=executor, checkpoint=tmp_path / "p.jsonl", progress=False)
    assert list(Checkpoint(tmp_path / "p.jsonl").rows) == ["fine"]  # what came back plain is kept


def test_a_worker_that_sends_rows_of_another_game_is_stopped() -> None:
    task = GameTask("random", "greedy", cols=4, rows=4, seed=3)
    row = task.run()
    assert task.fits([row])
    liar = {**row, "yellow": "perfect"}

    class Lying:
        key = task.key

        def run(self):
            return liar

        def fits(self, rows):
            return task.fits(rows)

    with ThreadPoolExecutor(1) as executor, pytest.raises(RowError, match="not the rows of that task"):
        run_tasks([Lying()], executor=executor, progress=False)


# ---- fuzz: any bytes around valid lines ------------------------------------------------------------

texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)  # (a lone surrogate is no text)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(allow_nan=False), texts)
rows_strategy = st.lists(st.dictionaries(texts, scalars, max_size=5), max_size=3)
#: Valid entries: keys "v:..." (damage never makes one of those).
entries = st.lists(
    st.tuples(texts.map(lambda key: "v:" + key), rows_strategy), max_size=6, unique_by=lambda entry: entry[0]
)


def _truncated(entry: tuple[str, list]) -> st.SearchStrategy[bytes]:
    line = json.dumps({"key": entry[0], "rows": entry[1]}).encode()
    return st.integers(0, len(line) - 1).map(lambda cut: line[:cut])


json_values = st.recursive(
    scalars | st.just(float("nan")) | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)
damage = st.one_of(
    st.binary(max_size=40),
    st.text(max_size=40).map(str.encode),
    json_values.map(lambda value: json.dumps(value).encode()),
    # Entries of their own (keys "d:..."), valid or not: a later run of a task of that key would take them.
    st.tuples(st.text(max_size=6), json_values).map(
        lambda kv: json.dumps({"key": "d:" + kv[0], "rows": kv[1]}).encode()
    ),
    entries.flatmap(lambda es: _truncated(es[0]) if es else st.just(b"")),
)


@st.composite
def resume_files(draw) -> tuple[bytes, dict[str, list]]:
    """A resume file: valid lines (with their keys and rows) among damaged ones, maybe cut at the end."""
    valid = draw(entries)
    parts: list[bytes] = []
    for key, rows in valid:
        parts += draw(st.lists(damage, max_size=2))
        parts.append(json.dumps({"key": key, "rows": rows}).encode())
    parts += draw(st.lists(damage, max_size=2))
    data = b"\n".join(parts) + draw(st.sampled_from([b"\n", b""]))
    if draw(st.booleans()):
        data += b"\n" + draw(damage)  # a line cut by a kill at the very end
    return data, dict(valid)


def _check_resume_file(data: bytes, valid: dict[str, list], folder: Path) -> None:
    path = folder / "progress.jsonl"
    path.write_bytes(data)
    try:
        data.decode("utf-8")
        readable = True
    except UnicodeDecodeError:
        readable = False
    try:
        store = Checkpoint(path)
    except FileProblem as exc:
        assert not readable, exc  # only a file that is not text is refused
        assert str(path) in str(exc)
        event("refused: not UTF-8")
        return
    assert readable
    event("read, with damaged lines skipped" if store.damaged else "read, no damaged line")
    damaged_valid = {key: rows for key, rows in valid.items() if not _plain(rows)}
    for key, rows in valid.items():
        if key not in damaged_valid:
            assert store.rows.get(key) == rows  # a valid row is never lost
    store.add("\0new", [{"n": 1}])  # an append after any damage reads back, and loses nothing
    again = Checkpoint(path)
    assert again.rows["\0new"] == [{"n": 1}]
    assert {key: again.rows.get(key) for key in store.rows} == store.rows


def _plain(rows: list) -> bool:
    try:
        return plain_rows(rows) == rows
    except RowError:
        return False


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(resume_files())
def test_fuzzed_resume_files_lose_no_valid_row(case) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _check_resume_file(*case, Path(folder))


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(resume_files())
def test_fuzzed_resume_files_lose_no_valid_row_many(case) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _check_resume_file(*case, Path(folder))


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_plain_rows_takes_plain_rows_and_refuses_the_rest(value) -> None:
    try:
        rows = plain_rows(value)
    except RowError:
        assert not (
            isinstance(value, list)
            and all(
                isinstance(row, dict) and all(_encodable(k) and _scalar(v) for k, v in row.items()) for row in value
            )
        )
    else:
        assert json.dumps(rows, sort_keys=True) == json.dumps(value, sort_keys=True)


def _scalar(value) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return value.bit_length() <= 64
    if isinstance(value, str):
        return _encodable(value)
    return value is None or isinstance(value, bool | float)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
