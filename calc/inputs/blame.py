"""Naming the input to reduce when a request is refused for its cost.

`calc.numbers.bounds` refuses a request where its cost is known, often deep in the arithmetic
where no input's name is at hand; which input drove it is read from the calculator's declarations,
so that idea lives here with the inputs (and the numbers never import the inputs).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from calc.errors import InputError
from calc.numbers import dice
from calc.numbers.bounds import CostError


def blame(err: CostError, declarations: list[dict], values: Mapping[str, Any]) -> CostError:
    """`err` with its `input` named from the calculator's declaration when the code that refused
    the request could not name it: for "dice", the dice input (or list entry's dice) rolling the
    largest dice, for "hp", the target's hit points (the first integer input of the target whose
    name ends in `hp`); otherwise left as it is."""
    if err.input is not None:
        return err
    found = _largest_dice(declarations, values) if err.reduce == "dice" else _hit_points(declarations)
    if found is None and err.reduce == "hp":
        found = _largest_dice(declarations, values)
    if found is None:
        return err
    named = CostError(found, err.reason, err.reduce)
    named.__cause__ = err
    return named


def _weight_digits(expr: Any) -> float:
    """log10 of how many equally likely rolls a dice expression has (its denominator)."""
    return sum(t.count * math.log10(t.sides) for t in getattr(expr, "terms", ()))


def _largest_dice(declarations: list[dict], values: Mapping[str, Any]) -> str | None:
    best: tuple[float, str] | None = None
    for where, expr in _dice_values(declarations, values):
        size = _weight_digits(expr)
        if best is None or size > best[0]:
            best = (size, where)
    return best[1] if best else None


def _dice_values(declarations: list[dict], values: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
    for decl in declarations:
        value = values.get(decl["name"])
        if decl["type"] == "dice" and value is not None:
            yield decl["name"], value
        if decl["type"] == "list" and isinstance(value, list):
            for field in decl["fields"]:
                if field["type"] != "dice" and field["name"] != "dice":
                    continue
                for i, entry in enumerate(value, start=1):
                    text = entry.get(field["name"])
                    try:
                        parsed = text if isinstance(text, dice.DiceExpr) else dice.parse(str(text))
                    except InputError:
                        continue
                    yield f"{decl['name']}[{i}].{field['name']}", parsed


def _hit_points(declarations: list[dict]) -> str | None:
    for decl in declarations:
        if decl["type"] == "integer" and decl.get("role") == "target" and decl["name"].endswith("hp"):
            return decl["name"]
    return None
