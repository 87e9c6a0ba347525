"""Standard and quick defense: the defense roll caps the +4 / +2 to AC and SR, and the attacker's
hit chance against the AC that results comes from the hit calculator's own attack engine
(`resolve_attack`), so a defense of +0 gives exactly the hit calculator's answer."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

from calc.answers import result
from calc.answers.format import signed
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist
from calc.systems.action_points.attack import Outcomes, resolve_attack

TAKEN = {"none": (), "standard": ("standard-defense",), "quick": ("quick-defense",)}
TAKEN["both"] = TAKEN["standard"] + TAKEN["quick"]


def raised(ac: int, rolls: tuple[int, ...], bonuses: tuple[int, ...], own_roll: bool) -> int:
    """Your AC once the defenses are up: under the ruling each raise is capped by its own roll and
    never negative; literally the AC is AC + bonuses or the lowest roll, whichever is less."""
    if own_roll:
        return ac + sum(min(b, max(0, r - ac)) for r, b in zip(rolls, bonuses, strict=True))
    return min(ac + sum(bonuses), *rolls) if rolls else ac


def defended_ac(ac: int, sides: int, roll_bonus: int, bonuses: tuple[int, ...], own_roll: bool) -> Dist:
    """The exact distribution of the AC over every face of each defense roll."""
    counts = Counter(
        raised(ac, tuple(f + roll_bonus for f in faces), bonuses, own_roll)
        for faces in product(range(1, sides + 1), repeat=len(bonuses))
    )
    return Dist.from_weights(counts)


def attacker_inputs(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """The hit calculator's inputs for this attacker: an own weapon with the attacker's threshold,
    the whole attack bonus as one number (range checked by this calculator's declaration)."""
    asked = {
        "use_preset": False,
        "ability": 0,
        "weapon_bonus": 0,
        "misc": 0,
        "threshold": inputs["threshold"],
        "threat_range": inputs["threat_range"],
        "miss_chance": inputs["miss_chance"],
        "miss_chance_reading": inputs["miss_chance_reading"],
    }
    return declared.validate(data.calculator("hit")["inputs"], asked) | {"misc": inputs["attack_bonus"]}


def attacker_outcomes(hit_inputs: dict[str, Any], data: SystemData, ac: int) -> tuple[Outcomes, list[dict[str, str]]]:
    """The attacker's critical / regular / miss chances against `ac`, by the hit calculator's engine."""
    attack = resolve_attack(hit_inputs | {"defense": ac}, data)
    return attack.outcomes, [s for s in attack.steps if s["rule"] not in ("weapons", "standard-attack")]


def defense(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    ac, own_roll = inputs["defense"], inputs["cap_reading"] == "own_roll"
    rules = TAKEN[inputs["taken"]]
    bonuses = tuple(data.fact(rule, "defense_bonus") for rule in rules)
    roll_rule, roll_fact = ("standard-attack", "attack_die")
    if inputs["roll_with"] == "other":
        roll_rule, roll_fact = ("standard-defense", "roll_without_melee_weapon")
    sides = data.die_sides(roll_rule, roll_fact)
    steps = []
    for rule, bonus in zip(rules, bonuses, strict=True):
        kind = data.fact(rule, "action_type")
        cost = data.fact("action-types", f"{kind}_ap")
        steps.append(
            data.step(rule, f"{data.rule(rule)['title']}: a {kind} action ({cost} AP), {signed(bonus)} to AC and SR.")
        )
    if len(rules) == 2 and data.fact("quick-defense", "stacks_with_standard"):
        steps.append(data.step("quick-defense", "A quick defense stacks with a standard defense (not with itself)."))
    if rules:
        melee = inputs["roll_with"] == "melee"
        how = "an attack roll with your melee weapon" if melee else "1d20 + initiative + half level"
        steps.append(
            data.step(
                "standard-defense",
                f"Each defense rolls {how}: 1d{sides} {signed(inputs['roll_bonus'])}; the AC cannot exceed that roll.",
            )
        )
        steps.append(
            data.step(
                "ruling:defense-roll-cap",
                "Each raise is capped by its own roll and a low roll adds nothing (ruling)."
                if own_roll
                else "Literal reading: the AC becomes the lower of AC + bonuses and each roll, even below your AC.",
            )
        )
    armour = defended_ac(ac, sides, inputs["roll_bonus"], bonuses, own_roll)
    hit_inputs = attacker_inputs(inputs, data)
    base, hit_steps = attacker_outcomes(hit_inputs, data, ac)
    steps.append(
        data.step("standard-attack", f"The attacker rolls 1d20 {signed(inputs['attack_bonus'])} against your AC or SR.")
    )
    steps += hit_steps
    rows, hit, crit = [], Fraction(0), Fraction(0)
    for value, p in armour.items():
        o = base if value == ac else attacker_outcomes(hit_inputs, data, value)[0]
        hit += p * o.hit
        crit += p * o.critical
        rows.append([str(value), result.percent(p), result.percent(o.hit), result.percent(o.critical)])
    full = ac + sum(bonuses)
    chances = [
        result.chance("Attacker hits you", hit),
        result.chance("Attacker hits you without a defense", base.hit),
        result.chance("Critical hit", crit),
    ]
    if rules:
        chances.append(result.chance(f"Your AC reaches the full {full}", armour.p_ge(full)))
        if not own_roll:
            chances.append(result.chance(f"Your AC drops below {ac}", armour.p_lt(ac)))
    summary = (
        f"The attacker hits {result.percent(hit)} instead of {result.percent(base.hit)}; "
        f"your AC averages {_dec(armour.mean)} (from {ac})"
    )
    return {
        "summary": summary,
        "chances": chances,
        "distribution": result.dist_json(armour, "Armor class (or spell resistance) until your next turn"),
        "table": result.table(
            "Your AC after the defense", ["AC or SR", "Chance", "Attacker hits", "Critical hit"], rows
        ),
        "steps": steps,
    }


def _dec(x: Fraction) -> str:
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
