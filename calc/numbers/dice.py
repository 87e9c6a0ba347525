"""Dice expressions typed by users: `2d8+1d6+3`, `d20`, `3d6-2`.

The grammar is deliberately small (sums and differences of `NdS` terms and whole numbers), and
limits keep every request fast: a refused expression names the limit it broke.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from calc.errors import InputError
from calc.numbers.dist import Dist

MAX_DICE = 100
"""Most dice in one expression, over all its terms."""
MAX_SIDES = 1000
"""Most sides of one die."""
MAX_TOTALS = 2001
"""Most different totals one expression can produce (e.g. 100d20 has 1,901; 2d1000 has 1,999)."""
MAX_MODIFIER = 10000
"""Largest whole number allowed as a term."""
MAX_LENGTH = 200
"""Longest expression text accepted."""

_SIGN = re.compile(r"\s*([+-])\s*")
_ATOM = re.compile(r"([0-9]*)[dD]([0-9]+)|([0-9]+)")  # ASCII digits: `\d` also matches '٣', '৩'…
_SPACE = re.compile(r"\s*")


@dataclass(frozen=True)
class DiceTerm:
    """`count` dice of `sides` sides, added (sign +1) or subtracted (sign −1)."""

    sign: int
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: dice terms plus a whole-number modifier."""

    terms: tuple[DiceTerm, ...]
    modifier: int = 0

    @property
    def dice(self) -> int:
        """How many dice are rolled in all."""
        return sum(t.count for t in self.terms)

    @property
    def min(self) -> int:
        return self.modifier + sum(t.count if t.sign > 0 else -t.count * t.sides for t in self.terms)

    @property
    def max(self) -> int:
        return self.modifier + sum(t.count * t.sides if t.sign > 0 else -t.count for t in self.terms)

    def dice_dist(self) -> Dist:
        """The distribution of the dice alone, without the modifier."""
        total = Dist.constant(0)
        for t in self.terms:
            rolled = Dist.dice(t.count, t.sides)
            total = total + rolled if t.sign > 0 else total - rolled
        return total

    @cached_property
    def _dist(self) -> Dist:
        return self.dice_dist() + self.modifier

    def dist(self) -> Dist:
        """The exact distribution of the expression's total."""
        return self._dist

    def scaled(self, factor: int) -> DiceExpr:
        """The same expression with every dice count multiplied (power attack rolls dice twice)."""
        return DiceExpr(tuple(DiceTerm(t.sign, t.count * factor, t.sides) for t in self.terms), self.modifier)

    def plus(self, modifier: int) -> DiceExpr:
        return DiceExpr(self.terms, self.modifier + modifier)

    def __str__(self) -> str:
        parts = []
        for t in self.terms:
            parts.append(("-" if t.sign < 0 else "+") + str(t))
        if self.terms and self.terms[0].sign < 0:  # `10-1d6`, never `-1d6+10`, which `parse` refuses
            parts.insert(0, f"{self.modifier:+d}")
        elif self.modifier or not parts:
            parts.append(f"{self.modifier:+d}")
        text = "".join(parts)
        return text.removeprefix("+")


@dataclass(frozen=True)
class Rolled(DiceExpr):
    """An expression whose dice are already rolled (the tracker's Resolve): the engines' damage
    code runs on it unchanged and gets one total. Its dice total `rolled` (each face added or
    subtracted as its term says) stands for `dice_dist()`; its range (`min`, `max`) stays the
    expression's, as a rule reading "the least the dice can roll" means."""

    rolled: int = 0

    def dice_dist(self) -> Dist:
        return Dist.constant(self.rolled)

    def plus(self, modifier: int) -> DiceExpr:
        return Rolled(self.terms, self.modifier + modifier, self.rolled)

    def scaled(self, factor: int) -> DiceExpr:
        raise ValueError("rolled dice cannot be rolled more times: roll the scaled expression instead")

    def __str__(self) -> str:
        return f"{DiceExpr(self.terms, self.modifier)} (rolled {self.rolled})"


