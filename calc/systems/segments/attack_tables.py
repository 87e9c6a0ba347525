"""Attack tables read through AAC0: one number per table, every cell from the six-20s formula, and
the lookups that find a creature's AAC0 (class group and level, or monster hit dice with enhanced
hit dice). All numbers come from the segments data; nothing here is a rule constant."""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any

from calc.answers.format import number as minus
from calc.answers.format import signed
from calc.errors import DataError, InputError
from calc.inputs.data import SystemData

STAR = "*"


def band(lo: int | None, hi: int | None) -> str:
    """A level or hit-dice band as the site writes ranges: 1–2, 17+, 0, 3 or less."""
    if lo is None:
        return f"{minus(hi)} or less"
    if hi is None:
        return f"{minus(lo)}+"
    return minus(lo) if lo == hi else f"{minus(lo)}–{minus(hi)}"


def in_range(value: int, rng: dict[str, int | None] | None) -> bool:
    """Is `value` inside a {min, max} range (either end open when null; a null range holds all)?"""
    if rng is None:
        return True
    lo, hi = rng["min"], rng["max"]
    return (lo is None or value >= lo) and (hi is None or value <= hi)


@dataclass(frozen=True)
class AttackTable:
    """The attack table of one AAC0 ("20", "20*", "7"), under the chosen readings of the rulings."""

    aac0: str
    star_reading: str = "aac0-21"  # twenty-star ruling | "extra-twenty"
    table_cap: str = "formula"  # attack-table-formula ruling | "modified-20"

    def needs(self, ac: int, data: SystemData) -> int:
        """The modified d20 score this table asks to hit descending AC `ac`."""
        top = data.fact("six-twenties", "top")
        repeats = data.fact("six-twenties", "repeats")
        base, star = parse_aac0(self.aac0)
        extra_twenty = False
        if star:
            if base != top:
                raise DataError(f"segments: AAC0 '{self.aac0}': only {top}{STAR} has a meaning")
            if self.star_reading == "extra-twenty":
                extra_twenty = True
            else:
                base = data.fact("aac0", "star_value")
        r = base - ac
        if r <= top:
            need = r
        elif r <= top + repeats - 1:
            need = top
        else:
            need = r - (repeats - 1)
        if extra_twenty and ac == data.fact("aac0", "reference_ac") + 1:
            need = top
        if self.table_cap == "modified-20":
            need = min(need, top)
        return need


def parse_aac0(text: str) -> tuple[int, bool]:
    """ "20*" → (20, True); "16" → (16, False)."""
    text = str(text).strip()
    star = text.endswith(STAR)
    digits = text.removesuffix(STAR)
    try:
        return int(digits), star
    except ValueError:
        raise DataError(f"segments: '{text}' is not an AAC0") from None


def ac_columns(data: SystemData) -> list[int]:
    """The ACs of an attack table's columns, worst first (10 … −10)."""
    scale = data.fact("armor-class", "scale")
    return list(range(scale["max"], scale["min"] - 1, -1))


# --- class attack tables ----------------------------------------------------------------------------
def class_groups(data: SystemData) -> list[dict[str, Any]]:
    return data.table("class-groups")


def group_name(group: str, data: SystemData) -> str:
    for row in class_groups(data):
        if row["id"] == group:
            return row["name"]
    raise InputError("class_group", f"unknown class group '{group}'")


def class_bands(group: str, data: SystemData) -> list[dict[str, Any]]:
    """The level bands of a class group, in level order."""
    return [row for row in data.table("class-aac0") if row["group"] == group]


def class_aac0(group: str, level: int, data: SystemData) -> str:
    """The AAC0 of a class group at a level, or an InputError naming `level`."""
    bands = class_bands(group, data)
    for row in bands:
        if in_range(level, row["levels"]):
            return row["aac0"]
    first = min(row["levels"]["min"] for row in bands)
    raise InputError("level", f"the {group_name(group, data)} table starts at level {first} (got {level})")


# --- monsters and enhanced hit dice -----------------------------------------------------------------
@dataclass(frozen=True)
class HitDice:
    """A creature's hit dice as written, `dice`+`bonus` (5+5, 1-1, 4)."""

    dice: int
    bonus: int = 0

    def __str__(self) -> str:
        return f"{self.dice}{signed(self.bonus).replace('−', '-')}" if self.bonus else str(self.dice)

    def attack(self, data: SystemData) -> HitDice:
        """The hit dice it attacks with: +1..+3 keeps its "+" column, +4 or more adds one die (at most)."""
        if self.bonus > data.fact("enhanced-hit-dice", "attack_plus_max"):
            return HitDice(self.dice + data.fact("enhanced-hit-dice", "attack_extra_hd"), 0)
        return self

    def saves(self, data: SystemData) -> int:
        """Saving-throw (and overall) hit dice: one more die per started step of bonus, no cap."""
        if self.bonus <= 0:
            return self.dice
        return self.dice + ceil(self.bonus / data.fact("enhanced-hit-dice", "save_step"))

    def hit_points(self, data: SystemData) -> str:
        """The hit points as dice: the bonus is added per die (4+4 → 4d8+16)."""
        die = data.fact("enhanced-hit-dice", "hit_die")
        extra = self.dice * self.bonus
        text = f"{self.dice}{die}"
        return f"{text}+{extra}" if extra > 0 else (f"{text}-{-extra}" if extra < 0 else text)


def monster_column(hd: HitDice, data: SystemData) -> dict[str, Any]:
    """The Monster Attack Table column (row of `monster-aac0`) a creature attacks on."""
    attack = hd.attack(data)
    for row in data.table("monster-aac0"):
        if in_range(attack.dice, row["hd"]) and in_range(attack.bonus, row["bonus"]):
            return row
    raise InputError("hd", f"no Monster Attack Table column for {hd} hit dice")


def save_row(hd: HitDice, data: SystemData) -> dict[str, Any]:
    """The Monster Save Table row of a creature's saving-throw hit dice."""
    saves = hd.saves(data)
    for row in data.table("monster-save-table"):
        if in_range(saves, row["hd"]):
            return row
    raise InputError("hd", f"no Monster Save Table row for {saves} hit dice")


def save_label(row: dict[str, Any]) -> str:
    """A save row named the way the source names it: 7-8, 19+, 0."""
    lo, hi = row["hd"]["min"], row["hd"]["max"]
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}-{hi}"
