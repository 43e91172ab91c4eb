"""Charts as PNG files: matplotlib with the Agg backend (no display needed).

Every chart has a title, axis labels with units and a legend where there is
more than one series; the helpers here keep that consistent across studies.
matplotlib is imported on first use, so that ``python -m engine`` starts fast.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from engine.files import write_atomic

DPI = 110


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend: files only, never a window, fine on a headless machine."""
    from engine.optional import require

    require("matplotlib", "studies", "a chart").use("Agg")
    import matplotlib.pyplot as plt

    return plt


def new_figure(width: float = 8.0, height: float = 5.0, columns: int = 1) -> tuple[Any, list[Any]]:
    """A figure with ``columns`` side-by-side axes."""
    figure, axes = pyplot().subplots(1, columns, figsize=(width, height), squeeze=False)
    return figure, list(axes[0])


def save(figure: Any, path: Path) -> Path:
    """Write the PNG (replacing the file in one step: a killed run never leaves half a chart) and free the figure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    image = io.BytesIO()
    figure.savefig(image, dpi=DPI, format="png")
    pyplot().close(figure)
    write_atomic(path, image.getvalue())
    return path


def decorate(axis: Any, xlabel: str, ylabel: str, title: str) -> None:
    """The axis labels (with their units), the title and a light grid every line chart has."""
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.set_title(title)
    axis.grid(True, alpha=0.3)


#: Columns of a heat map past which its cells hold no figures (too narrow to read).
CROWDED = 24


def heat_map(axis, values, row_labels, column_labels, title: str, colour_label: str, fmt: str = "{:.2f}") -> None:
    """A matrix as coloured cells with the value written in each (NaN cells left blank)."""
    image = axis.imshow(values, cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
    slanted = max(len(str(label)) for label in column_labels) > 3
    axis.set_xticks(
        range(len(column_labels)),
        column_labels,
        rotation=35 if slanted else 0,
        ha="right" if slanted else "center",
        fontsize=min(8.0, 8 * CROWDED / len(column_labels)),
    )
    axis.set_yticks(range(len(row_labels)), row_labels, fontsize=8)
    # Many columns (a class's tournament): smaller figures without their leading zero, so that
    # neighbours do not overlap; past CROWDED columns the colour alone says it (the table has them).
    crowded = len(column_labels) > CROWDED // 2
    if len(column_labels) <= CROWDED:
        size = 7 if not crowded else max(4.0, 7 * (CROWDED // 2) / len(column_labels))
        for (i, j), value in np.ndenumerate(values):
            if not np.isnan(value):
                text = fmt.format(value)
                text = text.replace("0.", ".", 1) if crowded and text.startswith("0.") else text
                axis.text(j, i, text, ha="center", va="center", fontsize=size)
    axis.set_title(title)
    axis.figure.colorbar(image, ax=axis, label=colour_label, fraction=0.046, pad=0.04)
