"""The weapon an attack uses: a preset from the size × type table or the user's own numbers, with
the weapon properties (Heavy, Light, Deft, Devastating, Heartseeker) applied from their table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from calc.answers.format import signed
from calc.errors import DataError, InputError
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dice import DiceExpr

WEAPON_TABLE = "weapon-table"
PROPERTY_TABLE = "weapon-property-table"
RANK_TABLE = "dice-rank-list"
REACH_TABLE = "weapon-reach"


@dataclass(frozen=True)
class Weapon:
    """A weapon's numbers once every property is applied."""

    name: str
    dice: DiceExpr
    threshold: int
    multiplier: int
    attack: int = 0
    initiative: int = 0
    size: str | None = None
    type: str | None = None
    steps: list[dict[str, str]] = field(default_factory=list, compare=False)

    @property
    def melee(self) -> bool:
        return self.type not in (None, "ranged", "magic")


def preset(data: SystemData, weapon_id: str) -> dict[str, Any]:
    for row in data.table(WEAPON_TABLE):
        if row["id"] == weapon_id:
            return row
    raise InputError("weapon", f"no weapon preset '{weapon_id}'")


def dice_ranks(data: SystemData) -> list[DiceExpr]:
    """The dice rank list, lowest rank first."""
    rows = sorted(data.table(RANK_TABLE), key=lambda r: r["rank"])
    return [dice.parse(r["dice"], f"{RANK_TABLE}.dice") for r in rows]


def shift_rank(data: SystemData, expr: DiceExpr, steps: int, input_name: str) -> DiceExpr:
    """`expr` moved `steps` dice ranks (up when positive); refuses dice off the list or past its ends."""
    ranks = dice_ranks(data)
    keyed = [(r.terms, r.modifier) for r in ranks]
    bare = DiceExpr(expr.terms, 0)
    if (bare.terms, 0) not in keyed:
        names = ", ".join(str(r) for r in ranks)
        raise InputError(input_name, f"{bare} is not on the dice rank list ({names}), so it cannot move a rank")
    index = keyed.index((bare.terms, 0)) + steps
    if not 0 <= index < len(ranks):
        end = "lowest" if steps < 0 else "highest"
        raise InputError(input_name, f"{bare} is already the {end} dice rank the list has; there is no rank past it")
    return ranks[index].plus(expr.modifier)


def resolve(inputs: dict[str, Any], data: SystemData) -> Weapon:
    """The weapon of an attack request, with a step per decision."""
    steps = []
    if inputs["use_preset"]:
        row = preset(data, inputs["weapon"])
        expr = dice.parse(row["damage"], f"{WEAPON_TABLE}.{row['id']}.damage")
        name, threshold, multiplier = row["name"], row["threshold"], row["multiplier"]
        size, kind = row["size"], row["type"]
        steps.append(
            data.step(
                "weapons",
                f"{name}: {expr} damage, critical threshold {threshold}, ×{multiplier} (weapon table).",
            )
        )
    else:
        expr, threshold, multiplier = inputs["dice"], inputs["threshold"], inputs["multiplier"]
        name, size, kind = "Your weapon", None, None
        steps.append(data.step("weapons", f"Your weapon: {expr}, critical threshold {threshold}, ×{multiplier}."))
    attack = initiative = rank = 0
    chosen = []
    for prop in data.table(PROPERTY_TABLE):
        if not inputs.get(prop["id"]):
            continue
        chosen.append(prop)
        attack += prop["attack"]
        initiative += prop["initiative"]
        threshold += prop["threshold"]
        multiplier += prop["multiplier"]
        if prop["dice_rank"]:
            expr = shift_rank(data, expr, prop["dice_rank"], prop["id"])
            rank += prop["dice_rank"]
    if chosen:
        if multiplier < 1:
            raise DataError(f"{data.id}: weapon properties leave a critical multiplier below 1")
        names = ", ".join(p["name"] for p in chosen)
        parts = [f"damage {expr}"] if rank else []
        if attack:
            parts.append(f"{signed(attack)} to attack")
        if initiative:
            parts.append(f"{signed(initiative)} initiative")
        parts.append(f"critical threshold {threshold}, ×{multiplier}")
        steps.append(data.step("weapon-properties", f"{names}: {', '.join(parts)}."))
    return Weapon(name, expr, threshold, multiplier, attack, initiative, size, kind, steps)


def reach_of(data: SystemData, weapon: Weapon) -> int | None:
    """The optional reach of a melee weapon from its size, or None for ranged, magic or own weapons."""
    if not weapon.melee:
        return None
    for row in data.table(REACH_TABLE):
        if row["size"] == weapon.size:
            return row["reach"]
    return None
