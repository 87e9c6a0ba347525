"""Phases' generated tables recomputed independently of `calc.systems.phases`, straight from the
rule text and the rules notes over the exported data, as the rendered cells (strings).

`ORACLES[generator](data)` takes the system's `calc.inputs.data.SystemData` and returns the body rows.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from calc.inputs.data import SystemData

MINUS = "\N{MINUS SIGN}"


def _n(value: int) -> str:
    return MINUS + str(-value) if value < 0 else str(value)


def _plus(value: int) -> str:
    return "+" + str(value) if value >= 0 else _n(value)


def attack_target_grid(data: SystemData) -> list[list[str]]:
    """Score's attack target + the reduction of each level band (read at the band's first level)."""
    bands = data.table("level-reduction")
    return [
        [_n(row["score"])] + [_n(row["target"] + b["reduction"]) for b in bands]
        for row in data.table("ability-targets")
    ]


def defense_by_attack(data: SystemData) -> list[list[str]]:
    """Parry in melee only (ranged attacks ignore it, spells use the ranged rules); cover always."""
    rows = [[f"{r['weapon']} (parry)", _plus(r["parry"]), "+0", "+0"] for r in data.table("parry-bonuses")]
    rows += [[f"{r['name']} (cover)"] + [_plus(r["bonus"])] * 3 for r in data.table("cover-bonuses")]
    return rows


def wound_thresholds(data: SystemData) -> list[list[str]]:
    """At 0 HP, the damage below 0 is the whole blow; armour protection shifts each band up."""
    rows = []
    for armour in data.table("armour-wound-protection"):
        extra = armour["protection"]
        cells = [armour["name"]]
        for band in data.table("wound-severity"):
            lo, hi = band["damage"]["min"] + extra, band["damage"]["max"]
            if hi is None:
                cells.append(f"{lo}+")
            else:
                hi += extra
                cells.append(str(lo) if lo == hi else f"{lo}–{hi}")
        rows.append(cells)
    return rows


def morale_chances(data: SystemData) -> list[list[str]]:
    """Two six-sided dice (the morale roll of the text, 2d6): flee when the sum is above the score."""
    assert data.fact("morale", "morale_dice") == "2d6"
    sums = [a + b for a in range(1, 7) for b in range(1, 7)]
    rows = []
    for score in range(2, 13):
        fleeing = [s for s in sums if s > score]
        p = Fraction(len(fleeing), 36)
        rows.append([str(score), f"{score + 1}+" if fleeing else "never", str(p), f"{float(p) * 100:.1f}%"])
    return rows


ORACLES: dict[str, Callable[[SystemData], list[list[str]]]] = {
    "attack_target_grid": attack_target_grid,
    "defense_by_attack": defense_by_attack,
    "wound_thresholds": wound_thresholds,
    "morale_chances": morale_chances,
}
