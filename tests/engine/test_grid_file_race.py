"""read_grid_file opens once and never waits: a path swapped to a FIFO between reads never hangs it."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from engine.errors import PositionError
from engine.grid_file import read_grid_file

GRID = "- - - -\n- - - -\n- - - -\nX O - -\n"


def test_a_path_swapped_between_a_grid_and_a_fifo_never_hangs_a_read(tmp_path: Path) -> None:
    path, grid, fifo = tmp_path / "shared.txt", tmp_path / "grid.txt", tmp_path / "fifo"
    grid.write_text(GRID)
    stop = threading.Event()

    def swap() -> None:  # the attacker: the name points at the grid, then at a FIFO with no writer, ...
        while not stop.is_set():
            for source in (grid, fifo):
                if source is fifo and not fifo.exists():
                    os.mkfifo(fifo)
                os.link(source, tmp_path / "next")
                os.replace(tmp_path / "next", path)

    outcomes = {"grid": 0, "refused": 0}

    def read_many() -> None:
        for _ in range(2000):
            try:
                read_grid_file(path)
                outcomes["grid"] += 1
            except PositionError as exc:
                assert "not a regular file" in str(exc) or "no such file" in str(exc), exc
                outcomes["refused"] += 1

    swapper, reader = threading.Thread(target=swap, daemon=True), threading.Thread(target=read_many, daemon=True)
    swapper.start()
    reader.start()
    reader.join(timeout=120)  # a read that waited for a FIFO's writer would never end
    stop.set()
    assert not reader.is_alive(), f"a read hung after {outcomes}"
    assert outcomes["grid"] + outcomes["refused"] == 2000 and outcomes["grid"] and outcomes["refused"]
