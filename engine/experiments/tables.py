"""Rows out: CSV files and Markdown tables."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.files import write_atomic


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """The raw rows, one per game or measurement, columns in first-seen order (UTF-8, replaced in one step)."""
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=list(columns))
    writer.writeheader()
    writer.writerows(rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text.getvalue())


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], right: Sequence[bool] | None = None) -> str:
    """A GitHub Markdown table; numbers are right-aligned unless ``right`` says otherwise."""
    if right is None:
        right = [bool(rows) and all(isinstance(row[i], int | float) for row in rows) for i in range(len(headers))]
    lines = [
        "| " + " | ".join(str(h) for h in headers) + " |",
        "| " + " | ".join("---:" if r else "---" for r in right) + " |",
    ]
    lines += ["| " + " | ".join(_cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)


def scientific(value: float, digits: int = 3) -> str:
    """``4.53e12``: ``digits`` significant digits, a plain exponent (no ``+``, no leading zero)."""
    mantissa, _, exponent = f"{value:.{digits - 1}e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.3g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value).replace("|", "\\|")
