"""Hit and damage of one attack: 1d20 + bonuses against AC or SR, the critical range that always
hits, the miss chance, and the damage of a miss, a regular hit and a critical hit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import Any

from calc.answers import per_attack, result
from calc.answers.format import signed
from calc.answers.per_attack import PerAttack, mean_text
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dist import Dist
from calc.systems.action_points.weapons import Weapon, reach_of, resolve


@dataclass(frozen=True)
class Outcomes:
    """Exact chances of the three ways an attack ends, after the miss chance."""

    critical: Fraction
    regular: Fraction
    miss: Fraction

    @property
    def hit(self) -> Fraction:
        return self.critical + self.regular


@dataclass(frozen=True)
class Attack:
    """An attack roll fully worked out: the weapon, the total bonus, the outcome chances, the steps."""

    weapon: Weapon
    bonus: int
    first_hit: int | None
    outcomes: Outcomes
    steps: list[dict[str, str]]


def attack_bonus(inputs: dict[str, Any], data: SystemData, weapon: Weapon) -> tuple[int, list[dict[str, str]]]:
    """Everything added to the d20, with the rules that add it."""
    magic = inputs["kind"] == "magic"
    if weapon.type is not None and (weapon.type == "magic") != magic:
        needed = "Magical (a spell attack against SR)" if weapon.type == "magic" else "Martial (an attack against AC)"
        raise InputError(
            "kind", f"{weapon.name} is a {'magical' if weapon.type == 'magic' else 'martial'} weapon: choose {needed}"
        )
    ability = data.fact("standard-attack", "magic_ability" if magic else "martial_ability")
    parts = [(inputs["ability"], ability), (inputs["weapon_bonus"], "weapon"), (inputs["misc"], "other")]
    if weapon.attack:
        parts.append((weapon.attack, "properties"))
    steps = []
    if inputs["attack"] == "charge":
        charge = data.fact("charge", "attack_bonus")
        parts.append((charge, "charge"))
        steps.append(data.step("charge", f"Charging: {signed(charge)} to the attack roll."))
    if inputs["wounds"]:
        penalty = inputs["wounds"] * data.fact("wounds", "penalty_per_wound")
        parts.append((penalty, "wounds"))
        steps.append(data.step("wounds", f"{inputs['wounds']} wound(s): {signed(penalty)} to the attack roll."))
    if inputs["reach_rule"]:
        reach = reach_of(data, weapon)
        if reach is None:
            raise InputError(
                "reach_rule",
                "reach applies only to melee weapons: choose a melee weapon preset (its size sets the reach)",
            )
        parts.append((inputs["initiative"] + reach, "initiative + reach"))
        steps.append(
            data.step(
                "reach",
                f"Reach: initiative {signed(inputs['initiative'])} + reach {reach} ({weapon.size}) added in melee.",
            )
        )
    bonus = sum(v for v, _ in parts)
    sides = data.die_sides("standard-attack", "attack_die")
    target = data.fact("standard-attack", "magic_target" if magic else "martial_target")
    shown = " ".join(f"{signed(v)} ({label})" for v, label in parts)
    line = f"1d{sides} {shown} = 1d{sides} {signed(bonus)} against {target} {inputs['defense']}."
    return bonus, [data.step("standard-attack", line), *steps]


def face_outcome(natural: int, bonus: int, defense: int, threshold: int, range_always_hits: bool) -> str:
    """What a natural roll does (before the miss chance): "critical", "regular" or "miss"."""
    hits = natural + bonus >= defense
    in_range = natural >= threshold
    if in_range and hits:
        return "critical"
    if hits or (in_range and range_always_hits):
        return "regular"
    return "miss"


def roll_outcomes(
    sides: int, bonus: int, defense: int, threshold: int, range_always_hits: bool
) -> tuple[int, int, int]:
    """How many natural rolls give a critical, a regular hit and a miss (before the miss chance)."""
    faces = [face_outcome(n, bonus, defense, threshold, range_always_hits) for n in range(1, sides + 1)]
    return faces.count("critical"), faces.count("regular"), faces.count("miss")


def miss_roll_misses(face: int, percent: int, reading: str) -> bool:
    """Whether a d% face turns a hit into a miss: at or under the miss chance by the glossary
    reading (the ruling), above it by the sentence read literally ("… you hit")."""
    at_or_under = face <= percent
    return at_or_under if reading == "glossary" else not at_or_under


def miss_chance_misses(inputs: dict[str, Any], data: SystemData) -> Fraction:
    """The chance the d% turns a hit into a miss, under the chosen reading: its faces counted."""
    percent = inputs["miss_chance"]
    if not percent:
        return Fraction(0)
    sides = data.die_sides("miss-chance", "roll")
    reading = inputs["miss_chance_reading"]
    return Fraction(sum(miss_roll_misses(f, percent, reading) for f in range(1, sides + 1)), sides)


def resolve_attack(inputs: dict[str, Any], data: SystemData) -> Attack:
    """Weapon, bonus, and the exact chances of critical, regular hit and miss."""
    weapon = resolve(inputs, data)
    bonus, steps = attack_bonus(inputs, data, weapon)
    sides = data.die_sides("standard-attack", "attack_die")
    always = inputs["threat_range"] == "always_hits"
    c, r, m = roll_outcomes(sides, bonus, inputs["defense"], weapon.threshold, always)
    first_hit = next(
        (n for n in range(1, sides + 1) if n + bonus >= inputs["defense"] or (always and n >= weapon.threshold)), None
    )
    by_total = inputs["defense"] - bonus
    if always:
        crit_from = max(by_total, weapon.threshold)
        if crit_from > sides:
            when = f"the total cannot reach {inputs['defense']}, so no roll is a critical hit"
        else:
            when = f"a critical hit when the total reaches {inputs['defense']} (natural {crit_from}+)"
        steps.append(
            data.step(
                "critical-range",
                f"A natural {weapon.threshold}+ is in the critical range: {when}, otherwise still a regular hit.",
            )
        )
        steps.append(data.step("ruling:critical-range-hits", "The critical range always hits (ruling)."))
    else:
        steps.append(
            data.step(
                "critical-range",
                f"A natural {weapon.threshold}+ is a critical hit only when the total also hits; short rolls miss.",
            )
        )
        steps.append(data.step("ruling:critical-range-hits", "Read as: a critical must also hit (alternative)."))
    pc, pr, pm = Fraction(c, sides), Fraction(r, sides), Fraction(m, sides)
    lost = miss_chance_misses(inputs, data)
    if lost:
        glossary = inputs["miss_chance_reading"] == "glossary"
        steps.append(
            data.step(
                "miss-chance",
                f"Miss chance {inputs['miss_chance']}%: a d% roll "
                + ("at or under it misses" if glossary else "above it misses")
                + f" ({result.percent(lost)}); a critical that misses this way is a regular hit.",
            )
        )
        steps.append(
            data.step(
                "ruling:miss-chance-roll",
                "Glossary reading: the miss chance is the chance to miss (ruling)."
                if glossary
                else "Literal reading of the sentence: the miss chance is the chance to hit (alternative).",
            )
        )
    outcomes = Outcomes(critical=pc * (1 - lost), regular=pr * (1 - lost) + pc * lost, miss=pm + pr * lost)
    return Attack(weapon, bonus, first_hit, outcomes, [*weapon.steps, *steps])


def hit(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """Chances of a critical hit, a regular hit and a miss."""
    attack = resolve_attack(inputs, data)
    o = attack.outcomes
    sides = data.die_sides("standard-attack", "attack_die")
    needed = result.roll_needed(attack.first_hit, sides)
    summary = (
        f"Hits {result.percent(o.hit)} (critical {result.percent(o.critical)}); "
        f"needs a natural {needed['text']} on the d{sides}"
    )
    return {
        "summary": summary,
        "chances": [
            result.chance("Hit", o.hit),
            result.chance("Critical hit", o.critical),
            result.chance("Regular hit", o.regular),
            result.chance("Miss", o.miss),
        ],
        "roll_needed": needed,
        "steps": attack.steps,
    }


# --- damage ----------------------------------------------------------------------------------------
Rolling = Callable[[dice.DiceExpr], dice.DiceExpr] | None
"""For one attack at the table (the tracker's Resolve): given the dice the hit rolls (after a
power attack's), the same dice already rolled (`dice.rolled`); None: every outcome."""


def hit_damage(
    inputs: dict[str, Any], data: SystemData, weapon: Weapon, rolled: Rolling = None
) -> tuple[Dist, Dist, list[str], list[dict]]:
    """(regular hit, critical hit) damage before weakness and resistance, their descriptions and steps."""
    expr, bonus, steps = weapon.dice, inputs["damage_bonus"], []
    style = inputs["attack"]
    if style == "charge" and data.fact("charge", "adds_level_to_damage"):
        bonus += inputs["level"]
        steps.append(data.step("charge", f"Charging adds your level, {inputs['level']}, to the damage."))
    if style == "power":
        times = data.fact("power-attack", "dice_rolled")
        expr = expr.scaled(times)
        if inputs["power_bonuses"] == "twice":
            bonus *= times
        once = inputs["power_bonuses"] == "once"
        steps.append(
            data.step(
                "power-attack",
                f"Power attack: the dice are rolled {times} times ({expr.dice} dice); bonuses "
                + ("added once." if once else f"counted {times} times."),
            )
        )
        steps.append(
            data.step("ruling:power-attack-dice", "Bonuses once (ruling)." if once else "Bonuses twice (alternative).")
        )
    if rolled is not None:
        expr = rolled(expr)
    m = weapon.multiplier
    base = str(expr.plus(bonus))
    if style == "quick" and data.fact("quick-attack", "minimum_damage"):
        least = expr.min + bonus
        regular = Dist.constant(least)
        multiply = inputs["quick_critical"] == "multiply"
        critical = Dist.constant(least * m if multiply else least)
        labels = [str(least), f"{least} ×{m}" if multiply else str(least)]
        steps.append(data.step("quick-attack", f"Quick attack: minimum damage, {least}."))
        steps.append(
            data.step(
                "ruling:quick-attack-critical",
                f"A critical multiplies the minimum: {least * m} (ruling)."
                if multiply
                else f"A critical stays at the minimum, {least} (alternative).",
            )
        )
        return regular, critical, labels, steps
    regular = expr.dist() + bonus
    if inputs["multiply"] == "total":
        critical = regular.scale(m)
        labels = [base, f"({base}) ×{m}"]
        note = "the whole total, dice and bonuses (ruling)"
    else:
        critical = expr.dice_dist().scale(m) + (expr.modifier + bonus)
        added = expr.modifier + bonus
        labels = [base, f"{dice_only(expr)} ×{m}" + (f" {signed(added)}" if added else "")]
        note = "the dice only (alternative)"
    steps.append(data.step("critical-damage", f"A critical hit multiplies {note} by ×{m}."))
    return regular, critical, labels, steps


def dice_only(expr: dice.DiceExpr) -> str:
    """The dice of an expression without its modifier, e.g. `2d8`."""
    return str(dice.DiceExpr(expr.terms, 0))


def adjust(dist: Dist, weakness: int, resistance: int, floor: int) -> Dist:
    """Weakness adds, resistance subtracts, never below the floor."""
    return (dist + (weakness - resistance)).clamp_below(floor)


def wound_needed(inputs: dict[str, Any], data: SystemData) -> tuple[int, str]:
    """The least damage of one hit that gives the target a wound, and how it was found."""
    base, top = inputs["target_base_hp"], inputs["target_max_hp"]
    divisor = data.fact("wounds", "threshold_fraction_of_max")
    if inputs["wound_rounding"] == "up":
        threshold = min(Fraction(base), Fraction(top, divisor))
        needed = ceil(threshold)
        shown = f"{float(threshold):g}"
    else:
        needed = min(base, top // divisor)
        shown = str(needed)
    return max(needed, 1), f"min(base HP {base}, max HP {top} ÷ {divisor}) = {shown}"


def damage_parts(
    inputs: dict[str, Any], data: SystemData, rolled: Rolling = None
) -> tuple[Attack, Dist, Dist, list[str], list[dict]]:
    """The attack's outcomes and the damage of a regular and of a critical hit (weakness and
    resistance applied), their labels and steps: the damage calculator's pieces (the round
    calculator reads them again at each AC the target's wounds leave)."""
    attack = resolve_attack(inputs, data)
    regular, critical, labels, steps = hit_damage(inputs, data, attack.weapon, rolled)
    floor = data.fact("attack-damage", "minimum_damage")
    w, r = inputs["weakness"], inputs["resistance"]
    regular, critical = adjust(regular, w, r, floor), adjust(critical, w, r, floor)
    if w or r:
        steps.append(
            data.step("attack-damage", f"Weakness {signed(w)}, then resistance {signed(-r)}, never below {floor}.")
        )
    return attack, regular, critical, labels, steps


def attack_dist(attack: Attack, regular: Dist, critical: Dist) -> Dist:
    """One whole attack's damage, a miss as 0 (the damage calculator's "per attack")."""
    o = attack.outcomes
    return Dist.mixture([(o.miss, Dist.constant(0)), (o.regular, regular), (o.critical, critical)])


def attack_summary(total: Dist, hit: Fraction) -> str:
    """The damage calculator's summary of a whole attack."""
    return f"{_mean(total)} damage on average per attack ({total.min} to {total.max}); hits {result.percent(hit)}"


def damage(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """The full damage distribution of one attack (misses as 0) or of a hit or critical hit."""
    attack, regular, critical, labels, steps = damage_parts(inputs, data)
    o = attack.outcomes
    outcome = inputs["outcome"]
    if outcome == "attack":
        p_crit, p_reg, p_miss = o.critical, o.regular, o.miss
    elif outcome == "hit":
        p_crit, p_reg, p_miss = Fraction(0), Fraction(1), Fraction(0)
    else:
        p_crit, p_reg, p_miss = Fraction(1), Fraction(0), Fraction(0)
    parts = [(p_miss, Dist.constant(0)), (p_reg, regular), (p_crit, critical)]
    total = Dist.mixture(parts)
    # the whole attack, whatever `outcome` shows: expected damage per attack
    whole = PerAttack([("Regular hit", o.regular, regular), ("Critical hit", o.critical, critical)])
    steps.append(
        data.step(
            "critical-damage",
            f"Per attack: a regular hit {o.regular} × mean {mean_text(regular.mean)} + a critical hit "
            f"{o.critical} × mean {mean_text(critical.mean)}: {whole.formula()}.",
        )
    )
    chances = [result.chance("Hits", p_crit + p_reg)]
    if inputs["wounds_rule"]:
        needed, how = wound_needed(inputs, data)
        chances.append(result.chance(f"Gives a wound ({needed}+ damage)", total.p_ge(needed)))
        steps.append(data.step("wounds", f"Wound threshold {how}: a hit of {needed} or more gives 1 wound."))
        reading = "exact, damage must reach it (ruling)" if inputs["wound_rounding"] == "up" else "rounded down"
        steps.append(data.step("ruling:wound-threshold-rounding", f"A fractional tenth is {reading}."))
    chances += [result.chance("Critical hit", p_crit), result.chance("Deals at least 1 damage", total.p_ge(1))]
    rows = [
        ["Miss", result.percent(p_miss), "0", _mean(Dist.constant(0))],
        ["Regular hit", result.percent(p_reg), labels[0], _mean(regular)],
        ["Critical hit", result.percent(p_crit), labels[1], _mean(critical)],
    ]
    if outcome == "attack":
        summary = attack_summary(total, whole.hit)
    else:
        what = {"hit": "on a regular hit", "critical": "on a critical hit"}[outcome]
        summary = f"{per_attack.summary(whole)}; {_mean(total)} damage on average {what} ({total.min} to {total.max})"
    shown = result.dist_json(total, "Damage")
    return {
        "summary": summary,
        "chances": chances,
        "distribution": shown,
        "attack": per_attack.attack_json(whole, (total, shown)),
        "table": result.table("Outcomes", ["Outcome", "Chance", "Damage roll", "Mean damage taken"], rows),
        "steps": [*attack.steps, *steps],
    }


def _mean(dist: Dist) -> str:
    """A mean as a short decimal (exact when it terminates within 3 places)."""
    value = dist.mean
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return text
