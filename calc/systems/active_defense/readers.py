"""Active Defense's number formatting and the dice its rules roll (with the natural-roll substitution)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from calc.inputs.data import SystemData
from calc.numbers.dist import Dist


def num(value: int | Fraction) -> str:
    """A whole number as is, anything else to two decimals (trailing zeros dropped); true minus."""
    if isinstance(value, int) or value.denominator == 1:
        text = str(int(value))
    else:
        text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text.replace("-", "−")


def plus(value: int) -> str:
    """`+ 2` or `− 2`, to follow another number in a sum."""
    return f"− {-value}" if value < 0 else f"+ {value}"


def natural_map(data: SystemData) -> Callable[[int], int]:
    """Face → value counted: the natural-rolls rule (natural 20 counts as 30, natural 1 as −10)."""
    high, high_as = data.fact("natural-rolls", "high_face"), data.fact("natural-rolls", "high_counts_as")
    low, low_as = data.fact("natural-rolls", "low_face"), data.fact("natural-rolls", "low_counts_as")
    return lambda face: high_as if face == high else (low_as if face == low else face)


def attack_die(data: SystemData) -> Dist:
    """The attack d20 with the natural-roll substitution applied."""
    return Dist.die(data.die_sides("attack-roll", "die")).map(natural_map(data))
