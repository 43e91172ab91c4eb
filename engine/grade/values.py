"""Reading what a student's function returned, as the grading child encodes it (:func:`engine.grade.child.encode`).

Every value arrives with its type (``{"int": 3, "type": "int64"}``), so a
check can tell ``True`` from ``1`` and a copy from the board it was given, and
say in a message what came back (:func:`shown`) without running any of it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def integer(value: Any) -> int | None:
    """The whole number ``value`` holds (a Python or numpy int, never a bool), else None."""
    if isinstance(value, dict) and "int" in value and isinstance(value["int"], int):
        return int(value["int"])
    return None


def number(value: Any) -> float | None:
    """An int or a float (``inf`` included), else None."""
    whole = integer(value)
    if whole is not None:
        return whole
    if isinstance(value, dict) and "float" in value:
        raw = value["float"]
        return float(raw) if isinstance(raw, int | float | str) else None
    return None


def truth(value: Any) -> bool | None:
    """True or False (a Python or numpy bool), else None."""
    if isinstance(value, dict) and "bool" in value:
        return bool(value["bool"])
    return None


def text(value: Any) -> str | None:
    if isinstance(value, dict) and "str" in value and isinstance(value["str"], str):
        return value["str"]
    return None


def items(value: Any) -> list[Any] | None:
    """The encoded items of a list or tuple, else None."""
    if isinstance(value, dict):
        for kind in ("list", "tuple"):
            if isinstance(value.get(kind), list):
                return list(value[kind])
    return None


def array(value: Any) -> np.ndarray | None:
    """An array the student returned (a numpy array, or a list of lists of numbers or characters), else None."""
    if isinstance(value, dict) and "array" in value:
        try:
            return np.array(value["array"])
        except ValueError:
            return None
    rows = items(value)
    if rows is None:
        return None
    cells = [items(row) for row in rows]
    if any(row is None for row in cells):
        return _flat(rows)
    grid = [[_scalar(cell) for cell in row] for row in cells]  # type: ignore[union-attr]
    if any(cell is None for row in grid for cell in row) or len({len(row) for row in grid}) > 1:
        return None
    return np.array(grid)


def _flat(cells: list[Any]) -> np.ndarray | None:
    values = [_scalar(cell) for cell in cells]
    return None if any(v is None for v in values) else np.array(values)


def _scalar(value: Any) -> Any:
    for read in (integer, number, text):
        found = read(value)
        if found is not None:
            return found
    return None


def columns(value: Any) -> list[int] | None:
    """A sequence of whole numbers (a list, a tuple, a 1-D array), else None."""
    if isinstance(value, dict) and "array" in value:
        found = array(value)
        if found is None or found.ndim != 1 or found.dtype.kind not in "iu":
            return None if found is None or found.size else []
        return [int(c) for c in found]
    cells = items(value)
    if cells is None:
        return None
    whole = [integer(cell) for cell in cells]
    return [c for c in whole if c is not None] if all(c is not None for c in whole) else None


def shown(value: Any) -> str:
    """What came back, for a message: ``7``, ``True``, ``(10, 2)``, ``a copy of the board``, ``None``."""
    if value is None:
        return "None"
    if not isinstance(value, dict):
        return "something unreadable"
    if "bool" in value:
        return str(bool(value["bool"]))
    if "int" in value:
        return str(value["int"])
    if "float" in value:
        raw = value["float"]
        number = float(raw)
        return str(raw) if not math.isfinite(number) else f"{number:g}"
    if "str" in value:
        return repr(value["str"])
    for kind, ends in (("tuple", "()"), ("list", "[]")):
        if kind in value:
            inner = ", ".join(shown(item) for item in value[kind][:8])
            more = ", ..." if len(value[kind]) > 8 else ""
            return f"{ends[0]}{inner}{more}{ends[1]}" if kind == "list" or len(value[kind]) != 1 else f"({inner},)"
    if "array" in value:
        shape = "x".join(str(n) for n in value.get("shape", []))
        return f"a {shape} array" if shape else "an array"
    if "object" in value:
        return f"an object of class {value['object']}"
    if "other" in value:
        return f"an object of type {value['other']}"
    return "something unreadable"


def type_name(value: Any) -> str:
    """The Python type the student returned: ``int``, ``numpy.int64``, ``tuple``, ``NoneType``."""
    if value is None:
        return "NoneType"
    if isinstance(value, dict):
        for kind in ("bool", "int", "float"):
            if kind in value:
                name = str(value.get("type", kind))
                return name if name in ("bool", "int", "float") else f"numpy.{name}"
        for kind in ("str", "tuple", "list", "dict"):
            if kind in value:
                return kind
        if "array" in value:
            return "numpy.ndarray"
        if "object" in value:
            return str(value["object"])
        if "other" in value:
            return str(value["other"])
    return "?"