def rolled(expr: DiceExpr, faces: object, input: str) -> Rolled:
    """`expr` with its dice showing `faces` (one whole number per die, in the order of its terms),
    or an `InputError` naming `input`: a wrong count, or a face the die does not have."""
    if not isinstance(faces, list) or len(faces) != expr.dice:
        got = len(faces) if isinstance(faces, list) else "not a list"
        raise InputError(input, f"must be {expr.dice} face(s), one per die of {DiceExpr(expr.terms)} (got {got})")
    total, at = 0, 0
    for t in expr.terms:
        for face in faces[at : at + t.count]:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= t.sides:
                raise InputError(input, f"{face!r} is not a face of a d{t.sides} (1 to {t.sides})")
            total += t.sign * face
        at += t.count
    return Rolled(expr.terms, expr.modifier, total)


def parse(text: str, input: str = "dice", example: str = "2d6+1") -> DiceExpr:
    """Parse a dice expression, or raise `InputError` naming `input` and what is wrong.

    Accepts terms `NdS` or `dS` (N defaults to 1) and whole numbers, joined by `+` or `-`,
    with spaces anywhere; `D` and `d` alike. `example` is shown in the errors (an input passes its
    own default, so the example fits it).
    """
    if not isinstance(text, str):
        raise InputError(input, f"must be a dice expression such as {example}")
    if len(text) > MAX_LENGTH:
        raise InputError(input, f"is longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise InputError(input, f"is empty: enter a dice expression such as {example}")
    pos = _SPACE.match(text).end()
    terms: list[DiceTerm] = []
    modifier = 0
    first = True
    while pos < len(text):
        sign_match = _SIGN.match(text, pos)
        sign = 1
        if sign_match:
            sign = -1 if sign_match.group(1) == "-" else 1
            pos = sign_match.end()
        m = _ATOM.match(text, pos)
        if not m:
            raise _unreadable(text, pos, input)
        if m.group(2) is not None and sign < 0 and first:
            # `-1d8` reads as a negative roll, never a weapon's damage: most likely a stray minus.
            raise InputError(
                input,
                f"starts with a minus before '{m.group(0)}': a dice expression cannot begin by subtracting dice "
                f"(write {m.group(0)}, or a number first such as 10-{m.group(0)})",
            )
        if m.group(2) is not None:
            count = int(m.group(1)) if m.group(1) else 1
            sides = int(m.group(2))
            if count < 1:
                raise InputError(input, f"'{m.group(0)}' rolls no dice: the count must be at least 1")
            if sides < 1:
                raise InputError(input, f"'{m.group(0)}': a die needs at least 1 side")
            if sides > MAX_SIDES:
                raise InputError(input, f"'{m.group(0)}' has more than the limit of {MAX_SIDES} sides per die")
            terms.append(DiceTerm(sign, count, sides))
        else:
            value = int(m.group(3))
            if value > MAX_MODIFIER:
                raise InputError(input, f"the number {value} is above the limit of {MAX_MODIFIER}")
            modifier += sign * value
        first = False
        pos = _SPACE.match(text, m.end()).end()
        if pos < len(text) and not _SIGN.match(text, pos):
            raise _unreadable(text, pos, input)
    expr = DiceExpr(tuple(terms), modifier)
    if expr.dice > MAX_DICE:
        raise InputError(input, f"rolls {expr.dice} dice; the limit is {MAX_DICE} dice")
    totals = expr.max - expr.min + 1
    if totals > MAX_TOTALS:
        raise InputError(
            input, f"can total {totals:,} different values; the limit is {MAX_TOTALS:,} (use fewer or smaller dice)"
        )
    return expr


def _unreadable(text: str, pos: int, input: str) -> InputError:
    shown = text[pos : pos + 12]
    if not shown:
        return InputError(input, "ends with + or -: add a term such as 2 or 1d6 after it")
    return InputError(
        input, f"cannot read '{shown}' at position {pos + 1}: use terms like 2d6, d20 or 3 joined by + or -"
    )
