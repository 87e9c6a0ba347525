"""Table cells by column type: what a valid cell is, and how it reads as text.

Used by the checker (a cell of the wrong type is a data problem) and by the table renderer, so a
range or a modifier is formatted one way everywhere.
"""

from __future__ import annotations

import re
from typing import Any

from calc.answers.format import number, signed

TYPES = ("int", "modifier", "range", "text", "dice", "percent", "multiplier", "flag")
DASH = "—"
_DICE = re.compile(r"^\s*[+-]?\s*(\d*[dD]\d+|\d+)(\s*[+-]\s*(\d*[dD]\d+|\d+))*\s*$")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check(kind: str, value: Any) -> str | None:
    """Why `value` is not a valid `kind` cell (None when it is; null is always an empty cell)."""
    if value is None:
        return None
    if kind in ("int", "modifier"):
        return None if _is_int(value) else f"{value!r} is not a whole number ({kind} column)"
    if kind == "percent":
        return None if _is_int(value) and 0 <= value <= 100 else f"{value!r} is not a percent 0–100"
    if kind == "multiplier":
        return None if _is_int(value) and value >= 1 else f"{value!r} is not a multiplier (whole number ≥ 1)"
    if kind == "flag":
        return None if isinstance(value, bool) else f"{value!r} is not true or false"
    if kind == "text":
        return None if isinstance(value, str | int) and not isinstance(value, bool) else f"{value!r} is not text"
    if kind == "dice":
        ok = isinstance(value, str) and _DICE.match(value)
        return None if ok else f"{value!r} is not a dice expression (like 2d6+1)"
    if kind == "range":
        ok = (
            isinstance(value, dict)
            and set(value) == {"min", "max"}
            and all(v is None or _is_int(v) for v in value.values())
            and not (value["min"] is None and value["max"] is None)
        )
        if ok and value["min"] is not None and value["max"] is not None and value["min"] > value["max"]:
            return f"range min {value['min']} is above max {value['max']}"
        return None if ok else f"{value!r} is not a range {{min, max}} (either may be null, not both)"
    return f"unknown column type '{kind}'"


def text(kind: str, value: Any) -> str:
    """The cell as shown on the page."""
    if value is None:
        return DASH
    if kind == "modifier":
        return signed(value)
    if kind == "int":
        return number(value)
    if kind == "percent":
        return f"{value}%"
    if kind == "multiplier":
        return f"×{value}"
    if kind == "flag":
        return "yes" if value else "no"
    if kind == "range":
        lo, hi = value["min"], value["max"]
        if lo is None:
            return f"{number(hi)} or less"
        if hi is None:
            return f"{number(lo)}+"
        return number(lo) if lo == hi else f"{number(lo)}–{number(hi)}"
    return str(value)
