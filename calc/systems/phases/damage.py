"""Damage as a full exact distribution (0 on a miss), and the Wound it causes.

Three sources: an attack's margin of success plus modifiers (at least 1; weapon property dice used
if higher or instead), a monster's damage dice, or the 10 − roll taken when a roll to avoid an
opportunity attack, or to grapple or shove, fails."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import per_attack, result
from calc.answers.per_attack import PerAttack
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dist import Dist
from calc.systems.phases.attack_roll import (
    COVER,
    HIT,
    TargetNumber,
    check_number,
    face_outcome,
    row_by,
    target_number,
    used_roll,
)
from calc.systems.phases.hit import natural_rolls_step
from calc.systems.phases.wounds import wound_row

Step = dict[str, str]


def margin_damage(face: int, number: TargetNumber, inputs: dict[str, Any], data: SystemData) -> int:
    """roll − target number + modifiers (modifiers left out in melee under the other reading),
    at least the minimum damage of a hit."""
    mods = inputs["modifiers"]
    if inputs["attack_type"] == "melee" and not inputs["melee_modifiers"]:
        mods = 0
    return max(data.fact("margin-damage", "minimum_damage"), face - number.value + mods)


def hit_dice(inputs: dict[str, Any], data: SystemData) -> dice.DiceExpr | None:
    """The dice a hit rolls: the monster's damage dice, or the weapon property's die (None: the
    margin alone, nothing rolled). The tracker's Resolve asks the page to roll them."""
    if inputs["mode"] == "monster":
        return inputs["damage_dice"]
    prop = row_by(data, "weapon-properties", "id", inputs["weapon_property"])
    return None if prop["die"] is None else dice.parse(prop["die"])


def _hit_damage(base: int, inputs: dict[str, Any], data: SystemData, rolled: dice.DiceExpr | None = None) -> Dist:
    """The damage distribution of a hit whose margin damage is `base` (unused by monster dice);
    `rolled`: the hit's dice already rolled (`dice.Rolled`), for one hit at the table."""
    least = data.fact("margin-damage", "minimum_damage")
    expr = hit_dice(inputs, data)
    if expr is None:
        return Dist.constant(base)
    die = (rolled or expr).dist()
    if inputs["mode"] == "monster":
        return die.clamp_below(least)
    prop = row_by(data, "weapon-properties", "id", inputs["weapon_property"])
    if prop["use"] == "if higher" or inputs["finesse_reading"] == "if-higher":
        return die.clamp_below(base)
    return die.clamp_below(least)


