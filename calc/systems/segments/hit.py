"""The hit calculator: the d20 roll needed against a descending AC, read from the attack table of a
class group and level, a monster's (enhanced) hit dice, the higher of racial hit dice and class
level, or a raw AAC0; natural 1 misses, natural 20 hits."""

from __future__ import annotations

from typing import Any

from calc.answers import result
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.segments.attack_tables import (
    AttackTable,
    HitDice,
    class_aac0,
    group_name,
    minus,
    monster_column,
    save_label,
    save_row,
    signed,
)


def hit(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[dict[str, str]] = []
    attacker = inputs["attacker"]
    hd = HitDice(inputs["hd"], inputs["hd_bonus"])
    level = inputs["level"]
    if attacker == "racial":
        use_class = level > hd.dice
        steps.append(
            data.step(
                "hit-dice-vs-level",
                f"class level {level} {'exceeds' if use_class else 'does not exceed'} {hd.dice} racial hit dice: "
                f"attacks on the {'class' if use_class else 'Monster Attack'} table",
            )
        )
        attacker = "class" if use_class else "monster"

    monster = attacker == "monster"
    if attacker == "class":
        group = inputs["class_group"]
        aac0 = class_aac0(group, level, data)
        attacks_on = f"{group_name(group, data)}, level {level}"
        steps.append(data.step("attack-tables", f"{attacks_on}: AAC0 {aac0}"))
    elif monster:
        column = monster_column(hd, data)
        aac0 = column["aac0"]
        attacks_on = column["column"]
        attack_hd = hd.attack(data)
        if hd.bonus > 0:
            steps.append(
                data.step(
                    "enhanced-hit-dice",
                    f"{hd} HD attacks as {attack_hd.dice}{'+' if attack_hd.bonus > 0 else ''} HD",
                )
            )
        steps.append(data.step("attack-tables", f'Monster Attack Table column "{attacks_on}": AAC0 {aac0}'))
    else:
        aac0 = inputs["aac0"]
        attacks_on = f"AAC0 {aac0}"
        steps.append(data.step("aac0", f"AAC0 {aac0} given"))

    ac = inputs["ac"] - inputs["ac_bonus"]
    if inputs["ac_bonus"]:
        steps.append(
            data.step(
                "armor-class",
                f"AC {minus(inputs['ac'])} with a {signed(inputs['ac_bonus'])} AC bonus is AC {minus(ac)}",
            )
        )
    table = AttackTable(aac0, inputs["star_reading"], inputs["table_cap"])
    need = table.needs(ac, data)
    if aac0.endswith("*"):
        how = "AAC0 21" if inputs["star_reading"] == "aac0-21" else "AAC0 20 with a 20 at AC 1"
        steps.append(data.step("ruling:twenty-star", f'"{aac0}" read as {how}'))
    rule_text = "table formula" if inputs["table_cap"] == "formula" else "a modified 20 always hits"
    steps.append(
        data.step("six-twenties", f"AAC0 {aac0} against AC {minus(ac)}: the table asks {minus(need)} ({rule_text})")
    )

    bonus = inputs["bonus"]
    sides = data.die_sides("attack-roll", "die")
    always_hits = data.fact("natural-rolls", "always_hits")
    always_misses = data.fact("natural-rolls", "always_misses")

    def hits(roll: int) -> bool:
        return roll == always_hits or (roll != always_misses and roll + bonus >= need)

    p = Dist.die(sides).p_where(hits)
    lowest = min(r for r in range(1, sides + 1) if hits(r))
    natural = need - bonus
    if natural > sides:
        reach = f"the total never gets there (a natural {always_hits} still always hits)"
    elif natural <= 1:
        reach = f"the total always gets there (a natural {always_misses} still always misses)"
    else:
        reach = f"natural {natural} or more"
    steps.append(
        data.step("attack-roll", f"d{sides} {'+' if bonus >= 0 else '−'} {abs(bonus)} ≥ {minus(need)}: {reach}")
    )
    if need - bonus > always_hits or need - bonus <= always_misses:
        steps.append(
            data.step(
                "natural-rolls", f"a natural {always_hits} always hits and a natural {always_misses} always misses"
            )
        )
    if need - bonus > always_hits:
        needed = result.roll_needed(lowest, sides, f"{always_hits} (natural {always_hits} only)")
    elif need - bonus <= always_misses:
        needed = result.roll_needed(lowest, sides, f"{lowest}+ (natural {always_misses} misses)")
    else:
        needed = result.roll_needed(lowest, sides)

    rows = [
        ["Monster Attack Table column" if monster else "Attack table", attacks_on],
        ["Target AC", minus(ac)],
        ["AAC0", aac0],
        ["Table needs", minus(need)],
    ]
    if monster:
        saves = save_row(hd, data)
        rows += [
            ["Monster Save Table row", save_label(saves)],
            ["Hit points", hd.hit_points(data)],
            ["Morale bonus", signed(max(hd.bonus, 0))],
            ["Overall hit dice", str(hd.saves(data))],
        ]
    rows.append(["Roll needed", needed["text"]])
    return {
        "summary": f"Hits on {needed['text']} ({result.percent(p)})",
        "chances": [result.chance("Hit", p), result.chance("Miss", 1 - p)],
        "roll_needed": needed,
        "table": result.table("Attack", ["", "Value"], rows),
        "steps": steps,
    }
