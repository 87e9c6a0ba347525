"""The generated tables of the `phases` pages, computed with the same functions the calculators
use: attack target by ability score and level, Defense bonus by kind of attack, the damage below
0 HP that gives each Wound through each armour, and the chance to flee by Morale score."""

from __future__ import annotations

from typing import Any

from calc.answers.format import number as _number
from calc.answers.format import signed as _signed
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.systems.phases.attack_roll import attack_target, defense_parts
from calc.systems.phases.order import flees
from calc.systems.phases.wounds import wound_row

MINUS = "\N{MINUS SIGN}"


def _span(lo: int, hi: int | None) -> str:
    if hi is None:
        return f"{_number(lo)}+"
    return _number(lo) if lo == hi else f"{_number(lo)}–{_number(hi)}"


def attack_target_grid(data: SystemData) -> dict[str, Any]:
    """One row per listed ability score, one column per level band."""
    bands = data.table("level-reduction")
    columns = [{"id": "score", "label": "Ability target"}]
    columns += [
        {"id": f"levels_{i}", "label": f"Level {_span(b['levels']['min'], b['levels']['max'])}"}
        for i, b in enumerate(bands)
    ]
    rows = []
    for row in data.table("ability-targets"):
        cells = [_number(row["score"])]
        for band in bands:
            inputs = {"target_source": "ability", "ability_score": str(row["score"]), "level": band["levels"]["min"]}
            cells.append(_number(attack_target(inputs, data, [])))
        rows.append(cells)
    return {"columns": columns, "rows": rows, "caption": None}


KINDS = (("melee", "Melee"), ("ranged", "Ranged"), ("spell", "Spell"))


def defense_by_attack(data: SystemData) -> dict[str, Any]:
    """What each parrying weapon and each degree of cover adds to Defense against each kind of attack."""
    columns = [{"id": "source", "label": "Defense from"}] + [{"id": k, "label": label} for k, label in KINDS]
    rows = []
    for row in data.table("parry-bonuses"):
        rows.append(
            [f"{row['weapon']} (parry)"] + [_signed(defense_parts(data, k, row["id"], "none")[0]) for k, _ in KINDS]
        )
    for row in data.table("cover-bonuses"):
        rows.append(
            [f"{row['name']} (cover)"] + [_signed(defense_parts(data, k, "none", row["id"])[1]) for k, _ in KINDS]
        )
    return {"columns": columns, "rows": rows, "caption": None}


def wound_thresholds(data: SystemData) -> dict[str, Any]:
    """For each armour, the damage below 0 HP (at 0 HP, under the ruling) giving each Wound."""
    severities = data.table("wound-severity")
    columns = [{"id": "armour", "label": "Armour"}]
    columns += [{"id": f"w{r['severity']}", "label": f"{r['name']} (Severity {r['severity']})"} for r in severities]
    finite = [b for r in severities for b in (r["damage"]["min"], r["damage"]["max"]) if b is not None]
    rows = []
    for armour in data.table("armour-wound-protection"):
        limit = max(finite) + armour["protection"] + 1
        seen: dict[str, list[int]] = {r["name"]: [] for r in severities}
        for damage in range(1, limit + 1):
            row = wound_row(damage, 0, armour["protection"], "overflow", data)
            if row is not None:
                seen[row["name"]].append(damage)
        cells = [armour["name"]]
        for r in severities:
            got = seen[r["name"]]
            cells.append(_span(got[0], None if got[-1] == limit else got[-1]) if got else "—")
        rows.append(cells)
    return {"columns": columns, "rows": rows, "caption": None}


def morale_chances(data: SystemData) -> dict[str, Any]:
    """For each Morale score the dice can be compared with: the rolls that flee and their chance."""
    expr = data.fact("morale", "morale_dice")
    roll = dice.parse(expr).dist()
    columns = [
        {"id": "morale", "label": "Morale"},
        {"id": "flees_on", "label": f"Flees on {expr} of"},
        {"id": "chance", "label": "Chance"},
        {"id": "percent", "label": "%"},
    ]
    rows = []
    for score in range(roll.min, roll.max + 1):
        fleeing = [t for t in roll.outcomes() if flees(t, score, "above")]
        p = roll.p_where(lambda t, s=score: flees(t, s, "above"))
        rows.append([_number(score), _span(fleeing[0], None) if fleeing else "never", str(p), f"{float(p) * 100:.1f}%"])
    return {"columns": columns, "rows": rows, "caption": None}


TABLES = {
    "attack_target_grid": attack_target_grid,
    "defense_by_attack": defense_by_attack,
    "wound_thresholds": wound_thresholds,
    "morale_chances": morale_chances,
}