def _attack(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> tuple[Dist, dict[str, Fraction], PerAttack]:
    number = target_number(inputs, data, steps)
    roll = used_roll(inputs, data, steps)
    natural = inputs["natural_rolls"]
    steps.append(natural_rolls_step(data, natural))
    crit = data.fact("critical-hits", "critical_roll")
    monster = inputs["mode"] == "monster"
    by_base: dict[int, Fraction] = {}  # margin damage of a hit → its chance (one entry for monster dice)
    p = {"hit": Fraction(0), "cover": Fraction(0), "crit": Fraction(0), "miss": Fraction(0)}
    for face, pf in roll.items():
        outcome = face_outcome(face, number, natural, data)
        if outcome == HIT:
            p["hit"] += pf
            p["crit"] += pf if face == crit else 0
            base = 0 if monster else margin_damage(face, number, inputs, data)
            by_base[base] = by_base.get(base, Fraction(0)) + pf
        else:
            p["cover" if outcome == COVER else "miss"] += pf
    landing = [(f"margin {base}", q, _hit_damage(base, inputs, data)) for base, q in by_base.items()]
    if not landing:  # no face hits: an attack that lands would still deal a hit's damage
        landing = [("hit", Fraction(0), _hit_damage(least_margin(inputs, data), inputs, data))]
    attack = PerAttack(landing)
    _damage_steps(inputs, data, steps)
    return attack.per_attack, p, attack


def least_margin(inputs: dict[str, Any], data: SystemData) -> int:
    """The margin damage of the least hit (the minimum damage), for an attack that cannot land."""
    return data.fact("margin-damage", "minimum_damage")


def _damage_steps(inputs: dict[str, Any], data: SystemData, steps: list[Step]) -> None:
    least = data.fact("margin-damage", "minimum_damage")
    if inputs["mode"] == "monster":
        steps.append(
            data.step("damage-dice", f"A hit deals the monster's {inputs['damage_dice']} instead (at least {least}).")
        )
        return
    steps.append(data.step("margin-damage", "Damage is the margin of success: the roll minus the target number."))
    melee_bare = inputs["attack_type"] == "melee" and not inputs["melee_modifiers"]
    if melee_bare:
        steps.append(data.step("ruling:damage-margin", "Other reading: a melee hit deals the bare margin."))
    else:
        steps.append(
            data.step(
                "ruling:damage-margin",
                f"A hit deals roll − target number + modifiers ({inputs['modifiers']:+d}), at least {least}.",
            )
        )
    prop = row_by(data, "weapon-properties", "id", inputs["weapon_property"])
    if prop["die"] is not None:
        if prop["use"] == "if higher":
            steps.append(data.step("damage-dice", f"{prop['name']}: roll {prop['die']} and use it if higher."))
        elif inputs["finesse_reading"] == "if-higher":
            steps.append(
                data.step("ruling:damage-dice", f"Other reading: {prop['name']} {prop['die']} is used if higher.")
            )
        else:
            steps.append(data.step("ruling:damage-dice", f"{prop['name']}: {prop['die']} replaces the margin."))


def _failure(
    inputs: dict[str, Any], data: SystemData, steps: list[Step]
) -> tuple[Dist, dict[str, Fraction], PerAttack]:
    number = check_number(inputs, data, steps, "opportunity-attacks")
    roll = used_roll(inputs, data, steps)
    base = data.fact("opportunity-attacks", "failure_damage_base")
    floor = data.fact("margin-damage", "minimum_damage") if inputs["failure_min_one"] else 0
    p_fail = roll.p_lt(number.value)
    if p_fail:
        fails = roll.condition(lambda f: f < number.value)
        hurt = fails.map(lambda f: max(floor, base - f))
    else:  # no roll fails: the damage a failure would deal with the worst face
        hurt = Dist.constant(max(floor, base - roll.min))
    attack = PerAttack([("failure", p_fail, hurt)])
    if inputs["failure_min_one"]:
        text = f"On a failure you are hit for {base} − the d20 roll, at least {floor}."
    else:
        text = f"Other reading: on a failure you are hit for {base} − the d20 roll, with no minimum (0 if negative)."
    steps.append(data.step("ruling:failure-damage", text))
    return attack.per_attack, {"hit": p_fail, "cover": Fraction(0), "crit": Fraction(0)}, attack


def damage(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    steps: list[Step] = []
    failure = inputs["mode"] == "failure"
    dist, p, attack = _failure(inputs, data, steps) if failure else _attack(inputs, data, steps)
    hp, max_hp = inputs["current_hp"], inputs["max_hp"]
    armour = row_by(data, "armour-wound-protection", "id", inputs["armour"])
    protection = armour["protection"]
    reading = inputs["wound_damage"]
    severities = data.table("wound-severity")
    weight = {row["name"]: 0 for row in severities}  # integer weights: one division per outcome
    death = 0
    at_least = inputs["instant_death"] == "at-least"
    for x, w in dist.weights():
        row = wound_row(x, hp, protection, reading, data)
        if row is not None:
            weight[row["name"]] += w
            if max_hp and (x == max_hp or (at_least and x > max_hp)):
                death += w
    by_name = {name: Fraction(w, dist.total) for name, w in weight.items()}
    p_death = Fraction(death, dist.total)
    p_wound = sum(by_name.values(), Fraction(0))
    who = "you" if failure else "the target"
    read = "the damage below 0 HP" if reading == "overflow" else "the whole blow (other reading)"
    steps.append(
        data.step(
            "ruling:wound-overflow",
            f"At {hp} HP, damage above {hp} takes {who} below 0 HP and causes a Wound; the wound table "
            f"reads {read}, less wound protection {protection} ({armour['name']}).",
        )
    )
    chances = [
        result.chance("You are hit" if failure else "Hit", p["hit"]),
        result.chance("Wound", p_wound),
        *(result.chance(name, q) for name, q in by_name.items()),
    ]
    if not failure and inputs["natural_rolls"]:
        chances.append(result.chance("Critical hit: an extra Wound until the end of next round", p["crit"]))
        steps.append(
            data.step(
                "critical-hits",
                "A natural 20 that hits also gives a Wound lasting to the end of next round "
                "(a Wound, not extra damage).",
            )
        )
        steps.append(data.step("fumbles", "A natural 1 misses (0 damage); the fumble notches an item, not hit points."))
    if failure:
        steps.append(data.step("opportunity-attacks", f"Per roll: {attack.formula().replace('lands', 'fails')}."))
    else:
        steps.append(data.step("margin-damage", f"Per attack: {attack.formula()}."))
    if p["cover"]:
        chances.append(result.chance("Hits the cover instead", p["cover"]))
    if max_hp:
        chances.append(result.chance("Instant death", p_death))
        if at_least:
            text = f"A Wound from {max_hp} damage (maximum HP) or more kills outright."
        else:
            text = f"Other reading: a Wound from exactly {max_hp} damage (maximum HP) kills outright; more does not."
        steps.append(data.step("ruling:instant-death-damage", text))
    rows = [["No wound", "0", result.percent(1 - p_wound), str(1 - p_wound)]]
    rows += [
        [r["name"], str(r["severity"]), result.percent(by_name[r["name"]]), str(by_name[r["name"]])] for r in severities
    ]
    label = "Damage you take" if failure else "Damage to the target"
    what = "per roll" if failure else "per attack"
    shown = result.dist_json(dist, label)
    return {
        "summary": (
            f"Expected damage {what} {float(dist.mean):.2f} (hits {result.percent(attack.hit)}, "
            f"mean {float(attack.on_hit.mean):.2f} when it does); Wound {result.percent(p_wound)}"
        ),
        "attack": per_attack.attack_json(attack, (dist, shown)),
        "chances": chances,
        "distribution": shown,
        "table": result.table("Wound from this roll", ["Wound", "Inventory slots", "Chance", "Exact"], rows),
        "steps": steps,
    }
